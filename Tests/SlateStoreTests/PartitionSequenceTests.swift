import Foundation
@testable import SlateStore
import Testing

/// Numbered rows of a partitioned table: each partition counts from 1.
enum TicketsV1 {
    struct Ticket: PersistentModel, Equatable {
        var id = UUID()
        var number = 0
        var owner: String
        var title: String

        static let schema = ModelSchema<Ticket>(
            table: "tickets",
            columns: [.sequence(\.number, "number"), .column(\.owner, "owner"), .column(\.title, "title")],
            indexes: [Index("tickets_by_number", on: ["number"], unique: true)],
            partition: "owner"
        )
    }
}

enum TicketsV2 {
    struct Ticket: PersistentModel, Equatable {
        var id = UUID()
        var number = 0
        var owner: String
        var title: String

        static let schema = ModelSchema<Ticket>(
            table: "tickets",
            columns: [.sequence(\.number, "number"), .column(\.owner, "owner"), .column(\.title, "title")],
            indexes: [Index("tickets_by_owner_number", on: ["owner", "number"], unique: true)],
            partition: "owner"
        )
    }
}

@Suite struct PartitionSequenceTests {
    @Test func aSequenceCountsWithinEachPartitionAndAnOldFileIsMigrated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tickets.sqlite")
        do {
            let context = ModelContext(try ModelContainer(
                for: [TicketsV1.Ticket.self], configuration: ModelConfiguration(path: path, schemaVersion: 1)))
            context.insert(TicketsV1.Ticket(owner: "ana", title: "First"))
            try context.save()
        }
        let container = try ModelContainer(for: [TicketsV2.Ticket.self], configuration: ModelConfiguration(path: path, schemaVersion: 1))
        let indexes = try container.pool.read { database in
            try database.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tickets' AND sql IS NOT NULL")
                .compactMap { String.fromDatabaseValue($0["name"]) }
        }
        #expect(!indexes.contains("tickets_by_number") && indexes.contains("tickets_by_owner_number"))
        let context = ModelContext(container)
        let bobs = TicketsV2.Ticket(owner: "bob", title: "Bob's first")
        let anas = TicketsV2.Ticket(owner: "ana", title: "Ana's second")
        context.insert(bobs)
        context.insert(anas)
        try context.save()
        #expect(try context.model(TicketsV2.Ticket.self, id: bobs.id)?.number == 1)
        #expect(try context.model(TicketsV2.Ticket.self, id: anas.id)?.number == 2)
    }
}
