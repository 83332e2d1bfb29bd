import Foundation

/// Decodes a model straight from the current row of a statement, without building
/// an intermediate dictionary. Column names are the model's coding keys.
struct RowDecoder: Decoder {
    let statement: ResultRow
    let columns: ColumnLayout
    let model: Any.Type

    /// For error messages only: `String(describing:)` of a type reflects on it, which
    /// cost more than decoding the rest of the row when it was done for every row.
    var modelName: String { String(describing: model) }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoreError.decodingFailed(model: modelName, column: "", reason: "a model must decode from a keyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw StoreError.decodingFailed(model: modelName, column: "", reason: "a model must decode from a keyed container")
    }

    /// Decodes the row into `Model`, mapping any failure to `StoreError.decodingFailed`.
    static func decode<Model: PersistentModel>(_ type: Model.Type, from statement: ResultRow, columns: ColumnLayout) throws -> Model {
        columns.rewind()
        do {
            return try Model(from: RowDecoder(statement: statement, columns: columns, model: Model.self))
        } catch let error as StoreError {
            throw error
        } catch DecodingError.keyNotFound(let key, _) {
            throw StoreError.decodingFailed(model: String(describing: Model.self), column: key.stringValue,
                                            reason: "no such column; declare the property in the schema")
        } catch {
            throw StoreError.decodingFailed(model: String(describing: Model.self), column: "", reason: "\(error)")
        }
    }
}

/// Where each coding key's column is in a result row.
///
/// Synthesized `init(from:)` asks for the keys in declaration order, which is also the
/// order of the SELECT, so the column after the last one found is tried first (a cheap
/// comparison of short strings) and the dictionary, which hashes the key, is only the
/// fallback. Used by one fetch on one thread; `rewind()` before each row.
final class ColumnLayout {
    /// The column names in SELECT order.
    let names: [String]
    /// Name → column index.
    let indexes: [String: Int32]
    /// Repeated names (not produced by the store's own SELECTs) make the position
    /// ambiguous; then only the dictionary answers.
    private let isUnambiguous: Bool
    private var next = 0

    /// The layout of `statement`'s result columns.
    init(_ statement: ResultRow) {
        names = (0..<statement.columnCount).map(statement.columnName)
        var indexes: [String: Int32] = [:]
        for (index, name) in names.enumerated() { indexes[name] = Int32(index) }
        self.indexes = indexes
        isUnambiguous = indexes.count == names.count
    }

    func rewind() { next = 0 }

    /// The index of the column `name`, or nil when the row has no such column.
    func index(of name: String) -> Int32? {
        if isUnambiguous, next < names.count, names[next] == name {
            next += 1
            return Int32(next - 1)
        }
        guard let index = indexes[name] else { return nil }
        next = Int(index) + 1
        return index
    }
}

