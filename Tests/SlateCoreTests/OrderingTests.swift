import Foundation
import SlateCore
import Synchronization
import TestDatabases
import Testing

/// Manual order never runs out, and a move never overwrites another change.
@Suite struct OrderingTests {
    /// Runs blocking work on a thread of its own: these tests take seconds, and Swift's
    /// cooperative pool (as many threads as cores) is shared with every other suite.
    func offPool(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test func tenThousandMovesIntoOneGapKeepAStrictRequestedOrder() async throws {
        try await offPool { try Self.tenThousandMoves() }
    }

    static func tenThousandMoves() throws {
        let (slate, _) = try makeSlate()
        let list = try slate.createList(name: "Story")
        var draft = TaskDraft(title: "First")
        draft.listID = list.id
        let first = try slate.addTask(draft)
        var tasks = [first]
        for title in ["P", "Q", "Last"] {
            draft.title = title
            tasks.append(try slate.addTask(draft))
        }
        let (p, q, last) = (tasks[1], tasks[2], tasks[3])
        var expected = [first.id, p.id, q.id, last.id]
        // Each move puts one of P, Q right after First, before the other: the gap after
        // First halves every time (a Double runs out after about 50 halvings).
        for move in 0..<10_000 {
            let (moving, target) = move.isMultiple(of: 2) ? (q, p) : (p, q)
            try slate.moveTask(moving.id, before: target.id)
            expected = [first.id, moving.id, target.id, last.id]
            if move % 97 == 0 || move >= 9_990 {
                let ordered = try slate.tasks(TaskQuery(scope: .list(list.id), sort: .manual))
                #expect(ordered.map(\.id) == expected, "after move \(move)")
                let orders = ordered.map(\.order)
                #expect(zip(orders, orders.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing after move \(move): \(orders)")
            }
        }
        let ordered = try slate.tasks(TaskQuery(scope: .list(list.id), sort: .manual))
        #expect(ordered.map(\.id) == expected)
        #expect(try slate.undo() != nil, "a move, renumbering included, is one change to undo")
    }

    @Test func listsReorderIntoOneGapAsOften() async throws {
        try await offPool { try Self.listMoves() }
    }

    static func listMoves() throws {
        let (slate, _) = try makeSlate()
        let lists = try ["A", "B", "C"].map { try slate.createList(name: $0) }
        for move in 0..<200 {
            let (moving, target) = move.isMultiple(of: 2) ? (lists[2], lists[1]) : (lists[1], lists[2])
            try slate.moveList(moving.id, before: target.id)
            let names = try slate.lists().map(\.list.name)
            #expect(names == ["A", moving.name, target.name], "after move \(move)")
        }
    }

    @Test(arguments: [false, true]) func aConcurrentTitleEditAndMoveBothSurvive(lists: Bool) async throws {
        try await offPool { try Self.concurrentEditAndMove(lists: lists) }
    }

    static func concurrentEditAndMove(lists: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("slate.sqlite").path
        let editor = try Slate.open(path: TestDatabase.sharedURL(path: path) ?? path)
        let mover = try Slate.open(path: TestDatabase.sharedURL(path: path) ?? path)
        let inbox = try ["A", "B", "C"].map { try editor.addTask(TaskDraft(title: $0)) }
        let sidebar = try ["Story", "Sound", "Light"].map { try editor.createList(name: $0) }
        for round in 0..<200 {
            let title = "Edited \(round)"
            let finished = DispatchSemaphore(value: 0)
            let moved = Mutex(false)
            // The edit and the move run at once, each on a thread of its own.
            Thread {
                if lists {
                    _ = try? editor.updateList(sidebar[2].id, name: title)
                } else {
                    _ = try? editor.updateTask(inbox[2].id, TaskPatch(title: title))
                }
                finished.signal()
            }.start()
            Thread {
                do {
                    if lists {
                        try mover.moveList(sidebar[2].id, before: round.isMultiple(of: 2) ? sidebar[0].id : nil)
                    } else {
                        try mover.moveTask(inbox[2].id, before: round.isMultiple(of: 2) ? inbox[0].id : nil)
                    }
                    moved.withLock { $0 = true }
                } catch {}
                finished.signal()
            }.start()
            #expect(finished.wait(timeout: .now() + 20) == .success && finished.wait(timeout: .now() + 20) == .success)
            #expect(moved.withLock { $0 }, "round \(round): the move was not refused")
            if lists {
                let names = try editor.lists().map(\.list.name)
                #expect(names.contains(title), "round \(round): the rename survived the move")
                #expect(round.isMultiple(of: 2) ? names.first == title : names.last == title, "round \(round): the move survived the rename")
            } else {
                let ordered = try editor.tasks(TaskQuery(scope: .inbox, sort: .manual))
                #expect(ordered.contains { $0.id == inbox[2].id && $0.title == title }, "round \(round): the title survived the move")
                let position = ordered.firstIndex { $0.id == inbox[2].id }
                #expect(position == (round.isMultiple(of: 2) ? 0 : 2), "round \(round): the move survived the title edit")
            }
        }
    }
}
