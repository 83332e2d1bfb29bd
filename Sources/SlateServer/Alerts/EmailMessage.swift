import Foundation
import SlateCore

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

    var dueText: String? {
        guard let due = alert.task.due else { return nil }
        let formatter = DateFormatter()
        formatter.calendar = alert.calendar
        formatter.timeZone = alert.calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = alert.task.isAllDay ? "EEEE d MMMM yyyy" : "EEEE d MMMM yyyy, HH:mm (zzzz)"
        return formatter.string(from: due)
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
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let lines = [
            "From: Slate <\(from)>",
            "To: <\(to)>",
            "Subject: " + Self.encodedWord("Reminder: " + alert.task.title),
            "Date: " + date.string(from: Date()),
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

    /// An RFC 2047 encoded word: any text (line breaks, non-ASCII) is safe in a header.
    static func encodedWord(_ text: String) -> String {
        "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }

    static func base64Lines(_ text: String) -> String {
        Data(text.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    }
}
