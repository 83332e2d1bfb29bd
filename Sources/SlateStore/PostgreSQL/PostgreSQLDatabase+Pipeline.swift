import CPostgreSQL

/// A statement a transaction has asked for but not sent: it goes out in one pipeline
/// (libpq's pipeline mode) with the next statement whose answer is needed, or with COMMIT.
struct UnsentStatement {
    /// The prepared statement's name, or nil for a command sent as text (BEGIN, SAVEPOINT,
    /// SET CONSTRAINTS: the extended protocol's unnamed statement, without arguments).
    let prepared: String?
    let sql: String
    let arguments: [DatabaseValue]

    static func command(_ sql: String) -> UnsentStatement { UnsentStatement(prepared: nil, sql: sql, arguments: []) }
}

/// Pipelines: what a transaction sends without waiting, and how its answers are checked.
///
/// A write transaction's bookkeeping (the undo entry and its trim, the commit log's row,
/// tombstones, savepoints, the deferred foreign-key check) has no answer the store reads.
/// Each statement once cost a round trip of its own; now they wait in `unsent` and travel
/// with the next statement that does have an answer. The answers come back in order and are
/// checked in order, so the first statement that failed is the one reported, with its own
/// SQL, and those after it were not run (the server skips them, as `PGRES_PIPELINE_ABORTED`).
/// Nothing is reported later than the end of the savepoint or transaction it belongs to:
/// RELEASE SAVEPOINT and COMMIT are sent in the same pipeline and wait for every answer.
extension PostgreSQLDatabase {
    /// Runs a statement whose result the caller does not read, in the open write transaction
    /// it is sent with the next statement that waits for an answer (see above); outside one,
    /// or in a read transaction, at once.
    func executeWithoutWaiting(_ sql: String, _ arguments: [DatabaseValue]) throws {
        guard isInTransaction, !isReadOnlyTransaction else { return try execute(sql, arguments) }
        noteStatementAsked()
        dropExpectedAnswers()  // it runs before any later read: what was read ahead may change
        if arguments.isEmpty {
            unsent.append(.command(sql))
        } else {
            let name = try prepared(sql, arguments)
            unsent.append(UnsentStatement(prepared: name, sql: sql, arguments: arguments))
        }
    }

    /// Reads the open write transaction makes right after its next statement that waits
    /// for an answer (`ModelContext.save`: the row it changes first, read once the store
    /// sequence is taken): they go out in that statement's pipeline, after it, instead of a
    /// round trip each. Unlike a read transaction's (`ExpectedRead`), their answers are
    /// served only until the transaction runs any other statement, which could change what
    /// they read; then they are dropped and the read is made when asked for.
    func expectInWrite(_ reads: [ExpectedRead]) {
        guard isInTransaction, !isReadOnlyTransaction else { return }
        dropExpectedAnswers()
        expectedReads = reads
    }

    /// Reads the caller makes once the innermost open savepoint is released (a saved row read
    /// back): they go out after its RELEASE, in the same pipeline, and are answered as
    /// `expectInWrite`'s. Outside a savepoint nothing is sent ahead (a transaction's COMMIT
    /// ends what they could be read in).
    func expectAfterSavepoint(_ reads: [ExpectedRead]) {
        readsAfterRelease = savepointDepth > 0 && !reads.isEmpty && !isReadOnlyTransaction ? (savepointDepth, reads) : nil
    }

    /// Forgets the answers read ahead and not asked for.
    func dropExpectedAnswers() {
        guard !expectedAnswers.isEmpty else { return }
        for answer in expectedAnswers.values { PQclear(answer) }
        expectedAnswers.removeAll()
    }

    /// True when a BEGIN or statements wait to be sent.
    var hasUnsentWork: Bool { unsentBegin != nil || !unsent.isEmpty }

