import CPostgreSQL

/// Transactions, with as few round trips as their guarantees allow.
///
/// A GET is a handful of short statements inside a read transaction, and every round trip
/// costs both sides a wake-up: bench/scale counted 5.6 per GET, two of them the BEGIN and
/// the COMMIT. So:
/// - A transaction's BEGIN is not sent on its own: it goes out with the transaction's first
///   statement in one pipeline (libpq's pipeline mode), and a transaction that runs no
///   statement sends nothing. The meaning is the same: a REPEATABLE READ snapshot is taken
///   at the first statement, not at BEGIN, and a READ COMMITTED one at every statement.
/// - A write's statements without an answer to read (`executeWithoutWaiting`, savepoints)
///   wait and go out with the next one that has (see `PostgreSQLDatabase+Pipeline.swift`);
///   its COMMIT carries the last of them and waits for every answer: the acknowledgement.
/// - A read transaction's COMMIT is sent without waiting for its answer, which is read
///   before the connection's next statement (`settle()`). It ends a read-only snapshot,
///   which has nothing to make durable and nothing that can fail to commit.
extension PostgreSQLDatabase {
    /// A write transaction at READ COMMITTED: every write of the store begins by taking the
    /// store sequence's row (`ChangeLog.nextRevision`), so writers run one at a time across
    /// every node, and each statement after that sees every earlier commit.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        // Inside a read whose COMMIT went out early, a transaction would begin anew outside
        // the snapshot: refused, so the read runs again in one that stays open (where this
        // is a savepoint of the read, as everywhere else).
        try refuseAfterEarlyClose("SAVEPOINT")
        if isInTransaction { return try savepoint(body) }
        settle()
        unsentBegin = "BEGIN"
        forgetSequence()
        defer {
            forgetSequence()
            expectedReads = []
            readsAfterRelease = nil
            dropExpectedAnswers()
        }
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if unsentBegin != nil {
                // Nothing was sent: nothing to roll back.
                unsentBegin = nil
                unsent.removeAll()
            } else if isInTransaction {
                unsent.removeAll()
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// `body` in a savepoint of the open transaction. The SAVEPOINT waits to be sent with
    /// the next statement (after what waited before it was checked, so that an earlier
    /// statement's failure is not taken for this savepoint's); RELEASE waits for every
    /// answer of the savepoint, so each failure inside it is reported inside it.
    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        let name = "slate_sp\(savepointDepth)"
        defer { savepointDepth -= 1 }
        // A rollback to the savepoint undoes a bump made inside it and lets go of the row
        // if it was taken inside it: the sequence is then what it was before.
        let sequenceBefore = heldSequence
        // A read that opens a savepoint keeps its snapshot open to the end: a COMMIT sent
        // with the SAVEPOINT's pipeline would leave its RELEASE outside any transaction.
        if isReadOnlyTransaction {
            closesWithNextPipeline = false
            mayCloseEarly = false
        }
        if !unsent.isEmpty { try sendPipeline(ending: nil) }
        unsent.append(.command("SAVEPOINT \(name)"))
        do {
            let result = try body()
            // What was read ahead inside is done with; what is read right after goes with RELEASE.
            dropExpectedAnswers()
            expectedReads = readsAfterRelease?.depth == savepointDepth ? readsAfterRelease!.reads : []
            readsAfterRelease = nil
            try sendPipeline(ending: .command("RELEASE SAVEPOINT \(name)"), expecting: takeExpectedReads())
            return result
        } catch {
            // What was read ahead inside may be rolled back.
            expectedReads = []
            readsAfterRelease = nil
            dropExpectedAnswers()
            heldSequence = sequenceBefore
            if let first = unsent.first, first.prepared == nil, first.sql == "SAVEPOINT \(name)" {
                // Every send empties `unsent`, so a SAVEPOINT still first in it never went out,
                // and nothing after it did: none of it ran.
                unsent.removeAll()
            } else {
                // The SAVEPOINT went out, and maybe statements after it; what waits (queued after
                // the last send) is dropped. The rollback undoes whatever of it ran.
                unsent.removeAll()
                try? execute("ROLLBACK TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    /// Forgets the store sequence held or read (a transaction begins or ends).
    private func forgetSequence() {
        heldSequence = nil
        forgetSequenceRead()
    }

    /// Runs `body` in a read-only transaction that sees one snapshot (REPEATABLE READ);
    /// `reads` go out with its first statement (`ExpectedRead`).
    ///
    /// `closingEarly`: `body` usually reads nothing but its first statement and `reads`, so
    /// the COMMIT goes out in that same pipeline, after them: one message and one wake-up of
    /// each side fewer (a GET of one task on PostgreSQL: about 26 of 140 µs of the node's CPU
    /// and 20 µs of the server's). `body` may say the same of a later statement
    /// (`expectInRead(_:thenClosing:)`). Should `body` read anything after such a COMMIT,
    /// that read fails, and `body` runs again from the start in a snapshot kept open until
    /// it returns, whatever the first run returned or threw (and the pool may run the whole
    /// again on a new connection if this one died). So `body` must be repeatable, as a read is.
    func readTransaction<T>(expecting reads: [ExpectedRead] = [], closingEarly: Bool = false, _ body: () throws -> T) throws -> T {
        let first = Result { try readOnce(expecting: reads, closingEarly: closingEarly, mayCloseEarly: true, body) }
        guard readAfterEarlyClose else { return try first.get() }
        readAfterEarlyClose = false
        earlyCloseRetries += 1
        return try readOnce(expecting: reads, closingEarly: false, mayCloseEarly: false, body)
    }

    private func readOnce<T>(expecting reads: [ExpectedRead], closingEarly: Bool, mayCloseEarly: Bool, _ body: () throws -> T) throws -> T {
        settle()
        unsentBegin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        isReadOnlyTransaction = true
        expectedReads = reads
        closesWithNextPipeline = closingEarly
        self.mayCloseEarly = mayCloseEarly
        defer {
            isReadOnlyTransaction = false
            closesWithNextPipeline = false
            self.mayCloseEarly = false
            closedEarly = false
            expectedReads = []
            dropExpectedAnswers()
            if unsentBegin != nil {
                unsentBegin = nil
            } else if isInTransaction {
                sendCommit()
            }
        }
        return try body()
    }

    /// Commits, refusing to report success for a transaction the server already aborted
    /// (there COMMIT answers ROLLBACK without an error).
    private func commit() throws {
        if unsentBegin != nil, unsent.isEmpty {
            unsentBegin = nil  // no statement ran: there is nothing to commit
            return
        }
        guard PQtransactionStatus(connection) != PQTRANS_INERROR else {
            throw StoreError.postgreSQL(PostgreSQLError(
                sqlState: "25P02", message: "the transaction failed earlier and was rolled back", sql: "COMMIT", arguments: []))
        }
        let result: OpaquePointer?
        do {
            result = try sendPipeline(ending: .command("COMMIT"))
        } catch {
            if !isUsable { lostDuringCommit = true }
            throw error
        }
        if !isUsable { lostDuringCommit = true }
        guard let checked = result else { return }
        defer { PQclear(checked) }
        let tag = String(cString: PQcmdStatus(checked))
        guard tag == "COMMIT" else {
            throw StoreError.postgreSQL(PostgreSQLError(sqlState: "40000", message: "the server rolled the transaction back", sql: "COMMIT", arguments: []))
        }
    }

    // MARK: Round trips saved

    /// Sends a read transaction's COMMIT and leaves its answer to `settle()`. A connection
    /// that cannot send it is broken, and the pool drops it (`isUsable`).
    private func sendCommit() {
        if PQsendQuery(connection, "COMMIT") == 1 { commitInFlight = true }
    }

    /// Reads the answer of a COMMIT sent earlier, so the connection can take a statement.
    /// A read-only COMMIT that fails has lost nothing; a broken connection shows in the
    /// statement that follows.
    func settle() {
        guard commitInFlight else { return }
        commitInFlight = false
        while let result = PQgetResult(connection) { PQclear(result) }
    }

    /// Reads the open read transaction makes right after its next statement (they go out in
    /// that statement's pipeline, after it, as a snapshot's first reads do: `ExpectedRead`),
    /// and with `thenClosing`, its COMMIT after them: what `body` usually reads last (see
    /// `readTransaction(expecting:closingEarly:_:)`). Ignored outside a read transaction,
    /// and `thenClosing` in a run that follows an early close.
    func expectInRead(_ reads: [ExpectedRead], thenClosing: Bool) {
        guard isReadOnlyTransaction, !closedEarly else { return }
        expectedReads += reads
        if thenClosing, mayCloseEarly { closesWithNextPipeline = true }
    }

    /// Refuses a statement of a read transaction whose COMMIT already went out with an
    /// earlier pipeline (`readTransaction(closingEarly:)`), and notes it: the transaction
    /// then runs its body again in a snapshot that stays open.
    func refuseAfterEarlyClose(_ sql: String) throws {
        guard closedEarly else { return }
        readAfterEarlyClose = true
        throw StoreError.postgreSQL(PostgreSQLError(
            sqlState: "25000", message: "the snapshot ended with its first statements; the read runs again in a whole one",
            sql: sql, arguments: []))
    }

    /// Before a statement sent on its own: the COMMIT in flight answered, what waits sent.
    func sendPendingWork() throws {
        settle()
        // A statement sent on its own: each expected read is made when asked for, so the
        // transaction cannot end with the next pipeline.
        if !expectedReads.isEmpty { closesWithNextPipeline = false }
        expectedReads = []
        if !isReadOnlyTransaction { dropExpectedAnswers() }
        if hasUnsentWork { try sendPipeline(ending: nil) }
    }
}
