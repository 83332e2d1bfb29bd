import Foundation
import SlateCore
import Testing

/// `UUID(idText:)` reads ids from paths and resource names without `sscanf`: it must accept
/// and refuse exactly what `UUID(uuidString:)` does.
@Suite struct UUIDIDTextTests {
    @Test(arguments: [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621E1F8-c36c-495A-93fc-0C247A3E6E5F",
        "00000000-0000-0000-0000-000000000000", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
        "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8_C36C-495A-93FC-0C247A3E6E5F", " E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "", "inbox", "E621E1F8-C36C-495A-93FC-0C247A3E6E5Fé",
    ])
    func readsWhatFoundationReads(text: String) {
        #expect(UUID(idText: text) == UUID(uuidString: text))
        #expect(UUID(idText: Substring(text)) == UUID(uuidString: text))
    }

    @Test func aRandomIdReadsBackInEitherCase() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUID(idText: id.uuidString) == id)
            #expect(UUID(idText: id.uuidString.lowercased()) == id)
        }
    }
}