    /// Sends what waits (the BEGIN, unsent statements) and `last` in one pipeline, and
    /// returns `last`'s checked result (nil without `last`). Throws the first failure, after
    /// reading every answer; the transaction is then in error on the server unless BEGIN
    /// itself failed.
    ///
    /// `expected`: reads sent after `last` whose answers are kept, unchecked, in
    /// `expectedAnswers` until asked for (`ExpectedRead`).
    @discardableResult
    func sendPipeline(ending last: UnsentStatement?, expecting expected: [(read: ExpectedRead, statement: UnsentStatement)] = [])
        throws -> OpaquePointer?
    {
        settle()
        var items = unsentBegin.map { [UnsentStatement.command($0)] } ?? []
        items += unsent
        if let last { items.append(last) }
        let checked = items.count
        if last != nil { items += expected.map(\.statement) }
        // A read transaction closing early: its COMMIT after the reads (`readTransaction(closingEarly:)`).
        let closing = last != nil && closesWithNextPipeline && isReadOnlyTransaction
        if closing {
            items.append(.command("COMMIT"))
            earlyCommitsSent += 1
        }
        unsentBegin = nil
        unsent.removeAll(keepingCapacity: true)
        guard !items.isEmpty else { return nil }
        guard PQenterPipelineMode(connection) == 1 else {
            let result = try executeOneByOne(Array(items.prefix(checked)))
            if last == nil, let result { PQclear(result) }
            return last == nil ? nil : result
        }
        roundTrips += 1
        let sent = items.allSatisfy(send) && PQpipelineSync(connection) == 1
        var results = sent ? pipelineResults() : []
        PQexitPipelineMode(connection)
        defer { results.forEach { PQclear($0) } }
        guard results.count == items.count else {
            let failed = items[min(results.count, items.count - 1)]
            throw PostgreSQLError.failure(of: connection, result: nil, sql: failed.sql, arguments: failed.arguments, location: location)
        }
        for index in 0..<(checked - 1) {
            let result = results.removeFirst()
            PQclear(try check(result, sql: items[index].sql, arguments: items[index].arguments))
        }
        let result = try check(results.removeFirst(), sql: items[checked - 1].sql, arguments: items[checked - 1].arguments)
        guard last != nil else {
            PQclear(result)
            return nil
        }
        for read in expected {
            let answer = results.removeFirst()
            if let unused = expectedAnswers.updateValue(answer, forKey: read.read) { PQclear(unused) }
        }
        // The COMMIT is skipped when a read ahead failed: the transaction stays open (in
        // error), and ends as any other.
        if closing {
            closesWithNextPipeline = false
            closedEarly = PQtransactionStatus(connection) == PQTRANS_IDLE
        }
        return result
    }

    /// The reads the open read transaction expects (`ExpectedRead`), prepared, to send with
    /// its first statement; then none. A read that cannot be prepared is not sent ahead (it
    /// reports itself when made), nor are any while the statement cache has no room for
    /// them (making room would deallocate statements already named).
    func takeExpectedReads() -> [(read: ExpectedRead, statement: UnsentStatement)] {
        guard !expectedReads.isEmpty else { return [] }
        defer { expectedReads = [] }
        // A read left out will be asked for after the pipeline: a COMMIT in it would be wrong.
        guard cachedStatementCount + expectedReads.count < Self.statementCacheLimit else {
            closesWithNextPipeline = false
            return []
        }
        var taken: [(read: ExpectedRead, statement: UnsentStatement)] = []
        for read in expectedReads where !taken.contains(where: { $0.read == read }) {
            guard let name = try? prepared(read.sql, read.arguments) else {
                closesWithNextPipeline = false
                continue
            }
            taken.append((read, UnsentStatement(prepared: name, sql: read.sql, arguments: read.arguments)))
        }
        return taken
    }

    private func send(_ item: UnsentStatement) -> Bool {
        guard let name = item.prepared else {
            return PQsendQueryParams(connection, item.sql, 0, nil, nil, nil, nil, 0) == 1
        }
        var parameters = PostgreSQLParameters(item.arguments)
        return parameters.withPointers { values, lengths, formats in
            PQsendQueryPrepared(connection, name, Int32(item.arguments.count), values, lengths, formats, 0)
        } == 1
    }

    /// For a connection that cannot enter pipeline mode (libpq 15 always can): the same
    /// statements, each waited for.
    private func executeOneByOne(_ items: [UnsentStatement]) throws -> OpaquePointer? {
        var last: OpaquePointer?
        for item in items {
            if let last { PQclear(last) }
            if let name = item.prepared {
                last = try execute(prepared: name, sql: item.sql, arguments: item.arguments)
            } else {
                roundTrips += 1
                last = try check(PQexec(connection, item.sql), sql: item.sql, arguments: [])
            }
        }
        return last
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
