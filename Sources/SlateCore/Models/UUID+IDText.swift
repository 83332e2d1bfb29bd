import Foundation
import SlateStore

extension UUID {
    /// The UUID `text` names, exactly as `UUID(uuidString:)` reads it (either case; the
    /// canonical `8-4-4-4-12` form read byte by byte, anything else left to Foundation): an
    /// id in a request's path or a resource's name costs no `sscanf`, which was a fortieth
    /// of the CPU of a `GET /tasks/{id}`.
    public init?(idText text: some StringProtocol) {
        guard let uuid = UUIDText.uuid(String(text)) else { return nil }
        self = uuid
    }
}
