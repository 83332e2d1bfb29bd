extension StringProtocol {
    /// The text without the leading and trailing bytes `isTrimmed` accepts, which must be
    /// ASCII (so the text is never cut inside a character). Found on the UTF-8 bytes:
    /// Foundation's `trimmingCharacters(in:)` bridges through `NSString` and builds a
    /// character set, about 25,000 instructions a call (callgrind), where this costs a few
    /// hundred. Inlinable: made for each caller's own string type (through the generic
    /// form a Substring's bytes cost 7,000 instructions).
    @inlinable public func trimmingASCII(where isTrimmed: (UInt8) -> Bool) -> String {
        let bytes = utf8
        var start = bytes.startIndex
        while start < bytes.endIndex, isTrimmed(bytes[start]) { bytes.formIndex(after: &start) }
        // One pass forward (a generic string's bytes go one way): the end is just past the
        // last byte kept.
        var end = start
        var index = start
        while index < bytes.endIndex {
            let kept = !isTrimmed(bytes[index])
            bytes.formIndex(after: &index)
            if kept { end = index }
        }
        return String(self[start..<end])
    }

    /// The text without leading and trailing optional white space as HTTP defines it
    /// (RFC 9110 §5.6.3: spaces and horizontal tabs), as a header value is read.
    @inlinable public var trimmingHTTPWhitespace: String { trimmingASCII { $0 == 0x20 || $0 == 0x09 } }
}
