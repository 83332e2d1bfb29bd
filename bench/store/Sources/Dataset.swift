import Foundation

/// The rows both sides write: generated once, deterministically, so SlateStore and the
/// raw loop start from the very same Swift values and must end with equal ones.
///
/// Shape, for `taskCount` tasks in `listCount` lists (defaults 100,000 and 50):
/// - task `i` belongs to list `i % listCount`; within a list every other task is open,
///   so each list has `taskCount / listCount / 2` open tasks (1,000 by default);
/// - task titles cycle through 100 nouns, so a one-word search for a noun matches
///   `taskCount / 100` tasks (1,000 by default);
/// - 60% of tasks have notes of 6–20 filler words, half have a due date, 10% are flagged.
struct Dataset {
    let lists: [TaskList]
    let tasks: [TaskItem]
    /// The word the text-search line looks for; it is in exactly `searchHits` titles.
    let searchWord: String
    let searchHits: Int

    init(taskCount: Int, listCount: Int, seed: UInt64 = 0x51A7E) {
        var random = SplitMix64(seed: seed)
        let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
        lists = (0..<listCount).map { index in
            TaskList(
                id: random.nextUUID(), name: "List \(index + 1)",
                colour: String(format: "#%06X", random.next() & 0xFF_FFFF), icon: Self.icons[index % Self.icons.count],
                sortOrder: index, created: base.addingTimeInterval(Double(index) * 60))
        }
        var tasks: [TaskItem] = []
        tasks.reserveCapacity(taskCount)
        for index in 0..<taskCount {
            let position = index / listCount
            let created = base.addingTimeInterval(86_400 + Double(index) * 37)
            let isCompleted = position % 2 == 1
            let verb = Self.verbs[Int(random.next() % UInt64(Self.verbs.count))]
            let noun = Self.nouns[index % Self.nouns.count]
            tasks.append(
                TaskItem(
                    id: random.nextUUID(), number: index + 1, title: "\(verb) \(noun) \(position)",
                    notes: random.next() % 10 < 6 ? Self.notes(&random) : nil,
                    isCompleted: isCompleted,
                    completedAt: isCompleted ? created.addingTimeInterval(Double(random.next() % 864_000)) : nil,
                    created: created, modified: created.addingTimeInterval(Double(random.next() % 86_400)),
                    due: random.next() % 2 == 0 ? created.addingTimeInterval(Double(random.next() % 2_592_000)) : nil,
                    priority: TaskItem.Priority(rawValue: Int(random.next() % 5))!,
                    isFlagged: random.next() % 10 == 0, sortOrder: position,
                    listID: lists[index % listCount].id))
        }
        self.tasks = tasks
        searchWord = Self.nouns[7]
        searchHits = tasks.indices.filter { $0 % Self.nouns.count == 7 }.count
    }

    private static func notes(_ random: inout SplitMix64) -> String {
        let count = 6 + Int(random.next() % 15)
        return (0..<count).map { _ in fillers[Int(random.next() % UInt64(fillers.count))] }.joined(separator: " ")
    }

    static let icons = ["list.bullet", "cart", "film", "house", "hammer", "book", "star", "flag"]
    static let verbs = [
        "Review", "Write", "Call", "Email", "Fix", "Plan", "Book", "Buy", "Check", "Send", "Prepare", "Update",
        "Clean", "Order", "Print", "Schedule", "Draft", "Test", "Pack", "Return",
    ]
    /// No noun is a prefix of another word in the data, so a prefix search for one
    /// matches exactly the titles that contain it.
    static let nouns = [
        "agenda", "anchor", "apron", "archive", "atlas", "badge", "ballot", "budget", "cabinet", "camera",
        "canvas", "carpet", "cellar", "chapter", "cheque", "cinema", "clutch", "cobalt", "compass", "contract",
        "costume", "cradle", "crane", "curtain", "dentist", "diary", "dolly", "drone", "easel", "engine",
        "estimate", "fabric", "faucet", "fender", "ferry", "filter", "forklift", "furnace", "gadget", "garage",
        "gasket", "gazebo", "glacier", "gravel", "grocery", "hammock", "harbour", "helmet", "hinge", "invoice",
        "jacket", "kettle", "ladder", "lantern", "ledger", "lens", "locker", "lumber", "magnet", "mantel",
        "marquee", "mattress", "meadow", "microphone", "mirror", "monitor", "mortgage", "napkin", "nozzle", "orchard",
        "paddle", "pantry", "passport", "pavilion", "pebble", "pergola", "piano", "pillow", "plumber", "podium",
        "postcard", "pulley", "quilt", "radiator", "receipt", "rehearsal", "ribbon", "saddle", "scaffold", "script",
        "shutter", "skylight", "spotlight", "stapler", "tripod", "trolley", "tuxedo", "umbrella", "voucher", "wardrobe",
    ]
    static let fillers = [
        "call", "after", "lunch", "with", "the", "crew", "bring", "spare", "cables", "ask", "about", "colour",
        "grading", "then", "confirm", "times", "and", "notes", "from", "last", "week", "keep", "copies", "for",
        "everyone", "remember", "parking", "permit", "north", "gate", "key", "code", "is", "on", "whiteboard",
    ]
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), so the data
/// is the same on every run and every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A version-4 UUID drawn from the generator.
    mutating func nextUUID() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = next()
            for offset in 0..<8 { bytes[half * 8 + offset] = UInt8(truncatingIfNeeded: word >> (offset * 8)) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
