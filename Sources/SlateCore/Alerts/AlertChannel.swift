import Foundation

/// A way alerts reach people: open pages, a webhook, email, Web Push.
public protocol AlertChannel: Sendable {
    /// The first part of every delivery key this channel makes (`page`, `webhook`, `push`).
    var name: String { get }
    /// The delivery keys an account's alert goes to: `[name]` for a channel with one
    /// destination, `name:device` per device, `[]` when the account has not set it up.
    func targets(accountID: UUID, settings: AlertSettings) throws -> [String]
    /// Sends one alert; throwing makes the scheduler try again later (with backoff).
    func deliver(_ alert: FiredAlert) async throws
    /// How many alerts the scheduler hands the channel at once (each call may wait on a
    /// network answer); 32 unless the channel says otherwise.
    var concurrentSends: Int { get }
}

extension AlertChannel {
    public var concurrentSends: Int { 32 }
}

/// One alert on its way through one channel to one device.
public struct FiredAlert: Sendable {
    /// The same for every attempt: receivers can use it to drop a repeat.
    public let deliveryID: UUID
    public let accountID: UUID
    public let task: TaskItem
    /// When it was due to fire.
    public let fireAt: Date
    /// Sent more than a minute after `fireAt`.
    public let isLate: Bool
    /// The delivery key (see `AlertChannel.targets`).
    public let channel: String
    /// The account's calendar (its time zone), for showing the due time.
    public let calendar: Calendar
    /// An earlier attempt may have reached the receiver (see `AlertDelivery.mayBeRepeat`):
    /// channels say so (`"repeat": true`, `X-Slate-Redelivery`), receivers drop a known id.
    public var mayBeRepeat: Bool = false
    /// A test alert asked for in settings: its task is made up and cannot be acted on.
    public var isTest: Bool = false

    /// The device part of the key (`push:abc` → `abc`), nil for a channel without devices.
    public var device: String? {
        channel.firstIndex(of: ":").map { String(channel[channel.index(after: $0)...]) }
    }
}

/// Why a delivery could not be made and should not be tried again (a push subscription
/// that is gone, 404/410).
public struct PermanentDeliveryFailure: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
