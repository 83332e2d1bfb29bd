import Foundation
@testable import SlateStore
import Testing

// Ids are written and read by the store's own code, not Foundation's (snprintf / sscanf);
// the text must be exactly `uuidString`'s, and reading must accept what it did before.

@Suite struct UUIDTextTests {
    @Test func theTextIsFoundationsAndReadsBack() {
        var ids = (0..<2_000).map { _ in UUID() }
        ids.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        for uuid in ids {
            let text = UUIDText.format(uuid)
            #expect(text == uuid.uuidString)
            #expect(UUIDText.uuid(text) == uuid)
            #expect(UUIDText.uuid(text.lowercased()) == uuid)
            #expect(uuid.databaseValue == .text(uuid.uuidString))
            #expect(UUID.fromDatabaseValue(.text(text)) == uuid)
        }
    }

    @Test(arguments: ["", "not an id", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
                      "E621E1F8C36C-495A-93FC-0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                      "E621E1F8-C36C-495A-93FC-0C247A3E6E5g", "E621E1F8-C36C-495A-93FC-0C247A3E6E5/",
                      "E621E1F8-C36C-495A-93FC:0C247A3E6E5F", "E621E1F8-C36C-495A-93F\u{E9}0C247A3E6E5F"])
    func textThatIsNotAnIdIsRefusedAsFoundationRefusesIt(_ text: String) {
        #expect(UUIDText.uuid(text) == UUID(uuidString: text))
        #expect(UUIDText.uuid(text) == nil)
    }
}
