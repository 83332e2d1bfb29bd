import Foundation

/// One Server-Sent Event, encoded as the `text/event-stream` format wants it.
///
/// ```swift
/// ServerSentEvent(id: "42", event: "task.updated", data: "{\"id\":\"…\"}").encoded
/// // id: 42\nevent: task.updated\ndata: {"id":"…"}\n\n
/// ```
///
/// Multi-line data becomes one `data:` line per line (the client joins them with `\n`).
/// Line breaks in `id` and `event` would end the field early, so they are removed.
public struct ServerSentEvent: Sendable, Equatable {
    /// Sent as `id:`; the browser's `EventSource` returns it as `Last-Event-ID` on reconnect.
    public var id: String? { didSet { encoded = encode() } }
    /// Sent as `event:`; `EventSource` dispatches it to listeners of that type.
    public var event: String? { didSet { encoded = encode() } }
    /// The payload; may contain line breaks.
    public var data: String { didSet { encoded = encode() } }
    /// Sent as `retry:`: how long the client waits before reconnecting, in milliseconds.
    public var retry: Int? { didSet { encoded = encode() } }

    /// The frame: field lines followed by a blank line. Encoded when the event is made, so
    /// an event fanned out to many streams is encoded once, not once per stream.
    public private(set) var encoded = Data()

    /// An event with the given fields.
    public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
        encoded = encode()
    }

    private func encode() -> Data {
        var frame: [UInt8] = []
        frame.reserveCapacity(data.utf8.count + 64)
        if let id { frame += "id: \(Self.singleLine(id))\n".utf8 }
        if let event { frame += "event: \(Self.singleLine(event))\n".utf8 }
        if let retry { frame += "retry: \(retry)\n".utf8 }
        // One `data:` line per line; "\r\n", "\r" and "\n" each end a line.
        let dataPrefix = Array("data: ".utf8)
        frame += dataPrefix
        var afterCarriageReturn = false
        for byte in data.utf8 {
            if byte == UInt8(ascii: "\n"), afterCarriageReturn {
                afterCarriageReturn = false
                continue
            }
            afterCarriageReturn = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                frame.append(UInt8(ascii: "\n"))
                frame += dataPrefix
            } else {
                frame.append(byte)
            }
        }
        frame += [UInt8(ascii: "\n"), UInt8(ascii: "\n")]
        return Data(frame)
    }

    /// A comment frame (`: text`), which clients ignore; the server's heartbeat is one.
    public static func comment(_ text: String) -> Data {
        Data(": \(singleLine(text))\n\n".utf8)
    }

    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" })
    }
}

extension Response {
    /// A `text/event-stream` response that sends each event as it is produced, until the
    /// sequence ends or the client goes away (the sequence's task is then cancelled, so an
    /// `AsyncStream` producer sees `onTermination`).
    ///
    /// While the stream is idle, the server sends a `: keepalive` comment every
    /// ``HTTPServer/Configuration/sseHeartbeat`` — any `.stream` response whose
    /// `Content-Type` is `text/event-stream` gets them; handlers never send their own.
    public static func eventStream<Events: AsyncSequence & Sendable>(_ events: Events, status: HTTPStatus = .ok) -> Response
    where Events.Element == ServerSentEvent {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        let relay = Task {
            do {
                for try await event in events { continuation.yield(event.encoded) }
            } catch {}
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return Response(status: status, headers: eventStreamHeaders, body: .stream(chunks))
    }

    /// The header fields of an event stream: its media type, no caching, no proxy buffering.
    public static var eventStreamHeaders: HTTPHeaders {
        ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"]
    }
}
