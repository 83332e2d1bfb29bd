import Foundation

/// A key given twice in one JSON object. `JSONSerialization` keeps the last silently, so
/// `{"title":"a","title":"b"}` would read as "b"; Slate refuses such a document instead.
public struct JSONDuplicateKey: Sendable, Hashable {
    /// The key, with its escapes undone.
    public var key: String
    /// The line (1-based) where it appears the second time.
    public var line: Int

    /// The first key repeated within one object of `data`, or nil when there is none.
    ///
    /// Meant for text that has already parsed as JSON: it follows the structure without
    /// checking it. It walks with its own stack, so nesting depth does not reach the call stack.
    public static func first(in data: Data) -> JSONDuplicateKey? {
        data.withUnsafeBytes { raw in first(in: raw.bindMemory(to: UInt8.self)) }
    }

    private enum Frame {
        case object(keys: Set<String>, expectsKey: Bool)
        case array
    }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> JSONDuplicateKey? {
        var stack: [Frame] = []
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"):
                stack.append(.object(keys: [], expectsKey: true))
            case UInt8(ascii: "["):
                stack.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if case .object(let keys, _)? = stack.last { stack[stack.count - 1] = .object(keys: keys, expectsKey: true) }
            case UInt8(ascii: "\""):
                let start = index + 1
                var hasEscape = false
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        hasEscape = true
                        index += 1
                    }
                    index += 1
                }
                guard case .object(var keys, true)? = stack.last else { break }
                // The slot lets go of the set first, so that inserting changes it in place: a
                // second reference would copy every key on every insert (quadratic, and this
                // runs on every request body before sign-in).
                stack[stack.count - 1] = .array
                let text = UnsafeBufferPointer(rebasing: bytes[start..<min(index, bytes.count)])
                let key = hasEscape ? unescaped(text) : String(decoding: text, as: UTF8.self)
                guard keys.insert(key).inserted else { return JSONDuplicateKey(key: key, line: line) }
                stack[stack.count - 1] = .object(keys: keys, expectsKey: false)
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A string's content with its JSON escapes undone (by JSONSerialization itself).
    private static func unescaped(_ text: UnsafeBufferPointer<UInt8>) -> String {
        let literal = Data([UInt8(ascii: "\"")] + Array(text) + [UInt8(ascii: "\"")])
        return (try? JSONSerialization.jsonObject(with: literal, options: [.fragmentsAllowed])) as? String
            ?? String(decoding: text, as: UTF8.self)
    }
}
