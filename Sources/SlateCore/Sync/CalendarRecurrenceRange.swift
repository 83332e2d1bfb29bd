import Foundation

/// RFC 4791 §9.9 for a repeating VTODO: it overlaps a time range when one of its instances
/// does, each instance being the VTODO with DTSTART (or, without one, DUE) moved to an
/// occurrence of its RRULE or RDATE, DUE moved with it, and the occurrences EXDATE excludes
/// or a RECURRENCE-ID override replaces left out (an override is tested on its own).
///
/// **Bounds.** Rules of FREQ and INTERVAL (with COUNT or UNTIL), and weekly rules with
/// BYDAY weekdays, are expanded exactly, from the first instance that can reach the range
/// (found by arithmetic, so a daily series begun decades ago costs what a new one does),
/// and at most `maximumInstances` instances after it. Past that bound — possible only when
/// EXDATEs remove that many instances in a row — and for rules with other parts (BYMONTHDAY,
/// BYSETPOS, ordinal BYDAY, a BYHOUR other than the start's hour, …), the VTODO is counted as overlapping whenever its series
/// spans the range: a query may then return a task it need not, never miss one.
struct CalendarRecurrenceRange {
    static let maximumInstances = 1_000

    /// The parts of an RRULE that are expanded.
    struct Rule {
        var unit: Calendar.Component
        var seconds: Double
        var interval = 1
        var count: Int?
        var until: Date?
        /// Weekdays (1 = Sunday … 7 = Saturday) of a weekly rule's BYDAY.
        var weekdays: [Int] = []
        var weekStart = 2
        /// False when the rule has parts this expansion does not follow.
        var isExact = true

        /// `base`: the first instance; a BYHOUR, BYMINUTE or BYSECOND that only repeats its
        /// time of day (as python-caldav and some clients write) changes nothing.
        init?(_ value: String, base: Date, calendar: Calendar) {
            var parts: [String: String] = [:]
            for part in value.split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { parts[pair[0].trimmingCharacters(in: .whitespaces).uppercased()] = pair[1].trimmingCharacters(in: .whitespaces).uppercased() }
            }
            switch parts.removeValue(forKey: "FREQ") {
            case "SECONDLY": (unit, seconds) = (.second, 1)
            case "MINUTELY": (unit, seconds) = (.minute, 60)
            case "HOURLY": (unit, seconds) = (.hour, 3_600)
            case "DAILY": (unit, seconds) = (.day, 86_400)
            case "WEEKLY": (unit, seconds) = (.weekOfYear, 604_800)
            case "MONTHLY": (unit, seconds) = (.month, 2_629_746)
            case "YEARLY": (unit, seconds) = (.year, 31_556_952)
            default: return nil
            }
            if let text = parts.removeValue(forKey: "INTERVAL") {
                guard let interval = Int(text), interval >= 1 else { return nil }
                self.interval = min(interval, 100_000)
                if interval > 100_000 { isExact = false }
            }
            if let text = parts.removeValue(forKey: "COUNT") {
                guard let count = Int(text), count >= 1 else { return nil }
                self.count = count
            }
            if let text = parts.removeValue(forKey: "UNTIL") {
                until = BasicDate.parseDay(text, calendar: calendar).map { calendar.date(byAdding: .day, value: 1, to: $0)!.addingTimeInterval(-1) }
                    ?? BasicDate.parseMoment(text, local: calendar)
                if until == nil { return nil }
            }
            if let text = parts.removeValue(forKey: "WKST") {
                guard let day = Self.weekday(text) else { return nil }
                weekStart = day
            }
            if let text = parts.removeValue(forKey: "BYDAY") {
                let days = text.split(separator: ",").map { Self.weekday(String($0)) }
                if unit == .weekOfYear, days.allSatisfy({ $0 != nil }) {
                    weekdays = Array(Set(days.compactMap { $0 }))
                } else {
                    isExact = false
                }
            }
            for (name, component) in [("BYHOUR", Calendar.Component.hour), ("BYMINUTE", .minute), ("BYSECOND", .second)] {
                if let text = parts[name], Int(text) == calendar.component(component, from: base) { parts[name] = nil }
            }
            if !parts.isEmpty { isExact = false }
        }

