import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// The open-pages channel: an `alert` event on every live event stream (`GET
/// /api/v1/events`) of the account. The web app shows it as a notification when the page
/// may, else as a banner. Delivered once per alert, to the pages open at that moment.
public final class PageAlerts: AlertChannel {
    public let name = "page"
    private let streams = Mutex<[UUID: [UUID: AsyncStream<ServerSentEvent>.Continuation]]>([:])

    public init() {}

    public func targets(accountID: UUID, settings: AlertSettings) throws -> [String] { [name] }

    /// Handing an event to open streams does not wait on the network.
    public var concurrentSends: Int { 64 }

    public func deliver(_ alert: FiredAlert) async throws {
        let event = ServerSentEvent(event: "alert", data: String(decoding: AlertPayload.data(alert), as: UTF8.self))
        let listeners = streams.withLock { Array(($0[alert.accountID] ?? [:]).values) }
        for listener in listeners { listener.yield(event) }
    }

    /// The alert events of `accountID` from now on, until the stream is dropped.
    func subscribe(_ accountID: UUID) -> AsyncStream<ServerSentEvent> {
        let key = UUID()
        let (stream, continuation) = AsyncStream<ServerSentEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        streams.withLock { $0[accountID, default: [:]][key] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.streams.withLock { $0[accountID]?[key] = nil }
        }
        return stream
    }
}
