import Foundation
import SlateStore

extension Slate {
    /// Matches a parsed file against the account and writes it in one transaction.
    /// Consumes the batch: what the file said is released once the plan holds it.
    func apply(_ batch: consuming ImportBatch) throws -> ImportSummary {
        var plan = try ImportPlan(slate: self)
        for list in batch.lists { try plan.add(list) }
        var tasks = batch.tasks
        batch = ImportBatch()
        try plan.add(tasks)
        tasks = []
        return try plan.save()
    }
}

/// The writes an import will make, worked out before any is made: every reference between
/// records and to the database is resolved here, so that a file that fails does so before
/// the transaction starts.
struct ImportPlan {
    private let slate: Slate
    private let context: ModelContext
    private let accountID: UUID
    private let now: Date
    private var summary = ImportSummary()

    /// The account's lists as they will be, by id and by lower-cased name.
    private var lists: [UUID: TaskList]
    private var listIDsByName: [String: UUID]
    /// Where each list of the file went: a list id in the file → the list's id in the database.
    private var listIDs: [UUID: UUID] = [:]
    private var listsInFile: [String: ImportError.Location] = [:]
    private var listIDsInFile: [UUID: ImportError.Location] = [:]
    /// The file's ids of a list it declares as its Inbox: their tasks go to Slate's Inbox.
    private var inboxIDsInFile: Set<UUID> = []
    private var nextListOrder: Double
    /// No other account exists: file ids are kept as they are (none can be another's).
    private let isOnlyAccount: Bool
    /// Tasks to write, in the order that keeps wanted numbers: inserts that keep a number
    /// first (the store numbers the others after the highest number so far), then the rest.
    private var numberedInserts: [TaskItem] = []
    private var otherWrites: [(task: TaskItem, isNew: Bool)] = []
    /// Tasks of the account outside the file whose subtask count the import moves (a
    /// subtask added under one, moved, completed or reopened): touched with the save.
    private var parentsMoved: Set<UUID> = []

