import Foundation
import SlateStore

/// The rows the crash-safety test's writer process commits, shared by the writer
/// (`store-crash-writer`) and the test that kills it and reads the file back.
public struct CrashRow: PersistentModel {
    public var id = UUID()
    public var batch: Int
    public var seq: Int
    public var payload: String

    public init(batch: Int, seq: Int, payload: String) {
        self.batch = batch
        self.seq = seq
        self.payload = payload
    }

    public static let schema = ModelSchema<CrashRow>(
        table: "crash_rows",
        columns: [.column(\.batch, "batch"), .column(\.seq, "seq"), .column(\.payload, "payload")],
        indexes: [Index("crash_rows_by_batch", on: ["batch", "seq"])],
        searchable: ["payload"]
    )
}
