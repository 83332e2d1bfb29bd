import Foundation
import SlateCore
import SlateHTTP

/// A JSON object from a request body, read strictly: malformed JSON or a key given twice is
/// a 400, an unknown or mistyped field a 422 that names the field and the accepted forms.
struct JSONBody {
    /// A field that may be absent, explicitly null, or set.
    enum Field<Value> {
        case absent
        case null
        case value(Value)

        /// nil when absent; `.some(nil)` when null.
        var patch: Value?? {
            switch self {
            case .absent: nil
            case .null: .some(nil)
            case .value(let value): .some(value)
            }
        }

        var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }
    }

    let object: [String: Any]

    /// The request's JSON object, refused when it names a field outside `allowed`; the error
    /// lists `listed` (`allowed` unless given) as what is accepted.
    init(_ request: Request, allowed: Set<String>, listed: Set<String>? = nil) throws {
        if let type = request.headers["Content-Type"], !type.lowercased().hasPrefix("application/json") {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type",
                            message: "Send the body as application/json; got \(type).", field: "Content-Type")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: request.body.isEmpty ? Data("{}".utf8) : request.body)
        } catch {
            throw HTTPError(.badRequest, code: "malformed_json", message: "The body is not valid JSON.", field: "body")
        }
        if JSONTrailingComma.line(in: request.body) != nil {
            throw HTTPError(.badRequest, code: "malformed_json",
                            message: "The body is not valid JSON: a comma follows the last member of an object or array.", field: "body")
        }
        if let duplicate = JSONDuplicateKey.first(in: request.body) {
            throw HTTPError(.badRequest, code: "duplicate_key",
                            message: "'\(duplicate.key)' is given twice in the body; give each field once.", field: duplicate.key)
        }
        guard let object = parsed as? [String: Any] else {
            throw HTTPError(.badRequest, code: "malformed_json", message: "The body must be a JSON object.", field: "body")
        }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw HTTPError(.unprocessableContent, code: "unknown_field",
                            message: "'\(unknown)' is not a field here; accepted: \((listed ?? allowed).sorted().joined(separator: ", ")).",
                            field: unknown)
        }
        self.object = object
    }

    private func invalid(_ key: String, _ expected: String) -> HTTPError {
        HTTPError(.unprocessableContent, code: "invalid_field", message: "'\(key)' must be \(expected).", field: key)
    }

    private func field<T>(_ key: String, _ expected: String, _ convert: (Any) -> T?) throws -> Field<T> {
        guard let raw = object[key] else { return .absent }
        if raw is NSNull { return .null }
        guard let value = convert(raw) else { throw invalid(key, expected) }
        return .value(value)
    }

    func string(_ key: String) throws -> Field<String> {
        try field(key, "a string") { $0 as? String }
    }

    func bool(_ key: String) throws -> Field<Bool> {
        try field(key, "true or false") { value in isJSONBoolean(value) ? value as? Bool : nil }
    }

    func integer(_ key: String) throws -> Field<Int> {
        try field(key, "a whole number") { value in
            guard let number = value as? NSNumber, !isJSONBoolean(value) else { return nil }
            let double = number.doubleValue
            guard double == double.rounded(), abs(double) < 1e15 else { return nil }
            return Int(double)
        }
    }

    func strings(_ key: String) throws -> Field<[String]> {
        try field(key, "an array of strings") { $0 as? [String] }
    }

    func uuid(_ key: String) throws -> Field<UUID> {
        try field(key, "an id (a UUID)") { ($0 as? String).flatMap(UUID.init(uuidString:)) }
    }

    func uuids(_ key: String) throws -> Field<[UUID]> {
        try field(key, "an array of ids (UUIDs)") { value in
            guard let strings = value as? [String] else { return nil }
            let ids = strings.compactMap(UUID.init(uuidString:))
            return ids.count == strings.count ? ids : nil
        }
    }

    /// A required string, or a 422 naming it.
    func requiredString(_ key: String) throws -> String {
        guard let value = try string(key).value else { throw invalid(key, "given (a string)") }
        return value
    }
}

/// JSONSerialization gives `true` and `1` alike as NSNumber that casts to Bool; only the
/// boolean's class tells them apart.
extension JSONBody.Field: Sendable where Value: Sendable {}

private func isJSONBoolean(_ value: Any) -> Bool {
    String(describing: type(of: value)).contains("Boolean")
}

extension JSONSerialization {
    /// Compact JSON with keys in byte order (see `JSONWriter`).
    static func body(_ object: Any) -> Data { JSONWriter.data(object) }
}