    init(slate: Slate) throws {
        self.slate = slate
        context = slate.makeContext()
        // An import's undo deletes the tasks and lists it created: recorded by id, not by value.
        context.recordsInsertsByID = true
        accountID = slate.accountID
        now = slate.now
        let accountID = self.accountID
        let existing = try context.fetch(FetchDescriptor<TaskList>(predicate: #Predicate { $0.accountID == accountID }))
        lists = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        listIDsByName = Dictionary(existing.map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        nextListOrder = (existing.map(\.order).max() ?? 0) + 1
        isOnlyAccount = try context.fetchCount(FetchDescriptor<Account>(predicate: #Predicate { $0.id != accountID })) == 0
    }

    // MARK: Lists

    /// A list the file declares: updates the list with its id, or matches one by name, or creates it.
    mutating func add(_ incoming: IncomingList) throws {
        let key = incoming.name.lowercased()
        if let first = listsInFile[key] {
            throw ImportError(incoming.location, field: "name", "The list \"\(incoming.name)\" appears twice in the file (also \(first)).")
        }
        listsInFile[key] = incoming.location
        if let id = incoming.id {
            if let first = listIDsInFile[id] {
                throw ImportError(incoming.location, field: "id", "id \(id.uuidString.lowercased()) appears twice in the file (also \(first)).")
            }
            listIDsInFile[id] = incoming.location
        }
        // A list the file calls Inbox is Slate's Inbox, unless the account kept a list of that name.
        if TaskRules.isInboxName(incoming.name), listIDsByName[key] == nil {
            guard let id = incoming.id, lists[accountListID(id)] != nil else {
                if let id = incoming.id { inboxIDsInFile.insert(id) }
                return
            }
            // A list of the account renamed Inbox by the file: refused as a rename is.
            _ = try ImportRules.listName(incoming.name, at: incoming.location, field: "name")
        }
        // The file's id, or (when the account has no list with it) the id it maps to.
        if let id = incoming.id.map(accountListID), let stored = lists[id] {
            var list = stored
            if let other = listIDsByName[key], other != id {
                throw ImportError(incoming.location, field: "name", SlateError.duplicateListName(incoming.name).description)
            }
            listIDsByName.removeValue(forKey: list.name.lowercased())
            list.name = incoming.name
            list.color = incoming.color ?? list.color
            list.icon = incoming.icon ?? list.icon
            list.order = incoming.order ?? list.order
            list.created = incoming.created ?? list.created
            lists[id] = list
            listIDsByName[key] = id
            listIDs[incoming.id!] = id
            if list != stored { context.update(list) }
        } else if let match = listIDsByName[key] {
            if let id = incoming.id { listIDs[id] = match }
        } else {
            let list = try createList(incoming, id: incoming.id)
            if let id = incoming.id { listIDs[id] = list.id }
        }
    }

    /// A list id of the file as the account knows it: the id itself when the account has
    /// that list, else the id it maps to (`ImportedID`), whatever other accounts hold.
    private func accountListID(_ fileID: UUID) -> UUID {
        lists[fileID] != nil || isOnlyAccount ? fileID : ImportedID.id(for: fileID, account: accountID)
    }

    private mutating func createList(_ incoming: IncomingList, id wanted: UUID?) throws -> TaskList {
        let id = wanted.map(accountListID) ?? UUID()
        let order = incoming.order ?? nextListOrder
        nextListOrder = max(nextListOrder, order + 1)
        let list = TaskList(id: id, accountID: accountID, name: incoming.name, color: incoming.color ?? TaskList.defaultColor,
                            icon: incoming.icon ?? TaskList.defaultIcon, order: order, created: incoming.created ?? now)
        lists[id] = list
        listIDsByName[incoming.name.lowercased()] = id
        context.insert(list)
        summary.listsCreated += 1
        return list
    }

    /// The id of the list a task names; a name that matches no list creates one (but
    /// "Inbox" is the tasks without a list, unless a list kept from before has that name).
    private mutating func listID(for task: IncomingTask) throws -> UUID? {
        let at = task.listLocation ?? task.location
        switch task.list {
        case nil:
            return nil
        case .id(let id):
            if inboxIDsInFile.contains(id) { return nil }
            if let mapped = listIDs[id] { return mapped }
            guard lists[id] != nil else {
                throw ImportError(at, field: task.listField, "\(task.listField) names no list in the file or the database: '\(id.uuidString.lowercased())'")
            }
            return id
        case .name(let name) where TaskRules.isInboxName(name), .project(let name) where TaskRules.isInboxName(name):
            // Another app's Inbox (Todoist's project, an export's list) is Slate's: no list.
            return listIDsByName[name.trimmingCharacters(in: .whitespaces).lowercased()]
        case .name(let name):
            let valid = try ImportRules.listName(name, at: at, field: task.listField)
            if let id = listIDsByName[valid.lowercased()] { return id }
            return try createList(IncomingList(location: at, name: valid), id: nil).id
        case .project(let word):
            if let id = listIDsByName[word.lowercased()] { return id }
            let name = try ImportRules.listName(word.replacingOccurrences(of: "_", with: " "), at: at, field: task.listField)
            if let id = listIDsByName[name.lowercased()] { return id }
            return try createList(IncomingList(location: at, name: name), id: nil).id
        }
    }

    // MARK: Tasks

    mutating func add(_ incoming: [IncomingTask]) throws {
        // Ids: once per file; one the account does not have is mapped (`ImportedID`) when
        // other accounts exist, so that what they hold makes no difference.
        var seen: [UUID: ImportError.Location] = [:]
        for task in incoming {
            guard let id = task.id else { continue }
            if let first = seen[id] {
                throw ImportError(task.location, field: task.idField, "\(task.idField) \(id.uuidString.lowercased()) appears twice in the file (also \(first)).")
            }
            seen[id] = task.location
        }
        let own = try tasks(withIDs: Array(seen.keys))
        var idMap: [UUID: UUID] = [:]
        for id in seen.keys { idMap[id] = own[id] != nil || isOnlyAccount ? id : ImportedID.id(for: id, account: accountID) }
        let ids = incoming.map { $0.id.flatMap { idMap[$0] } ?? UUID() }
        // Only an id the file gave can name a stored task: the ones looked up above, and the
        // ids they map to. A task without one (every line of a todo.txt) gets a new random
        // id, which no stored task has; looking each up cost a query per line.
        let mapped = Set(idMap.values).subtracting(seen.keys)
        let stored = own.merging(try tasks(withIDs: Array(mapped)), uniquingKeysWith: { first, _ in first })

        // Parents: in the file, or in the account; never an ancestor of the task itself.
        let fileIDs = Set(ids)
        var parents: [UUID: UUID] = [:]
        for (task, id) in zip(incoming, ids) { parents[id] = task.parentID.map { idMap[$0] ?? $0 } }
        let outside = Set(parents.values).subtracting(fileIDs)
        let storedParents = try tasks(withIDs: Array(outside))
        for (task, id) in zip(incoming, ids) {
            guard let parent = parents[id] else { continue }
            let at = task.parentLocation ?? task.location
            guard fileIDs.contains(parent) || storedParents[parent] != nil else {
                throw ImportError(at, field: task.parentField,
                                  "\(task.parentField) names no task in the file or the database: '\(task.parentID!.uuidString.lowercased())'")
            }
        }
        var tree = SubtaskTree(context: context, accountID: accountID, fileIDs: fileIDs, fileParents: parents)
        for (task, id) in zip(incoming, ids) {
            try ImportRules.check(task.parentLocation ?? task.location, field: task.parentField) {
                _ = try tree.level(of: id, field: task.parentField)
                if stored[id] != nil { try tree.checkStoredSubtasks(of: id, field: task.parentField) }
            }
        }

        // Numbers: a wanted number is kept when no other task has it.
        let wanted = incoming.enumerated().compactMap { index, task in stored[ids[index]] == nil ? task.number : nil }
        var taken = try numbersInUse(wanted)

        var nextOrder: [UUID?: Double] = [:]
        for (task, id) in zip(incoming, ids) {
            let existing = stored[id]
            let listID = try listID(for: task)
            var order = task.order ?? existing?.order
            if order == nil {
                if nextOrder[listID] == nil { nextOrder[listID] = try slate.highestOrder(in: listID, context: context) + 1 }
                order = nextOrder[listID]
                nextOrder[listID]! += 1
            }
            if let existing {
                if existing.parentID != parents[id] {
                    parentsMoved.formUnion([existing.parentID, parents[id]].compactMap { $0 })
                } else if existing.isCompleted != task.isCompleted, let parent = parents[id] {
                    parentsMoved.insert(parent)
                }
            } else if let parent = parents[id] {
                parentsMoved.insert(parent)
            }
            let completedAt = task.isCompleted ? task.completedAt ?? existing?.completedAt ?? now : task.completedAt
            var item = TaskItem(
                id: id, number: existing?.number ?? 0, accountID: accountID, title: task.title, notes: task.notes,
                isCompleted: task.isCompleted, completedAt: completedAt, created: task.created ?? existing?.created ?? now,
                modified: task.modified ?? now, priority: task.priority,
                isFlagged: task.isFlagged, listID: listID, parentID: parents[id], order: order ?? 1,
                tags: task.tags, recurrence: task.recurrence, alerts: task.alerts)
            // The formats read a day as its start in the import's calendar.
            slate.setDue(task.due.map { DueDate(date: $0, isAllDay: task.isAllDay) }, on: &item)
            if let existing {
                // The same day, read in another zone than it was set in, is the same date.
                if item.isAllDay, existing.isAllDay, item.dueDay == existing.dueDay { item.due = existing.due }
                if item.due == existing.due, item.recurrence?.isSameRule(as: existing.recurrence) == true {
                    item.recurrence = existing.recurrence    // and the day a short month cut it from
                }
                // A task the file holds as it is stored is left alone: importing the same file
                // again writes nothing (no new revision for sync clients to fetch, nothing to undo).
                var unchanged = item
                unchanged.modified = existing.modified
                if unchanged == existing { continue }
            }
            if existing == nil, let number = task.number, number > 0, taken.insert(number).inserted {
                var numbered = item
                numbered.number = number
                numberedInserts.append(numbered)
            } else {
                otherWrites.append((item, existing == nil))
            }
        }
    }

    /// Writes everything in one transaction, one undo step.
    mutating func save() throws -> ImportSummary {
        summary.tasksCreated = numberedInserts.count + otherWrites.filter(\.isNew).count
        summary.tasksUpdated = otherWrites.count - otherWrites.filter(\.isNew).count
        // A parent in the file is written by it; one outside it is touched, as on every surface.
        let written = Set(numberedInserts.map(\.id) + otherWrites.map(\.task.id))
        try slate.touchParents(parentsMoved, except: written, in: context)
        parentsMoved = []
        // Staged, then released: the context holds the encoded rows, the plan no copy.
        for task in numberedInserts { context.insert(task) }
        numberedInserts = []
        for (task, isNew) in otherWrites {
            if isNew { context.insert(task) } else { context.update(task) }
        }
        otherWrites = []
        let tasks = summary.tasksCreated + summary.tasksUpdated
        let label = tasks > 0 || summary.listsCreated == 0
            ? "Import \(tasks) \(tasks == 1 ? "task" : "tasks")"
            : "Import \(summary.listsCreated) \(summary.listsCreated == 1 ? "list" : "lists")"
        try slate.save(context, undoLabel: label)
        return summary
    }

    // MARK: Reading the database

    /// SQLite binds at most a few thousand values per statement.
    private static let chunkSize = 500

    /// The tasks with these ids in the account. One lookup each: the store cannot match
    /// `id` against a list in a predicate (the id column's key path is `\Model.id`, which
    /// `\TaskItem.id` does not equal).
    private func tasks(withIDs ids: [UUID]) throws -> [UUID: TaskItem] {
        var found: [UUID: TaskItem] = [:]
        for id in ids {
            if let task = try context.model(TaskItem.self, id: id), task.accountID == accountID { found[id] = task }
        }
        return found
    }

    /// Which of these numbers a task of the account has (numbers are unique per account).
    private func numbersInUse(_ numbers: [Int]) throws -> Set<Int> {
        var used: Set<Int> = []
        let accountID = self.accountID
        for start in stride(from: 0, to: numbers.count, by: Self.chunkSize) {
            let chunk = Array(numbers[start..<min(start + Self.chunkSize, numbers.count)])
            for task in try context.fetch(FetchDescriptor<TaskItem>().matching(\.accountID, is: accountID).matching(\.number, isIn: chunk)) {
                used.insert(task.number)
            }
        }
        return used
    }
}