        static func weekday(_ text: String) -> Int? {
            ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].firstIndex(of: text).map { $0 + 1 }
        }
    }

    /// The master VTODO's instances, by their start: the base, its rule, extra and excluded dates.
    let base: Date
    let rule: Rule?
    let added: [Date]
    let excluded: [Date]
    let calendar: Calendar

    /// True when an instance at `start` (the base moved there) satisfies `test`, which
    /// tells whether the VTODO moved to that instance overlaps the range; `range` bounds
    /// which instances are looked at, `span` is how long after its start an instance can
    /// still overlap (DUE − DTSTART, or a duration).
    func anyInstance(in range: CalendarFilter.TimeRange, span: TimeInterval, _ test: (Date) -> Bool) -> Bool {
        let earliest = (range.start ?? .distantPast).addingTimeInterval(-max(span, 0) - 1)
        let latest = range.end ?? .distantFuture
        func instance(_ start: Date) -> Bool {
            !excluded.contains { abs($0.timeIntervalSince(start)) < 1 } && test(start)
        }
        if added.contains(where: instance) { return true }
        guard let rule else { return instance(base) }
        guard rule.isExact else {
            // Not expanded: the series spans the range when it starts before the range ends
            // and does not end before it starts.
            return base <= latest && (rule.until.map { $0 >= earliest } ?? true)
        }
        var examined = 0
        for start in instances(of: rule, from: earliest) {
            if start > latest || rule.until.map({ start > $0 }) == true { return false }
            if instance(start) { return true }
            examined += 1
            if examined >= Self.maximumInstances { return true }  // the bound: counted as overlapping
        }
        return false
    }

    /// The starts of the instances that satisfy `test` (the instance overlaps the range), in
    /// order, for CALDAV:expand: the base, the rule's and RDATE's instances, less EXDATE's
    /// and the overridden ones, at most `maximumInstances` examined from the first that can
    /// reach the range (and so at most that many returned). Nil when the rule has parts this
    /// expansion does not follow (`Rule.isExact`): such a series cannot be listed instance by instance.
    func instances(in range: CalendarFilter.TimeRange, span: TimeInterval, _ test: (Date) -> Bool) -> [Date]? {
        let earliest = (range.start ?? .distantPast).addingTimeInterval(-max(span, 0) - 1)
        let latest = range.end ?? .distantFuture
        func kept(_ start: Date) -> Bool {
            !excluded.contains { abs($0.timeIntervalSince(start)) < 1 } && test(start)
        }
        var found = added.filter(kept)
        if let rule {
            guard rule.isExact else { return nil }
            var examined = 0
            for start in instances(of: rule, from: earliest) {
                if start > latest || rule.until.map({ start > $0 }) == true { break }
                if kept(start) { found.append(start) }
                examined += 1
                if examined >= Self.maximumInstances { break }
            }
        } else if kept(base) {
            found.append(base)
        }
        // An RDATE may repeat an instance of the rule: one instance each.
        var instances: [Date] = []
        for start in found.sorted() where instances.last.map({ start.timeIntervalSince($0) >= 1 }) ?? true {
            instances.append(start)
        }
        return Array(instances.prefix(Self.maximumInstances))
    }

    /// The rule's instances from about `earliest` on (a few before it), in order, within COUNT.
    private func instances(of rule: Rule, from earliest: Date) -> AnySequence<Date> {
        let period = rule.seconds * Double(rule.interval)
        // How many periods to skip: a little short of the estimate (months and years vary).
        let skip = earliest > base ? max(Int(min(earliest.timeIntervalSince(base) / period, 1e9)) - 2, 0) : 0
        let calendar = self.calendar
        let base = self.base
        guard !rule.weekdays.isEmpty else {
            var step = skip
            return AnySequence(AnyIterator {
                if let count = rule.count, step >= count { return nil }
                defer { step += 1 }
                return calendar.date(byAdding: rule.unit, value: step * rule.interval, to: base)
            })
        }
        // Weekly with BYDAY: the weekdays of every interval-th week from the base's week;
        // the base is the first instance and days before it in its week are none.
        let offset = { (day: Int) in (day - rule.weekStart + 7) % 7 }
        let days = rule.weekdays.map(offset).sorted()
        let baseDay = offset(calendar.component(.weekday, from: base))
        let firstWeek = days.filter { $0 >= baseDay }
        var week = skip
        var index = 0
        var counted = week == 0 ? 0 : firstWeek.count + (week - 1) * days.count + (firstWeek.contains(baseDay) ? 0 : 1)
        var yieldedBase = week > 0
        return AnySequence(AnyIterator {
            while true {
                if let count = rule.count, counted >= count { return nil }
                if !yieldedBase {
                    yieldedBase = true
                    if !firstWeek.contains(baseDay) {
                        counted += 1
                        return base
                    }
                }
                let current = week == 0 ? firstWeek : days
                guard index < current.count else {
                    week += 1
                    index = 0
                    if week > 1_000_000_000 / max(rule.interval, 1) { return nil }
                    continue
                }
                let day = current[index]
                index += 1
                counted += 1
                return calendar.date(byAdding: .day, value: week * 7 * rule.interval + day - baseDay, to: base)
            }
        })
    }
}
