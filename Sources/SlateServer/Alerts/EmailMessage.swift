import Foundation
import SlateCore
import Synchronization

/// The email of one alert: RFC 5322 headers, and a multipart/alternative body with a
/// plain-text and an HTML part (the title, its list, the due time in the account's zone,
/// a link). User text is escaped in the HTML and encoded in the subject.
struct EmailMessage {
    let alert: FiredAlert
    let from: String
    let to: String
    let listName: String?
    let publicURL: String

    var link: String { publicURL + "/?task=" + alert.task.id.uuidString.lowercased() }

    /// The due day, and time with its zone's name, in the account's zone: "Monday 30
    /// November 2026, 17:00 (Central European Standard Time)".
    var dueText: String? {
        guard let due = alert.task.due(in: alert.calendar) else { return nil }
        return EmailDates.due(due, isAllDay: alert.task.isAllDay, calendar: alert.calendar)
    }

    var text: String {
        let boundary = "slate-" + alert.deliveryID.uuidString.lowercased()
        var plain = "\(alert.task.title)\r\n"
        if let listName { plain += "List: \(listName)\r\n" }
        if let dueText { plain += "Due: \(dueText)\r\n" }
        if alert.isLate { plain += "(This reminder is late: the server was not running at its time.)\r\n" }
        plain += "\r\nOpen it: \(link)\r\n"
        var html = "<p><strong>\(Self.escape(alert.task.title))</strong></p>"
        if let listName { html += "<p>List: \(Self.escape(listName))</p>" }
        if let dueText { html += "<p>Due: \(Self.escape(dueText))</p>" }
        if alert.isLate { html += "<p><em>This reminder is late: the server was not running at its time.</em></p>" }
        html += "<p><a href=\"\(Self.escape(link))\">Open it in Slate</a></p>"
        let lines = [
            "From: Slate <\(from)>",
            "To: <\(to)>",
            "Subject: " + Self.encodedWord("Reminder: " + alert.task.title),
            "Date: " + EmailDates.header(Date()),
            "Message-ID: <\(alert.deliveryID.uuidString.lowercased())@slate>",
            "X-Slate-Redelivery: \(alert.mayBeRepeat)",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            Self.base64Lines(plain),
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "",
            Self.base64Lines("<!doctype html><html><body>\(html)</body></html>"),
            "--\(boundary)--",
            "",
        ]
        return lines.joined(separator: "\r\n")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// RFC 2047 encoded words: any text (line breaks, non-ASCII) is safe in a header. Each
    /// word is at most 75 characters (45 bytes of UTF-8, whole characters), the words folded
    /// onto lines of their own: a 500-character title makes a valid Subject.
    static func encodedWord(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(character.utf8)
            if chunk.count + bytes.count > 45, !chunk.isEmpty {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
        return words.joined(separator: "\r\n ")
    }

    static func base64Lines(_ text: String) -> String {
        Data(text.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    }
}

/// Dates in email, written from calendar fields: a `DateFormatter` made per message (two
/// per email) took a fifth of the server's time while 10,000 alerts went out
/// (bench/alerts). The words are English, as the rest of the message.
enum EmailDates {
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                 "October", "November", "December"]
    /// Zones' long names ("Central European Summer Time"), by zone and daylight saving:
    /// reading one from ICU costs more than the rest of the message.
    private static let zoneNames = Mutex<[String: String]>([:])

    static func due(_ date: Date, isAllDay: Bool, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute], from: date)
        let day = "\(weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 1) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
        guard !isAllDay else { return day }
        return day + ", " + twoDigits(parts.hour ?? 0) + ":" + twoDigits(parts.minute ?? 0) + " (" + zoneName(calendar.timeZone, at: date) + ")"
    }

    /// RFC 5322's date, in UTC: `Tue, 01 Dec 2026 21:50:07 +0000`.
    static func header(_ date: Date) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = utc.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        return "\(weekdays[(parts.weekday ?? 1) - 1].prefix(3)), \(twoDigits(parts.day ?? 1)) \(months[(parts.month ?? 1) - 1].prefix(3)) "
            + "\(parts.year ?? 0) \(twoDigits(parts.hour ?? 0)):\(twoDigits(parts.minute ?? 0)):\(twoDigits(parts.second ?? 0)) +0000"
    }

    static func zoneName(_ zone: TimeZone, at date: Date) -> String {
        let style: TimeZone.NameStyle = zone.isDaylightSavingTime(for: date) ? .daylightSaving : .standard
        let key = zone.identifier + (style == .daylightSaving ? "/dst" : "")
        if let name = zoneNames.withLock({ $0[key] }) { return name }
        let name = zone.localizedName(for: style, locale: Locale(identifier: "en_US_POSIX")) ?? zone.identifier
        zoneNames.withLock { $0[key] = name }
        return name
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
