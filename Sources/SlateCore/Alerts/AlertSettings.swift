import Foundation
import SlateStore

/// An account's alert preferences: the alerts new tasks get unless told otherwise, where
/// alerts are sent besides open pages, and the email address.
public struct AlertSettings: Codable, Sendable, Identifiable, Hashable {
    /// The account's id (one row per account).
    public var id: UUID
    public var accountID: UUID
    /// What a new task with a due time gets.
    public var timedDefaults: [TaskAlert]
    /// What a new all-day task gets.
    public var allDayDefaults: [TaskAlert]
    /// Where email alerts go; nil: no email.
    public var email: String?
    /// An `http(s)` URL that gets a signed JSON POST per alert; nil: no webhook.
    public var webhookURL: String?
    /// The key the webhook's `X-Slate-Signature` (HMAC-SHA256) is made with.
    public var webhookSecret: String?

    public init(accountID: UUID, timedDefaults: [TaskAlert] = AlertSettings.standardTimed,
                allDayDefaults: [TaskAlert] = AlertSettings.standardAllDay, email: String? = nil,
                webhookURL: String? = nil, webhookSecret: String? = nil) {
        self.id = accountID
        self.accountID = accountID
        self.timedDefaults = timedDefaults
        self.allDayDefaults = allDayDefaults
        self.email = email
        self.webhookURL = webhookURL
        self.webhookSecret = webhookSecret
    }

    /// At the due time.
    public static let standardTimed: [TaskAlert] = [.atDue]
    /// 9:00 on the day.
    public static let standardAllDay: [TaskAlert] = [.morningOfDay]
}

extension AlertSettings: PersistentModel {
    public static let schema = ModelSchema<AlertSettings>(
        table: "alert_settings",
        columns: [
            .json(\.timedDefaults, "timedDefaults"), .json(\.allDayDefaults, "allDayDefaults"),
            .column(\.email, "email"), .column(\.webhookURL, "webhookURL"), .column(\.webhookSecret, "webhookSecret"),
        ],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        partition: "accountID"
    )
}

extension TaskAlert {
    /// The same alert for an occurrence `interval` seconds later: a fixed moment moves with
    /// the due date; relative alerts follow it by themselves.
    public func moved(by interval: TimeInterval) -> TaskAlert {
        guard case .at(let moment) = trigger else { return self }
        return TaskAlert(.at(moment.addingTimeInterval(interval)))
    }
}

extension Slate {
    /// The account's alert preferences (the standard ones until changed).
    public func alertSettings() throws -> AlertSettings {
        try translatingErrors {
            try makeContext().model(AlertSettings.self, id: accountID) ?? AlertSettings(accountID: accountID)
        }
    }

    /// Replaces the account's alert preferences.
    public func saveAlertSettings(_ settings: AlertSettings) throws {
        var settings = settings
        settings.id = accountID
        settings.accountID = accountID
        settings.timedDefaults = try TaskAlert.validated(settings.timedDefaults, hasDue: true, field: "timedDefaults")
        settings.allDayDefaults = try TaskAlert.validated(settings.allDayDefaults, hasDue: true, field: "allDayDefaults")
        if let email = settings.email { settings.email = try AlertRules.validEmail(email) }
        if let url = settings.webhookURL { settings.webhookURL = try AlertRules.validWebhookURL(url) }
        let context = makeContext(undo: false)
        context.upsert(settings)
        remember(try translatingErrors { try context.save() })
    }

    /// The alerts a new task gets when the caller does not choose: the account's defaults
    /// for timed or all-day tasks.
    func defaultAlerts(for due: DueDate?) throws -> [TaskAlert] {
        guard let due else { return [] }
        let settings = try alertSettings()
        return due.isAllDay ? settings.allDayDefaults : settings.timedDefaults
    }
}
