// slate-bench-seed: makes the same task board for Slate and for Taskwarrior.
//
//   slate-bench-seed --count 10000 --slate DB.sqlite [--taskwarrior tasks.json] [--meta meta.json] [--seed 1]
//                    [--accounts N]
//
// Slate's database is written through SlateCore and SlateStore (one `ModelContext` save
// of every list and task, undo off, as a bulk import does); Taskwarrior gets the same
// tasks as JSON for `task import`. `meta.json` tells bench/cli/run what to benchmark:
// the search word, how many tasks it matches, and which task `done` completes.
//
// `--accounts N` gives the Slate database N accounts of `--count` tasks each, as a server
// holds them: the local account (the one `slate` opens) has exactly the board of one
// account with this seed, every other account a board of its own (seed + its number).
// Their tasks are written interleaved, one from each account in turn, so that no
// account's rows sit together in the file as a bulk import of one account would leave them.
import Foundation
import SlateCore
import SlateStore

struct Options {
    var count = 10_000
    var slatePath: String?
    var taskwarriorPath: String?
    var metaPath: String?
    var seed: UInt64 = 1
    var accounts = 1

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let value = iterator.next() ?? ""
            switch argument {
            case "--count": count = Int(value) ?? count
            case "--slate": slatePath = value
            case "--taskwarrior": taskwarriorPath = value
            case "--meta": metaPath = value
            case "--seed": seed = UInt64(value) ?? seed
            case "--accounts": accounts = max(1, Int(value) ?? accounts)
            default:
                FileHandle.standardError.write(Data("slate-bench-seed: unknown option \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

/// SplitMix64: the same board on every machine for the same seed.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func uuid() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { bytes[i] = UInt8(truncatingIfNeeded: next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

// The vocabulary of a film production office and a household: ~60 verbs, ~60
// adjectives, ~230 nouns. Titles are "Verb [adjective] noun [connector [the] [adjective] noun]".
let verbs = """
    Review Draft Fix Update Schedule Call Email Send Book Order Prepare Finish Check Approve Render Record Mix Edit
    Sketch Rig Light Animate Cut Export Upload Clean Buy Pay Renew Plan Organise Sort Archive Print Sign Return
    Pick-up Drop-off Write Read Test Deploy Backup Measure Replace Repair Install Paint Move Cancel Confirm Invite
    Thank Discuss Present Pitch Polish Rewrite Outline Research Compare Collect File
    """.split(whereSeparator: \.isWhitespace).map(String.init)
let adjectives = """
    new final rough second first revised missing broken urgent quarterly weekly monthly annual early late long short
    wide close extra spare main blue red green yellow small large quiet loud night morning evening opening closing
    alternate temporary backup shared local remote upstairs downstairs front back kitchen garden office studio
    digital printed signed unsigned overdue pending approved rejected draft clean dirty dusty
    """.split(whereSeparator: \.isWhitespace).map(String.init)
let nouns = """
    script scene shot sequence storyboard animatic layout rig model texture shader lighting render comp edit cut
    score cue mix dialogue foley trailer poster teaser pitch deck budget invoice contract schedule calendar meeting
    agenda minutes notes report review feedback memo brief proposal quote receipt ticket booking flight hotel taxi
    train visa passport license insurance policy claim tax return refund payment transfer account statement bill
    rent mortgage loan lease deposit cheque parcel package letter envelope stamp printer toner cartridge laptop
    monitor keyboard mouse cable charger battery phone headset microphone camera lens tripod drive server backup
    password router modem firewall license update patch release build branch merge test bug crash log dashboard
    chart spreadsheet slide photo album frame lamp bulb fuse socket switch heater boiler radiator window door lock
    key fence gate roof gutter drain sink tap shower toilet tile floor carpet sofa chair table desk shelf cupboard
    drawer wardrobe mattress pillow blanket towel curtain blind plant seed tomato lettuce herb compost lawn hedge
    tree bike tyre helmet car garage oil filter wiper brake mechanic dentist doctor vet pharmacy prescription
    vaccine appointment haircut gym yoga swim recital concert birthday anniversary wedding gift card cake party
    dinner lunch breakfast grocery milk bread coffee tea rice pasta cheese fruit vegetable soup recipe oven fridge
    freezer dishwasher washer dryer laundry ironing vacuum mop bucket bin recycling newspaper magazine library book
    """.split(whereSeparator: \.isWhitespace).map(String.init)
let connectors = ["for", "with", "before", "after", "about", "from", "to", "in", "on"]
let projects = ["Story", "Animation", "Lighting", "Sound", "Editorial", "Marketing", "Finance", "Home", "Garden", "Errands", "Health", "Travel"]
let tagWords = ["call", "email", "waiting", "someday", "quick", "errand", "phone", "computer"]
/// The word `slate list --search` and `task list` look for: a noun, always lower case,
/// not the start or part of any other word of the vocabulary.
let searchWord = "storyboard"

struct Seed {
    var id: UUID
    var title: String
    var project: String?
    var priority: Priority
    var created: Date
    var due: Date?
    var isAllDay: Bool
    var completedAt: Date?
    var tags: [String]
}

func makeTitle(_ random: inout Random) -> String {
    var words = [random.pick(verbs)]
    if random.chance(0.35) { words.append(random.pick(adjectives)) }
    words.append(random.pick(nouns))
    if random.chance(0.6) {
        words.append(random.pick(connectors))
        if random.chance(0.5) { words.append("the") }
        if random.chance(0.3) { words.append(random.pick(adjectives)) }
        words.append(random.pick(nouns))
    }
    return words.joined(separator: " ")
}

func makeSeeds(count: Int, seed: UInt64, now: Date, calendar: Calendar) -> [Seed] {
    var random = Random(state: seed)
    let startOfToday = calendar.startOfDay(for: now)
    let twoYears: TimeInterval = 730 * 86_400
    return (0..<count).map { index in
        // Created in order over the last two years, so numbers follow creation.
        let created = Timestamp.truncatedToMilliseconds(
            now.addingTimeInterval(-twoYears + twoYears * Double(index) / Double(count) - 3600))
        let priorityRoll = random.below(100)
        let priority: Priority = priorityRoll < 55 ? .none : priorityRoll < 75 ? .low : priorityRoll < 90 ? .medium : .high
        var due: Date?
        var isAllDay = false
        if random.chance(0.3) {
            let day = calendar.date(byAdding: .day, value: random.below(150) - 45, to: startOfToday)!
            isAllDay = random.chance(0.5)
            due = isAllDay ? day : day.addingTimeInterval(Double(9 + random.below(10)) * 3600)
        }
        var completedAt: Date?
        if random.chance(0.3) {
            let span = now.timeIntervalSince(created)
            completedAt = Timestamp.truncatedToMilliseconds(created.addingTimeInterval(span * Double(random.below(1000)) / 1000))
        }
        let project: String? = random.chance(0.15) ? nil : random.pick(projects)
        let tags = random.chance(0.2) ? [random.pick(tagWords)] : []
        return Seed(id: random.uuid(), title: makeTitle(&random), project: project, priority: priority,
                    created: created, due: due, isAllDay: isAllDay, completedAt: completedAt, tags: tags)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("slate-bench-seed: \(message)\n".utf8))
    exit(1)
}

// MARK: Taskwarrior

func taskwarriorDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
}

func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func taskwarriorJSON(_ seeds: [Seed]) -> String {
    var lines: [String] = []
    lines.reserveCapacity(seeds.count)
    for seed in seeds {
        var fields = [
            "\"uuid\":\"\(seed.id.uuidString.lowercased())\"",
            "\"description\":\(jsonString(seed.title))",
            "\"entry\":\"\(taskwarriorDate(seed.created))\"",
            "\"modified\":\"\(taskwarriorDate(seed.completedAt ?? seed.created))\"",
            "\"status\":\"\(seed.completedAt == nil ? "pending" : "completed")\"",
        ]
        if let completedAt = seed.completedAt { fields.append("\"end\":\"\(taskwarriorDate(completedAt))\"") }
        if let project = seed.project { fields.append("\"project\":\(jsonString(project))") }
        switch seed.priority {
        case .low: fields.append("\"priority\":\"L\"")
        case .medium: fields.append("\"priority\":\"M\"")
        case .high, .critical: fields.append("\"priority\":\"H\"")
        case .none: break
        }
        if let due = seed.due { fields.append("\"due\":\"\(taskwarriorDate(due))\"") }
        if !seed.tags.isEmpty { fields.append("\"tags\":[\(seed.tags.map(jsonString).joined(separator: ","))]") }
        lines.append("{" + fields.joined(separator: ",") + "}")
    }
    return lines.joined(separator: "\n") + "\n"
}

// MARK: Profile

/// `--profile DB`: the phases of `slate list` (default view) and `slate list --search`,
/// timed in one process, each the median of `--rounds` runs (a fresh open each round,
/// as every `slate` process does).
func profile(path: String, rounds: Int) throws {
    var timings: [String: [Double]] = [:]
    func time<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings[name, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
        return try body()
    }
    var order: [String] = []
    func round() throws {
        do {
            let container = try time("open container (schema check, migrate)") { try Slate.openContainer(path: path) }
            let account = try time("ensure account") { try Slate.ensureAccount(named: Account.localName, in: container, now: Date()) }
            let slate = Slate(container: container, accountID: account.id)
            let query = TaskQuery(status: .active, limit: 100)
            let tasks = try time("list: 100 tasks") { try slate.tasks(query) }
            _ = try time("list: count matches") { try slate.count(query) }
            _ = try time("list: lists (names and colours)") { try slate.listsWithoutCounts() }
            _ = try time("list: count completed") { try slate.count(TaskQuery(status: .completed)) }
            let search = TaskQuery(status: .active, search: searchWord, limit: 100)
            _ = try time("search: tasks") { try slate.tasks(search) }
            _ = try time("search: count") { try slate.count(search) }
            precondition(!tasks.isEmpty)
        }
    }
    for _ in 0..<rounds {
        // The whole round includes closing (the container's deinit), which folds the WAL back into the file.
        try time("whole round, close included") { try round() }
        order = timings.keys.sorted()
    }
    for name in order {
        let values = timings[name]!.sorted()
        print(String(format: "%8.2f ms  %@", values[values.count / 2], name))
    }
}

// MARK: Main

if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "--profile" {
    let rounds = CommandLine.arguments.count >= 5 ? Int(CommandLine.arguments[4]) ?? 5 : 5
    do { try profile(path: CommandLine.arguments[2], rounds: rounds) } catch { fail("\(error)") }
    exit(0)
}
let options = Options(Array(CommandLine.arguments.dropFirst()))
guard options.slatePath != nil || options.taskwarriorPath != nil else {
    fail("say where to write: --slate DB.sqlite and/or --taskwarrior tasks.json")
}
for word in verbs + adjectives + nouns where word != searchWord && word.lowercased().contains(searchWord) {
    fail("the search word \(searchWord) is part of \(word)")
}

let calendar = Calendar.current
let now = Timestamp.truncatedToMilliseconds(Date())
let started = Date()
let seeds = makeSeeds(count: options.count, seed: options.seed, now: now, calendar: calendar)

// The task `done` completes: the active, undated, unflagged task nearest the middle.
guard let doneIndex = (seeds.indices.filter { seeds[$0].completedAt == nil && seeds[$0].due == nil }
    .min { abs($0 - seeds.count / 2) < abs($1 - seeds.count / 2) })
else { fail("no active task to complete") }
let isMatch: (Seed) -> Bool = { $0.title.split(separator: " ").contains { $0.lowercased().hasPrefix(searchWord) } }
var meta: [String: Any] = [
    "count": seeds.count,
    "active": seeds.filter { $0.completedAt == nil }.count,
    "completed": seeds.filter { $0.completedAt != nil }.count,
    "searchWord": searchWord,
    "searchMatchesActive": seeds.filter { $0.completedAt == nil && isMatch($0) }.count,
    "doneUUID": seeds[doneIndex].id.uuidString.lowercased(),
    "doneTitle": seeds[doneIndex].title,
]

if let path = options.taskwarriorPath {
    do {
        try taskwarriorJSON(seeds).write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(path): \(error)")
    }
}

if let path = options.slatePath {
    if FileManager.default.fileExists(atPath: path) { fail("\(path) exists; seed a new file") }
    do {
        let slate = try Slate.open(path: path, calendar: calendar, clock: { now })
        // One board per account: the local account's is `seeds`.
        var boards = [(slate: slate, seeds: seeds)]
        for number in stride(from: 2, through: options.accounts, by: 1) {
            let account = try Slate.ensureAccount(named: "bench-\(number)", in: slate.container, now: now)
            boards.append((Slate(container: slate.container, accountID: account.id, calendar: calendar, clock: { now }),
                           makeSeeds(count: options.count, seed: options.seed + UInt64(number - 1), now: now, calendar: calendar)))
        }
        var listIDs: [[String: UUID]] = []
        for board in boards {
            var ids: [String: UUID] = [:]
            for project in projects { ids[project] = try board.slate.createList(name: project).id }
            listIDs.append(ids)
        }
        var orders: [[UUID?: Double]] = Array(repeating: [:], count: boards.count)
        var context = ModelContext(slate.container, undo: false)
        var staged = 0
        // Task i of every account, then task i + 1 of every account, …; a save per 100,000.
        for index in 0..<options.count {
            for (number, board) in boards.enumerated() {
                let seed = board.seeds[index]
                let listID = seed.project.flatMap { listIDs[number][$0] }
                let order = (orders[number][listID] ?? 0) + 1
                orders[number][listID] = order
                context.insert(TaskItem(
                    id: seed.id, accountID: board.slate.accountID, title: seed.title, isCompleted: seed.completedAt != nil,
                    completedAt: seed.completedAt, created: seed.created, modified: seed.completedAt ?? seed.created,
                    due: seed.due, isAllDay: seed.isAllDay, priority: seed.priority, listID: listID, order: order, tags: seed.tags))
                staged += 1
                if staged == 100_000 {
                    try context.save()
                    context = ModelContext(slate.container, undo: false)
                    staged = 0
                }
            }
        }
        try context.save()
        meta["accounts"] = boards.count
        meta["tasksInFile"] = boards.count * options.count
        let done = try slate.task(id: seeds[doneIndex].id).model
        meta["doneSlateNumber"] = done.number
        meta["slateActive"] = try slate.count(TaskQuery(status: .active))
        meta["slateSearchMatchesActive"] = try slate.count(TaskQuery(status: .active, search: searchWord))
    } catch {
        fail("cannot seed \(path): \(error)")
    }
}
meta["seedSeconds"] = Date().timeIntervalSince(started)

if let path = options.metaPath {
    let data = try! JSONSerialization.data(withJSONObject: meta, options: [.prettyPrinted, .sortedKeys])
    _ = FileManager.default.createFile(atPath: path, contents: data)
} else {
    print(meta)
}