private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.columns.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.columns.indexes[key.stringValue] != nil }

    private func index(_ key: Key) throws -> Int32 {
        guard let index = decoder.columns.index(of: key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no column \(key.stringValue)"))
        }
        return index
    }

    private func failure(_ key: Key, _ type: Any.Type) -> StoreError {
        let stored = (try? index(key)).map { decoder.statement.value(at: $0).description } ?? "nothing"
        return StoreError.decodingFailed(model: decoder.modelName, column: key.stringValue,
                                         reason: "the stored value \(stored) is not a \(type)")
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.statement.isNull(at: try index(key)) }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let index = try index(key)
        guard !decoder.statement.isNull(at: index) else { throw failure(key, type) }
        return decoder.statement.text(at: index)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = try index(key)
        guard !decoder.statement.isNull(at: index) else { throw failure(key, type) }
        return decoder.statement.int64(at: index) != 0
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let index = try index(key)
        guard !decoder.statement.isNull(at: index) else { throw failure(key, type) }
        return Int(decoder.statement.int64(at: index))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let index = try index(key)
        guard !decoder.statement.isNull(at: index) else { throw failure(key, type) }
        return decoder.statement.double(at: index)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, forKey: key, at: try index(key))
    }

    private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, at index: Int32) throws -> T {
        if type == Date.self {
            guard !decoder.statement.isNull(at: index) else { throw failure(key, type) }
            return Date(timeIntervalSinceReferenceDate: decoder.statement.double(at: index)) as! T
        }
        // Ids and references are on every row: read the text in place instead of going
        // through a `DatabaseValue` and two dynamic casts.
        if type == UUID.self {
            guard decoder.statement.isText(at: index), let uuid = decoder.statement.uuid(at: index) else {
                throw failure(key, type)
            }
            return uuid as! T
        }
        return try decodeStoredValue(type, forKey: key, at: index)
    }

    /// Everything but dates and UUIDs. Kept out of `decode(_:forKey:at:)` because its
    /// `T?` locals make unspecialized code look up `Optional<T>` metadata on entry, a
    /// cost the fast paths above would otherwise pay on every column.
    @inline(never)
    private func decodeStoredValue<T: Decodable>(_ type: T.Type, forKey key: Key, at index: Int32) throws -> T {
        let value = decoder.statement.value(at: index)
        if let convertible = type as? any DatabaseValueConvertible.Type {
            guard let decoded = convertible.fromDatabaseValue(value) as? T else { throw failure(key, type) }
            return decoded
        }
        // Tags and other string arrays, stored as JSON: most hold no escapes and are read
        // without a JSONDecoder.
        if type == [String].self, case .text(let text) = value, let strings = JSONStringArray.parse(text) {
            return strings as! T
        }
        // Enums without an explicit conformance decode their raw value through Codable.
        if let decoded = try? T(from: SingleValueDecoder(value: value)) { return decoded }
        // Other Codable values are stored as JSON text (`Column.json`).
        if case .text(let text) = value, let decoded = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) {
            return decoded
        }
        throw failure(key, type)
    }

    // Optional properties: one column lookup, where the default `decodeIfPresent`
    // makes three (`contains`, `decodeNil`, then `decode`). Same result: nil for an
    // absent column or NULL, otherwise the value decoded as for a required property.

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = presentIndex(key) else { return nil }
        return decoder.statement.text(at: index)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = presentIndex(key) else { return nil }
        return decoder.statement.int64(at: index) != 0
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = presentIndex(key) else { return nil }
        return Int(decoder.statement.int64(at: index))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = presentIndex(key) else { return nil }
        return decoder.statement.double(at: index)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = presentIndex(key) else { return nil }
        return try decode(type, forKey: key, at: index)
    }

    /// The column of `key` when it exists and is not NULL.
    private func presentIndex(_ key: Key) -> Int32? {
        guard let index = decoder.columns.index(of: key.stringValue), !decoder.statement.isNull(at: index) else { return nil }
        return index
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw failure(key, type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw failure(key, [Any].self) }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

/// Decodes one stored value, for `RawRepresentable` enums that rely on `Codable`.
private struct SingleValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw mismatch(type) }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch([Any].self) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Without the stored value: callers try this decoder and discard its errors (an array
    /// stored as JSON fails here on every row), and describing the value cost more than
    /// decoding the rest of the row.
    private func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: [], debugDescription: "the stored value is not a \(type)"))
    }

    func decodeNil() -> Bool { value.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = type as? any DatabaseValueConvertible.Type,
           let decoded = convertible.fromDatabaseValue(value) as? T {
            return decoded
        }
        throw mismatch(type)
    }
}

/// Reads the JSON text of a string array when it holds no escapes, spaces or other
/// values (`["home","errands"]`, as the store writes tags); nil for anything else, which
/// the caller hands to `JSONDecoder`.
enum JSONStringArray {
    static func parse(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "["), bytes[bytes.count - 1] == UInt8(ascii: "]") else { return nil }
            var strings: [String] = []
            var position = 1
            let end = bytes.count - 1
            if position == end { return strings }
            while true {
                guard position < end, bytes[position] == UInt8(ascii: "\"") else { return nil }
                let start = position + 1
                var close = start
                while close < end, bytes[close] != UInt8(ascii: "\""), bytes[close] != UInt8(ascii: "\\"), bytes[close] >= 0x20 {
                    close += 1
                }
                guard close < end, bytes[close] == UInt8(ascii: "\"") else { return nil }
                strings.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<close]), as: UTF8.self))
                position = close + 1
                if position == end { return strings }
                guard bytes[position] == UInt8(ascii: ",") else { return nil }
                position += 1
            }
        }
    }
}
