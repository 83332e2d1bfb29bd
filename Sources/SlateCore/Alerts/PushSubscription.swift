import Foundation
import SlateStore

/// A browser or installed web app that receives alerts by Web Push: the push service's
/// endpoint and the keys the browser made for this subscription (RFC 8291).
public struct PushSubscription: Codable, Sendable, Identifiable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// The push service URL to POST messages to.
    public var endpoint: String
    /// The browser's P-256 public key, base64url (65 bytes decoded).
    public var p256dh: String
    /// The 16-byte authentication secret, base64url.
    public var auth: String
    /// What the user calls the device ("Firefox on the laptop").
    public var label: String
    public var created: Date

    public init(id: UUID = UUID(), accountID: UUID, endpoint: String, p256dh: String, auth: String, label: String, created: Date) {
        self.id = id
        self.accountID = accountID
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.label = label
        self.created = created
    }

    /// Checks what a browser sent: an https endpoint (http only on loopback, for tests and
    /// local push services), a 65-byte key and a 16-byte secret.
    public static func validated(accountID: UUID, endpoint: String, p256dh: String, auth: String, label: String, now: Date) throws -> PushSubscription {
        guard endpoint.count <= 2048, let url = URL(string: endpoint), let host = url.host, !host.isEmpty,
              url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
        else {
            throw SlateError.invalid(field: "endpoint", message: "The push endpoint must be an https URL (at most 2048 characters).")
        }
        guard Base64URL.decode(p256dh)?.count == 65 else {
            throw SlateError.invalid(field: "keys.p256dh", message: "keys.p256dh must be the subscription's P-256 public key: 65 bytes in base64url.")
        }
        guard Base64URL.decode(auth)?.count == 16 else {
            throw SlateError.invalid(field: "keys.auth", message: "keys.auth must be the subscription's 16-byte secret in base64url.")
        }
        let name = label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= 100 else { throw SlateError.invalid(field: "label", message: "A device label has at most 100 characters.") }
        return PushSubscription(accountID: accountID, endpoint: endpoint, p256dh: p256dh, auth: auth, label: name, created: now)
    }
}

/// The server's VAPID key pair (RFC 8292), made on first start and kept: browsers bind a
/// subscription to the public key. The private key must be readable to sign, so it is
/// stored as is (like the database, it is protected by the file's permissions).
public struct VAPIDKey: Codable, Sendable, Identifiable, Hashable {
    public var id: UUID
    /// 32 bytes, base64url.
    public var privateKey: String
    /// 65 bytes (uncompressed point), base64url: the applicationServerKey browsers need.
    public var publicKey: String
    public var created: Date

    /// The one row's id.
    public static let rowID = UUID(uuidString: "00000000-0000-0000-0000-00000000a1e7")!

    public init(privateKey: String, publicKey: String, created: Date) {
        self.id = Self.rowID
        self.privateKey = privateKey
        self.publicKey = publicKey
        self.created = created
    }
}

/// base64url without padding (RFC 4648 §5), as Web Push uses it. One pass over the bytes
/// of Foundation's base64 (three `replacingOccurrences` per call cost a few percent of
/// sending a push message).
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        var bytes = Array(data.base64EncodedString().utf8)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Nil for text that is not base64 (url-safe or standard, padded or not) or longer than
    /// 4,096 characters.
    public static func decode(_ text: String) -> Data? {
        var bytes = Array(text.utf8)
        guard bytes.count <= 4096 else { return nil }
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
            default: break
            }
        }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(bytes))
    }
}

extension PushSubscription: PersistentModel {
    public static let schema = ModelSchema<PushSubscription>(
        table: "push_subscriptions",
        columns: [
            .column(\.endpoint, "endpoint"), .column(\.p256dh, "p256dh"), .column(\.auth, "auth"), .column(\.label, "label"),
            .column(\.created, "created"),
        ],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [Index("push_subscriptions_by_endpoint", on: ["accountID", "endpoint"], unique: true)]
    )
}

extension VAPIDKey: PersistentModel {
    public static let schema = ModelSchema<VAPIDKey>(
        table: "vapid_keys",
        columns: [.column(\.privateKey, "privateKey"), .column(\.publicKey, "publicKey"), .column(\.created, "created")]
    )
}

extension Slate {
    /// The account's push devices, oldest first.
    public func pushSubscriptions() throws -> [PushSubscription] {
        let accountID = self.accountID
        return try translatingErrors {
            try makeContext().fetch(FetchDescriptor<PushSubscription>(predicate: #Predicate { $0.accountID == accountID }))
                .sorted { $0.created < $1.created }
        }
    }

    /// Registers a device (the same endpoint again replaces its keys and label).
    public func addPushSubscription(endpoint: String, p256dh: String, auth: String, label: String) throws -> PushSubscription {
        var subscription = try PushSubscription.validated(accountID: accountID, endpoint: endpoint, p256dh: p256dh, auth: auth, label: label, now: now)
        let devices = try pushSubscriptions()
        if let existing = devices.first(where: { $0.endpoint == endpoint }) {
            subscription.id = existing.id
        } else if devices.count >= 50 {
            throw SlateError.invalid(field: "endpoint", message: "An account has at most 50 push devices; remove one first.")
        }
        let context = makeContext(undo: false)
        context.upsert(subscription)
        _ = try translatingErrors { try context.save() }
        return subscription
    }

    /// Removes a device of this account.
    public func removePushSubscription(_ id: UUID) throws {
        let context = makeContext(undo: false)
        guard let found = try translatingErrors({ try context.model(PushSubscription.self, id: id) }), found.accountID == accountID else {
            throw SlateError.notFound("push device with id \(id.uuidString.lowercased())")
        }
        context.delete(found)
        _ = try translatingErrors { try context.save() }
    }
}
