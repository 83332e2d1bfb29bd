import Foundation
import SlateStore
import TestDatabases
import Testing

/// A model whose properties are declared in a different order from its schema's
/// columns, so decoding cannot rely on reading the columns in SELECT order.
private struct Shuffled: PersistentModel, Equatable {
    var count: Int?
    var label: String
    var id = UUID()
    var when: Date
    var ownerID: UUID?
    var ratio: Double?

    static let schema = ModelSchema<Shuffled>(
        table: "shuffled",
        columns: [.column(\.when, "when"), .column(\.ratio, "ratio"), .column(\.label, "label"), .column(\.count, "count")],
        references: [.reference(\.ownerID, "ownerID", to: Owner.self, onDelete: .nullify)]
    )
}

/// A model that decodes its keys in its own order and asks about one twice.
private struct HandDecoded: PersistentModel, Equatable {
    var id = UUID()
    var first: String
    var second: String?

    static let schema = ModelSchema<HandDecoded>(
        table: "hand_decoded", columns: [.column(\.first, "first"), .column(\.second, "second")])

    init(first: String, second: String?) {
        self.first = first
        self.second = second
    }

    enum CodingKeys: String, CodingKey { case id, first, second }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        second = try container.decodeIfPresent(String.self, forKey: .second)
        first = try container.decode(String.self, forKey: .first)
        _ = try container.decodeIfPresent(String.self, forKey: .second)
        id = try container.decode(UUID.self, forKey: .id)
    }
}

@Suite struct RowDecoderTests {
    @Test func decodesPropertiesDeclaredInAnotherOrderThanTheColumns() throws {
        let container = try ModelContainer(for: [Owner.self, Shuffled.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let owner = Owner(name: "Ada")
        let rows = [
            Shuffled(count: 3, label: "full", when: Date(timeIntervalSinceReferenceDate: 12.5), ownerID: owner.id, ratio: 0.25),
            Shuffled(count: nil, label: "sparse", when: Date(timeIntervalSinceReferenceDate: 0), ownerID: nil, ratio: nil),
        ]
        context.insert(owner)
        for row in rows { context.insert(row) }
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Shuffled>()) == rows)
    }

    @Test func decodesKeysAskedForOutOfOrderAndTwice() throws {
        let container = try ModelContainer(for: [HandDecoded.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let rows = [HandDecoded(first: "a", second: "b"), HandDecoded(first: "c", second: nil)]
        for row in rows { context.insert(row) }
        try context.save()
        #expect(try context.fetch(FetchDescriptor<HandDecoded>()) == rows)
    }
}
