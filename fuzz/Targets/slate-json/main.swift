import Foundation
import FuzzSupport
@testable import SlateCore

// Slate's own JSON export read back (SlateJSONFormat over JSONValue), and the format
// detection an import without `?format=` runs first. A value that parses is written and
// parsed again: JSONValue's writer must produce JSON that reads back to the same tree
// (members compared by key: JSONSerialization does not keep their order).
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let data = FuzzInput.data(start, count)
    _ = TransferFormat.detect(data)
    _ = try? SlateJSONFormat.decode(data, calendar: FuzzClock.zones[0])
    if let value = try? JSONValue.parse(data) {
        var text = ""
        value.write(into: &text)
        guard let again = try? JSONValue.parse(Data(text.utf8)), sortedMembers(again) == sortedMembers(value) else {
            fatalError("JSONValue wrote \(text.prefix(200)) for a value it does not read back the same")
        }
    }
    return 0
}

/// The value with every object's members in key order.
func sortedMembers(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements): .array(elements.map(sortedMembers))
    case .object(let object): .object(JSONObject(object.members.map { ($0.key, sortedMembers($0.value)) }.sorted { $0.0 < $1.0 }))
    default: value
    }
}
