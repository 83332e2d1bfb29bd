import Foundation

/// A custom step of a migration plan, run when a file written with an older schema
/// version is opened.
///
/// Structural changes are inferred (new tables, columns, indexes, searchable columns);
/// a custom stage does what inference cannot: rename or drop columns, transform values.
///
/// ```swift
/// .custom(to: 2, "split name into first and last") { db in
///     try db.execute("ALTER TABLE people RENAME COLUMN name TO firstName")
/// }
/// ```
public struct MigrationStage: Sendable {
    /// The schema version this stage migrates to.
    public let version: Int
    /// What the stage does, for error messages.
    public let name: String
    let willMigrate: (@Sendable (Database) throws -> Void)?
    let didMigrate: (@Sendable (Database) throws -> Void)?

    /// A custom stage. `willMigrate` runs before inferred changes, `didMigrate` after them
    /// (when the new columns exist). Both run in the migration's single transaction.
    public static func custom(
        to version: Int, _ name: String,
        willMigrate: (@Sendable (Database) throws -> Void)? = nil,
        didMigrate: (@Sendable (Database) throws -> Void)? = nil
    ) -> MigrationStage {
        MigrationStage(version: version, name: name, willMigrate: willMigrate, didMigrate: didMigrate)
    }
}
