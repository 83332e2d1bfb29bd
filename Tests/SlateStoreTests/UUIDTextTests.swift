import Foundation
import Testing

@testable import SlateStore

/// Ids are stored as `uuidString`'s text; the store writes that text itself, faster.
@Suite struct UUIDTextTests {
    @Test func theStoredTextIsFoundationsUUIDString() {
        var ids = (0..<2000).map { _ in UUID() }
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        for id in ids {
            #expect(id.canonicalText == id.uuidString)
            #expect(id.databaseValue == .text(id.uuidString))
        }
    }
}
