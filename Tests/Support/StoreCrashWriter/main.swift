// store-crash-writer: a child process that CrashSafetyTests kills with SIGKILL.
//
//     store-crash-writer <path> <rows-per-batch> [save | migrate]
//
// `save` (the default) commits batches forever, one `save()` per batch, each batch
// being `rows-per-batch` rows tagged with its batch number. After every commit it
// prints `committed <batch> <revision>` (unbuffered), so the test knows which batches
// must survive the kill.
//
// `migrate` opens the file with schema version 2 and a custom stage that inserts a
// batch and adds a column, then prints `migrating` and sleeps inside the migration
// transaction until it is killed.
//
// The model, `CrashRow`, is shared with CrashSafetyTests through StoreCrashModel.
import Foundation
import SlateStore
import StoreCrashModel

/// The batch number the `migrate` mode writes; the test checks it never survives.
let migrationBatch = 999_999

/// Writes a line straight to the stdout descriptor (no buffer to lose in a kill).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("store-crash-writer: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let rowsPerBatch = Int(arguments[2]), rowsPerBatch > 0 else {
    fail("usage: store-crash-writer <path> <rows-per-batch> [save | migrate]")
}
let path = arguments[1]
let mode = arguments.count > 3 ? arguments[3] : "save"

do {
    switch mode {
    case "save":
        let container = try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path))
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<CrashRow>(sortBy: [SortDescriptor(\.batch, order: .reverse)])
        descriptor.fetchLimit = 1
        var batch = (try context.fetch(descriptor).first?.batch ?? 0) + 1
        say("ready \(batch)")
        while true {
            for seq in 0..<rowsPerBatch {
                // Text long enough that a batch spans several pages and FTS segments.
                let words = "batch\(batch) row\(seq) " + String(repeating: "lorem ipsum dolor ", count: 8)
                context.insert(CrashRow(batch: batch, seq: seq, payload: words))
            }
            let commit = try context.save()
            say("committed \(batch) \(commit?.revision ?? -1)")
            batch += 1
        }
    case "migrate":
        let stage = MigrationStage.custom(to: 2, "insert a batch, then wait to be killed", didMigrate: {
            [rowsPerBatch, migrationBatch] database in
            try database.execute("ALTER TABLE crash_rows ADD COLUMN note TEXT")
            for seq in 0..<rowsPerBatch {
                try database.execute(
                    "INSERT INTO crash_rows (id, batch, seq, payload, _rev) VALUES (?, ?, ?, ?, 0)",
                    [.text(UUID().uuidString), .integer(Int64(migrationBatch)), .integer(Int64(seq)), .text("migrating")])
            }
            try database.execute("UPDATE _slate_meta SET value = 2 WHERE key = 'schema_version'")
            say("migrating")
            // Sleep inside the open transaction; the test kills us here.
            Thread.sleep(forTimeInterval: 600)
        })
        _ = try ModelContainer(
            for: [CrashRow.self], configuration: ModelConfiguration(path: path, schemaVersion: 2, migrations: [stage]))
        fail("the migration finished without being killed")
    default:
        fail("unknown mode '\(mode)'")
    }
} catch {
    fail("\(error)")
}
