import CPostgreSQL

/// Transactions, with as few round trips as their guarantees allow.
///
/// A GET is a handful of short statements inside a read transaction, and every round trip
/// costs both sides a wake-up: bench/scale counted 5.6 per GET, two of them the BEGIN and
/// the COMMIT. So:
/// - A transaction's BEGIN is not sent on its own: it goes out with the transaction's first
///   prepared statement in one pipeline (libpq's pipeline mode), and a transaction that runs
///   no statement sends nothing. The meaning is the same: a REPEATABLE READ snapshot is taken
///   at the first statement, not at BEGIN, and a READ COMMITTED one at every statement.
/// - A read transaction's COMMIT is sent without waiting for its answer, which is read
///   before the connection's next statement (`settle()`). It ends a read-only snapshot,
///   which has nothing to make durable and nothing that can fail to commit. A write's
///   COMMIT is always waited for: its answer is the acknowledgement.
extension PostgreSQLDatabase {
    /// A write transaction at READ COMMITTED: every write of the store begins by taking the
    /// store sequence's row (`ChangeLog.nextRevision`), so writers run one at a time across
    /// every node, and each statement after that sees every earlier commit.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            let name = "slate_sp\(savepointDepth)"
            defer { savepointDepth -= 1 }
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE SAVEPOINT \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
                throw error
            }
        }
        settle()
        unsentBegin = "BEGIN"
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if unsentBegin != nil {
                unsentBegin = nil  // nothing was sent: nothing to roll back
            } else if isInTransaction {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// Runs `body` in a read-only transaction that sees one snapshot (REPEATABLE READ).
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        settle()
        unsentBegin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        defer {
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
        if unsentBegin != nil {
            unsentBegin = nil  // no statement ran: there is nothing to commit
            return
        }
        guard PQtransactionStatus(connection) != PQTRANS_INERROR else {
            throw StoreError.postgreSQL(PostgreSQLError(
                sqlState: "25P02", message: "the transaction failed earlier and was rolled back", sql: "COMMIT", arguments: []))
        }
        let result = PQexec(connection, "COMMIT")
        if !isUsable { lostDuringCommit = true }
        let checked = try check(result, sql: "COMMIT", arguments: [])
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

    /// Before a statement sent on its own: the COMMIT in flight answered, the BEGIN sent.
    func sendPendingWork() throws {
        settle()
        guard let begin = unsentBegin else { return }
        unsentBegin = nil
        PQclear(try check(PQexec(connection, begin), sql: begin, arguments: []))
    }

    /// Sends `begin` and the prepared statement `name` in one pipeline, and returns the
    /// statement's checked result. The transaction is open afterwards, whatever the
    /// statement did (as if BEGIN had been sent first), unless BEGIN itself failed.
    func execute(begin: String, prepared name: String, sql: String, arguments: [DatabaseValue]) throws -> OpaquePointer {
        guard PQenterPipelineMode(connection) == 1 else {
            PQclear(try check(PQexec(connection, begin), sql: begin, arguments: []))
            return try execute(prepared: name, sql: sql, arguments: arguments)
        }
        var parameters = PostgreSQLParameters(arguments)
        let sent =
            PQsendQueryParams(connection, begin, 0, nil, nil, nil, nil, 0) == 1
            && parameters.withPointers { values, lengths, formats in
                PQsendQueryPrepared(connection, name, Int32(arguments.count), values, lengths, formats, 0)
            } == 1
            && PQpipelineSync(connection) == 1
        var results = sent ? pipelineResults() : []
        PQexitPipelineMode(connection)
        defer { results.forEach { PQclear($0) } }
        guard results.count == 2 else {
            throw PostgreSQLError.failure(of: connection, result: results.first, sql: sql, arguments: arguments, location: location)
        }
        PQclear(try check(results.removeFirst(), sql: begin, arguments: []))
        return try check(results.removeFirst(), sql: sql, arguments: arguments)
    }

    /// Every result of the pipeline up to its sync point (each query's result is followed by
    /// a NULL; two NULLs in a row, or a broken connection, mean nothing more is coming).
    private func pipelineResults() -> [OpaquePointer] {
        var results: [OpaquePointer] = []
        var nulls = 0
        while true {
            guard let result = PQgetResult(connection) else {
                nulls += 1
                if nulls > 1 || !isUsable { return results }
                continue
            }
            nulls = 0
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                return results
            }
            results.append(result)
        }
    }
}
