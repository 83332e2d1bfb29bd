import Foundation

/// One value as SQLite stores it: the five storage classes.
public enum DatabaseValue: Sendable, Hashable, Codable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// True for SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension DatabaseValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}

/// The SQLite column type a Swift value is stored as.
public enum ColumnType: String, Sendable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
    case blob = "BLOB"
}

/// A Swift type that can be stored in one column.
///
/// String, Int, Double, Bool, Date, UUID and Data conform, and so do optionals of
/// them. A `RawRepresentable` enum whose raw value conforms opts in with an empty
/// extension:
///
/// ```swift
/// enum Priority: Int, Codable, DatabaseValueConvertible { case low, high }
/// ```
public protocol DatabaseValueConvertible: Sendable {
    /// The value as SQLite stores it.
    var databaseValue: DatabaseValue { get }
    /// The Swift value for a stored value, or nil when the stored value does not fit.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
    /// The column type used in `CREATE TABLE`.
    static var columnType: ColumnType { get }
    /// True for optionals: the column accepts NULL.
    static var isOptional: Bool { get }
}

extension DatabaseValueConvertible {
    public static var isOptional: Bool { false }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
    public static var columnType: ColumnType { .text }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        switch value {
        case .integer(let int): return Int(exactly: int)
        case .real(let double): return Int(exactly: double)
        default: return nil
        }
    }
    public static var columnType: ColumnType { .integer }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let int): return int
        case .real(let double): return Int64(exactly: double)
        default: return nil
        }
    }
    public static var columnType: ColumnType { .integer }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let double): return double
        case .integer(let int): return Double(int)
        default: return nil
        }
    }
    public static var columnType: ColumnType { .real }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(let int): return int != 0
        case .real(let double): return double != 0
        default: return nil
        }
    }
    public static var columnType: ColumnType { .integer }
}

/// Dates are stored as REAL seconds since 2001-01-01 00:00:00 UTC, Foundation's own
/// reference date, so that a value reads back bit for bit equal (seconds since 1970
/// would round the last bits of `Date()`). In SQL: `datetime(due + 978307200, 'unixepoch')`.
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(timeIntervalSinceReferenceDate) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        Double.fromDatabaseValue(value).map(Date.init(timeIntervalSinceReferenceDate:))
    }
    public static var columnType: ColumnType { .real }
}

/// UUIDs are stored as their canonical upper-case text, readable in any SQLite shell.
extension UUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(UUIDText.format(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
        if case .text(let text) = value { return UUIDText.uuid(text) }
        return nil
    }
    public static var columnType: ColumnType { .text }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: return nil
        }
    }
    public static var columnType: ColumnType { .blob }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
    public static var columnType: ColumnType { Wrapped.columnType }
    public static var isOptional: Bool { true }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
    public static var columnType: ColumnType { RawValue.columnType }
}

/// Converts any captured Swift value to a database value, for predicate constants.
/// Enums without an explicit `DatabaseValueConvertible` conformance still bind through
/// their raw value.
func databaseValue(ofAny value: Any) -> DatabaseValue? {
    if let convertible = value as? any DatabaseValueConvertible { return convertible.databaseValue }
    if let optional = value as? any OptionalProtocol {
        guard let wrapped = optional.wrappedAny else { return .null }
        return databaseValue(ofAny: wrapped)
    }
    if let raw = value as? any RawRepresentable { return databaseValue(ofAny: raw.rawValue) }
    return nil
}

/// Lets generic code look inside an `Optional` without knowing its wrapped type.
protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}
