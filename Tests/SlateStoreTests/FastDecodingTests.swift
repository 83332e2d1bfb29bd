import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// The shortcuts of row decoding agree with the Foundation decoders they skip.
@Suite struct FastDecodingTests {
    @Test(arguments: [
        "[]", #"["home"]"#, #"["home","errands","çà ✓"]"#, #"[""]"#, #"["a",""]"#,
        // Not taken by the shortcut (nil), left to JSONDecoder:
        #"["a\"b"]"#, #"["a\/b"]"#, #"[ "a" ]"#, #"["a", "b"]"#, #"["a",]"#, #"[1]"#, #"["a""#, "", "[", #"["a"]x"#,
    ])
    func stringArraysReadAsJSONDecoderReadsThem(text: String) {
        let decoded = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        if let fast = JSONStringArray.parse(text) {
            #expect(fast == decoded)
        } else {
            #expect(text.contains("\\") || text.contains(" ") || decoded == nil || text.contains(",]"))
        }
    }

    @Test(arguments: [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621e1f8-C36C-495a-93FC-0C247A3E6E5F",
        "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F ", "", "not a uuid",
    ])
    func idsReadAsUUIDInitReadsThem(text: String) throws {
        let container = try ModelContainer(for: [], configuration: TestDatabase.configuration())
        let read = try container.pool.write { database -> UUID? in
            var result: UUID?
            try database.forEachRow("SELECT ?", [.text(text)]) { result = $0.uuid(at: 0) }
            return result
        }
        #expect(read == UUID(uuidString: text))
    }
}
