import Foundation
import SlateStore

extension SlateSchema {
    /// Version 2: a task's `reminderOffset` (seconds before the due date, from before
    /// alerts) becomes an alert, and the column goes. A task that has alerts keeps them (its
    /// offset was already made one when it was created); an offset without a due date
    /// meant nothing and goes; a negative offset (after the due date) becomes the moment it
    /// fired; one further before the due date than a year (no alert can be) is dropped.
    /// The same rule as `TaskAlert(legacyReminderOffset:due:)`, in SQL, in the migration's
    /// one transaction.
    static let reminderOffsetsBecomeAlerts = MigrationStage.custom(to: 2, "reminder offsets become alerts", didMigrate: { database in
        // Schema 1 was SQLite's alone: a PostgreSQL store starts at 2 (or is copied from an
        // upgraded file by `slate migrate`), so it never holds the old column.
        guard database.dialect == .sqlite else { return }
        let columns = try database.rows("SELECT name FROM pragma_table_info('tasks') WHERE name = 'reminderOffset'")
        guard !columns.isEmpty else { return }
        // Dates are stored as seconds since 2001-01-01 (Foundation's reference date).
        try database.execute("""
            UPDATE tasks SET alerts = json_array(CASE
                WHEN reminderOffset < 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', due + 978307200 - reminderOffset, 'unixepoch')
                WHEN reminderOffset = 0 THEN 'due'
                WHEN reminderOffset % 604800 = 0 THEN (reminderOffset / 604800) || 'w'
                WHEN reminderOffset % 86400 = 0 THEN (reminderOffset / 86400) || 'd'
                WHEN reminderOffset % 3600 = 0 THEN (reminderOffset / 3600) || 'h'
                WHEN reminderOffset % 60 = 0 THEN (reminderOffset / 60) || 'm'
                ELSE reminderOffset || 's' END)
            WHERE reminderOffset IS NOT NULL AND due IS NOT NULL AND json_array_length(alerts) = 0
                AND reminderOffset <= \(TaskAlert.maximumLead)
            """)
        try database.execute("ALTER TABLE tasks DROP COLUMN reminderOffset")
    })
}
