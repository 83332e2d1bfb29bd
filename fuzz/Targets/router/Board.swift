import Foundation
import FuzzSupport
import SlateCore
import SlateDAV
import SlateHTTP
import SlateServer
import SlateStore
import Synchronization

/// An in-memory database with two accounts and a small board of known ids (so that corpus
/// requests can name a list, a task and a subtask), served in-process as `slate serve`
/// serves it: CalDAV under `/dav/` and `/.well-known/caldav`, the REST API beside it.
/// The account is `ana`; `X-Account: b` is `ben`, `X-Account: none` is signed out.
///
/// Setting one up costs far more than a request, so a board serves `inputsPerBoard`
/// inputs before a fresh one replaces it. A finding that needs what earlier inputs left
/// behind may then not reproduce from its input file alone (replaying one file always
/// starts from a fresh board); the log's last inputs before it are the place to look.
struct Board: Sendable {
    static let listID = "00000000-0000-4000-8000-000000000001"
    static let taskID = "00000000-0000-4000-8000-000000000011"
    static let subtaskID = "00000000-0000-4000-8000-000000000012"

    static let inputsPerBoard = 100
    private static let current = Mutex<(board: Board?, served: Int)>((nil, 0))

    /// CalDAV and the API.
    let server: DAVMount

    /// The board for the next input.
    static func next() throws -> Board {
        try current.withLock { current in
            if let board = current.board, current.served < inputsPerBoard {
                current.served += 1
                return board
            }
            let board = try Board()
            current = (board, 1)
            return board
        }
    }

    init() throws {
        let container = try Slate.openContainer(path: nil)
        let first = try Slate.ensureAccount(named: "ana", in: container, now: FuzzClock.now)
        let second = try Slate.ensureAccount(named: "ben", in: container, now: FuzzClock.now)
        try Slate(container: container, accountID: first.id, calendar: FuzzClock.zones[0], clock: { FuzzClock.now })
            .importData(Data(Self.export.utf8), format: .json)
        let authenticate: @Sendable (Request) async throws -> UUID = { request in
            switch request.headers["X-Account"] {
            case "none": throw HTTPError(.unauthorized, code: "unauthorized", message: "Sign in first.")
            case "b": return second.id
            default: return first.id
            }
        }
        let api = SlateAPI(container: container, authenticate: authenticate, clock: { FuzzClock.now })
        let dav = CalDAVService(directory: AccountDirectory(container: container), authenticate: authenticate,
                                calendar: FuzzClock.zones[0], logLevel: .off)
        server = DAVMount(dav: dav.router, other: api.router)
    }

    static let export = """
        {"format": "slate", "version": 1, "exported": "2026-11-29T09:15:00.000Z",
         "lists": [{"id": "\(listID)", "name": "Story", "color": "#FF6B6B", "icon": "book", "order": 1,
                    "created": "2026-11-29T09:00:00.000Z"}],
         "tasks": [
          {"id": "\(taskID)", "number": 1, "title": "Write Act 2 outline", "notes": "Woody", "isCompleted": false,
           "completedAt": null, "created": "2026-11-29T09:00:00.000Z", "modified": "2026-11-29T09:00:00.000Z",
           "due": "2026-11-30", "isAllDay": true, "priority": "high", "isFlagged": true, "listID": "\(listID)",
           "parentID": null, "order": 1, "tags": ["writing"], "recurrence": "weekly", "reminderOffset": 900},
          {"id": "\(subtaskID)", "number": 2, "title": "Pick the museum", "notes": "", "isCompleted": true,
           "completedAt": "2026-11-29T09:10:00.000Z", "created": "2026-11-29T09:01:00.000Z",
           "modified": "2026-11-29T09:10:00.000Z", "due": "2026-11-29T17:00:00.000Z", "isAllDay": false,
           "priority": "none", "isFlagged": false, "listID": "\(listID)", "parentID": "\(taskID)", "order": 1,
           "tags": [], "recurrence": null, "reminderOffset": null}]}
        """
}
