import Foundation
import SlateCore
import Testing

@Suite struct PushStorageTests {
    private func key(_ name: String) -> VAPIDKey { VAPIDKey(privateKey: name, publicKey: name, created: Date()) }

    /// The scheduler starting and a page asking for the key on a first start: both see no
    /// key and make one; the second to store it must get the first's (it failed with a 500
    /// before, or left Web Push off for the whole run when the scheduler lost).
    @Test func twoFirstCallsForTheVAPIDKeyGetTheSameKey() throws {
        let (slate, _) = try makeSlate()
        var inner: VAPIDKey?
        let outer = try VAPIDKey.stored(in: slate.container) {
            // The other caller stores its key between this one's read and its insert.
            inner = try VAPIDKey.stored(in: slate.container) { key("first") }
            return key("second")
        }
        #expect(inner?.publicKey == "first")
        #expect(outer.publicKey == "first")
        #expect(try VAPIDKey.stored(in: slate.container) { key("third") }.publicKey == "first", "and it stays")
    }
}
