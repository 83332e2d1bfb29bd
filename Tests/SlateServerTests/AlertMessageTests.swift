import Foundation
@testable import SlateCore
@testable import SlateServer
import Testing

/// What the channels send, written by hand for speed (bench/alerts): the payload must stay
/// the JSON it was, the email a valid message with the task, its list, its due time in the
/// account's zone and a link.
@Suite struct AlertMessageTests {
    private static let newYork: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        return calendar
    }()

    private func alert(title: String, due: Date?, isAllDay: Bool = false, calendar: Calendar = newYork) -> FiredAlert {
        let task = TaskItem(number: 12, accountID: UUID(), title: title, due: due, isAllDay: isAllDay)
        var alert = FiredAlert(deliveryID: UUID(), accountID: task.accountID, task: task, fireAt: Date(timeIntervalSince1970: 1_796_000_000),
                               isLate: true, channel: "push:abc", calendar: calendar)
        alert.mayBeRepeat = true
        return alert
    }

    @Test(arguments: ["Mix <the> \"trailer\"", "Line\nbreak\tand \u{1} control \\ slash /", "Café 🎬 naïve", ""])
    func thePayloadIsJSONWithEveryField(title: String) throws {
        let due = Date(timeIntervalSince1970: 1_796_003_600)
        let alert = alert(title: title, due: due)
        let object = try #require(try JSONSerialization.jsonObject(with: AlertPayload.data(alert)) as? [String: Any])
        #expect(Set(object.keys) == ["due", "fireAt", "id", "isAllDay", "late", "number", "repeat", "taskId", "test", "title", "url"])
        #expect(object["title"] as? String == title)
        #expect(object["id"] as? String == alert.deliveryID.uuidString.lowercased())
        #expect(object["taskId"] as? String == alert.task.id.uuidString.lowercased())
        #expect(object["due"] as? String == Timestamp.format(due) && object["fireAt"] as? String == Timestamp.format(alert.fireAt))
        #expect(object["number"] as? Int == 12 && object["late"] as? Bool == true && object["repeat"] as? Bool == true)
        #expect(object["test"] as? Bool == false && object["isAllDay"] as? Bool == false)
        #expect(object["url"] as? String == "/?task=" + alert.task.id.uuidString.lowercased())
        #expect(!String(decoding: AlertPayload.data(alert), as: UTF8.self).contains("\\/"), "slashes as they are")
    }

    @Test func anAllDayTasksPayloadGivesItsDayAndAnUndatedOneNull() throws {
        let day = try #require(Self.newYork.date(from: DateComponents(year: 2026, month: 12, day: 24)))
        let allDay = try #require(try JSONSerialization.jsonObject(with: AlertPayload.data(alert(title: "Eve", due: day, isAllDay: true))) as? [String: Any])
        #expect(allDay["due"] as? String == "2026-12-24" && allDay["isAllDay"] as? Bool == true)
        let undated = try #require(try JSONSerialization.jsonObject(with: AlertPayload.data(alert(title: "Someday", due: nil))) as? [String: Any])
        #expect(undated["due"] is NSNull)
    }

    @Test func theEmailHasTextAndHTMLTheListTheDueTimeInTheAccountsZoneAndALink() throws {
        // 17:00 UTC on Monday 30 November 2026 is 12:00 in New York (EST).
        let due = try #require(Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: .gmt, year: 2026, month: 11, day: 30, hour: 17)))
        let alert = alert(title: "Call <the> lab & co", due: due)
        let message = EmailMessage(alert: alert, from: "slate@example.org", to: "ana@example.org", listName: "Sound & Music",
                                   publicURL: "https://slate.example.org")
        let text = message.text
        #expect(message.dueText == "Monday 30 November 2026, 12:00 (Eastern Standard Time)")
        #expect(text.contains("Message-ID: <\(alert.deliveryID.uuidString.lowercased())@slate>\r\n"))
        #expect(text.contains("X-Slate-Redelivery: true\r\n"))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8") && text.contains("Content-Type: text/html; charset=utf-8"))
        let date = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("Date: ") })
        #expect(date.wholeMatch(of: #/Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d \+0000/#) != nil)
        let parts = text.components(separatedBy: "--slate-" + alert.deliveryID.uuidString.lowercased())
        #expect(parts.count == 4, "preamble, two parts, the end")
        func body(_ part: String) -> String {
            let encoded = part.components(separatedBy: "\r\n\r\n")[1].replacingOccurrences(of: "\r\n", with: "")
            return String(decoding: Data(base64Encoded: encoded) ?? Data(), as: UTF8.self)
        }
        let plain = body(parts[1]), html = body(parts[2])
        #expect(plain.contains("Call <the> lab & co") && plain.contains("List: Sound & Music"))
        #expect(plain.contains("Due: Monday 30 November 2026, 12:00 (Eastern Standard Time)"))
        #expect(plain.contains("https://slate.example.org/?task=\(alert.task.id.uuidString.lowercased())"))
        #expect(html.contains("Call &lt;the&gt; lab &amp; co") && html.contains("List: Sound &amp; Music") && !html.contains("<the>"))
        #expect(html.contains("href=\"https://slate.example.org/?task=\(alert.task.id.uuidString.lowercased())\""))
    }

    @Test func summerTimeAndAllDayDatesReadAsTheAccountSeesThem() throws {
        let july = try #require(Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: .gmt, year: 2026, month: 7, day: 4, hour: 13, minute: 5)))
        #expect(EmailDates.due(july, isAllDay: false, calendar: Self.newYork) == "Saturday 4 July 2026, 09:05 (Eastern Daylight Time)")
        let day = try #require(Self.newYork.date(from: DateComponents(year: 2026, month: 12, day: 24)))
        #expect(EmailDates.due(day, isAllDay: true, calendar: Self.newYork) == "Thursday 24 December 2026")
    }

    /// RFC 2047: an encoded word is at most 75 characters; a long title is several words.
    @Test func aLongTitleMakesASubjectOfShortEncodedWords() throws {
        let title = String(repeating: "Überprüfung der Tonspur 🎬 ", count: 18)
        let subject = EmailMessage.encodedWord("Reminder: " + title)
        let words = subject.components(separatedBy: "\r\n ")
        #expect(words.count > 1 && words.allSatisfy { $0.count <= 75 && $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") })
        let decoded = words.map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data(), as: UTF8.self)
        }.joined()
        #expect(decoded == "Reminder: " + title)
    }

    @Test func base64URLMatchesTheStandardAlphabetMapped() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let reference = data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == reference)
            #expect(Base64URL.decode(reference) == data)
            #expect(Base64URL.decode(data.base64EncodedString()) == data, "standard base64, padded, is read too")
        }
        #expect(Base64URL.decode("not base64!") == nil)
        #expect(Base64URL.decode(String(repeating: "A", count: 4100)) == nil)
    }
}
