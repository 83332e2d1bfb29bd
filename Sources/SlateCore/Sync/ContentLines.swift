import Foundation

/// The logical lines of an iCalendar object, each with its raw bytes (folds and line ends
/// included) and its property name, for rewriting single properties in place.
struct ContentLines {
    /// Raw bytes of each logical line.
    var raw: [ArraySlice<UInt8>] = []
    /// Upper-case property name of each line.
    var names: [String] = []
    /// Nesting depth of each line (BEGIN/END lines count as the outer level).
    var depths: [Int] = []

    init(_ data: Data) {
        let bytes = [UInt8](data)
        var start = 0
        var depth = 0
        func flush(_ end: Int) {
            guard start < end else { return }
            let line = bytes[start..<end]
            let nameEnd = line.firstIndex { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") || $0 == 0x0D || $0 == 0x0A } ?? end
            let name = String(decoding: bytes[start..<nameEnd], as: UTF8.self).uppercased()
            if name == "END" { depth -= 1 }
            raw.append(line)
            names.append(name)
            depths.append(depth)
            if name == "BEGIN" { depth += 1 }
            start = end
        }
        var index = 0
        while index < bytes.count {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { break }
            let next = newline + 1
            index = next
            if next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 { continue }
            flush(next)
        }
        flush(bytes.count)
    }

    /// The indexes of the direct property lines of the main VTODO (between its BEGIN and
    /// END, not inside a VALARM); nil when there is none.
    func mainTodo() -> [Int]? {
        let bodies = todoBodies()
        return bodies.first { !$0.contains(where: { names[$0] == "RECURRENCE-ID" }) } ?? bodies.first
    }

    /// The index of each VTODO's BEGIN line, in order.
    func todoBegins() -> [Int] {
        raw.indices.filter { names[$0] == "BEGIN" && value($0) == "VTODO" }
    }

    /// The direct property lines of every VTODO, in order (a VTODO without properties: its
    /// BEGIN line, after which new lines go).
    func todoBodies() -> [[Int]] {
        var bodies: [[Int]] = []
        var index = 0
        while index < raw.count {
            if names[index] == "BEGIN", value(index) == "VTODO" {
                let depth = depths[index] + 1
                var body: [Int] = []
                var end = index + 1
                while end < raw.count, !(names[end] == "END" && depths[end] == depth - 1) {
                    if depths[end] == depth, names[end] != "BEGIN" { body.append(end) }
                    end += 1
                }
                bodies.append(body.isEmpty ? [index] : body)
                index = end
            }
            index += 1
        }
        return bodies
    }

    /// Where a new property line of the VTODO whose direct lines are `body` goes: after its
    /// last property, so before its alarms when they come last (RFC 5545 puts a component's
    /// properties before its subcomponents).
    func insertionPoint(_ body: [Int]) -> Int {
        // A body's END lines close its alarms; the first one's BEGIN opens the first alarm.
        let firstAlarm = body.first { names[$0] == "END" }.flatMap { end in
            raw.indices.prefix(end).last { names[$0] == "BEGIN" && depths[$0] == depths[end] }
        }
        if let last = body.last(where: { names[$0] != "END" }) { return min(last + 1, firstAlarm ?? .max) }
        // Only alarms: right after the VTODO's BEGIN line.
        let first = body.first ?? 0
        return (raw.indices.prefix(first).last { names[$0] == "BEGIN" && value($0) == "VTODO" } ?? first) + 1
    }

    /// Line `index` unfolded, as text.
    func unfolded(_ index: Int) -> String {
        String(decoding: raw[index], as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            .replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "").replacingOccurrences(of: "\n\t", with: "")
    }

    /// The unfolded value of line `index`, upper case, trimmed.
    func value(_ index: Int) -> String {
        unfolded(index).split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).uppercased() } ?? ""
    }

    /// The parameters part of line `index` (`DUE;TZID=…`).
    private func head(_ index: Int) -> String {
        unfolded(index).split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// The RELTYPE of a RELATED-TO line (PARENT when absent).
    func relationType(_ index: Int) -> String {
        let head = head(index).uppercased()
        guard let range = head.range(of: ";RELTYPE=") else { return "PARENT" }
        return String(head[range.upperBound...].prefix { $0 != ";" })
    }

    /// The bytes with lines removed and new ones inserted where each edit says.
    func applying(_ edits: [(at: Int, remove: [Int], insert: [String])]) -> Data {
        let removed = Set(edits.flatMap(\.remove))
        var inserts: [Int: [String]] = [:]
        for edit in edits { inserts[edit.at, default: []] += edit.insert }
        var data = Data()
        for index in raw.indices {
            if let lines = inserts[index] { data += Data(lines.joined().utf8) }
            if !removed.contains(index) { data += raw[index] }
        }
        if let lines = inserts[raw.count] { data += Data(lines.joined().utf8) }
        return data
    }
}
