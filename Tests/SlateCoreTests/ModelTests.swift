import Foundation
import SlateCore
import Testing

@Suite struct PriorityTests {
    @Test(arguments: [("high", Priority.high), ("CRIT", .critical), ("!!", .medium), ("0", Priority.none), ("lo", .low)])
    func readsNamesAbbreviationsDigitsAndMarks(text: String, expected: Priority) {
        #expect(Priority(name: text) == expected)
    }

    @Test func ordersByRank() {
        #expect(Priority.allCases.sorted() == [.none, .low, .medium, .high, .critical])
        #expect(Priority(name: "urgent") == nil)
    }
}
