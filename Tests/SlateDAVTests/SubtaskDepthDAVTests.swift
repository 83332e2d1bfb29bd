import Foundation
import SlateCore
import Testing

/// CalDAV keeps to the same subtask rules as every other surface: at most
/// `TaskRules.maximumSubtaskDepth` levels, and no parent cycle.
@Suite struct SubtaskDepthDAVTests {
    /// Stores `count` VTODOs, each RELATED-TO the one before ("level-1" has no parent).
    private func chain(_ dav: DAVHarness, _ count: Int) async throws {
        for level in 1...count {
            let extra = level == 1 ? [] : ["RELATED-TO;RELTYPE=PARENT:level-\(level - 1)"]
            let reply = try await dav.put("level-\(level).ics", DAVHarness.todo(uid: "level-\(level)", summary: "Level \(level)", extra: extra))
            #expect(reply.status == 201, "level \(level)")
        }
    }

    @Test func aSubtaskBelowTheDeepestLevelIsRefused() async throws {
        let dav = try DAVHarness()
        try await chain(dav, TaskRules.maximumSubtaskDepth)
        let deeper = try await dav.put("level-17.ics", DAVHarness.todo(uid: "level-17", summary: "Level 17",
                                                                        extra: ["RELATED-TO;RELTYPE=PARENT:level-16"]))
        #expect(deeper.status == 403)
        #expect(try dav.slate().count() == TaskRules.maximumSubtaskDepth, "nothing stored")
    }

    @Test func aParentCycleIsRefused() async throws {
        let dav = try DAVHarness()
        try await chain(dav, 3)
        // Level 1 made a subtask of its own grandchild.
        let cycle = try await dav.put("level-1.ics", DAVHarness.todo(uid: "level-1", summary: "Level 1",
                                                                      extra: ["RELATED-TO;RELTYPE=PARENT:level-3"]))
        #expect(cycle.status == 403)
        let first = try #require(try dav.slate().tasks().first { $0.title == "Level 1" })
        #expect(first.parentID == nil)
    }

    @Test func aWaitingChildThatWouldGoTooDeepStaysTopLevel() async throws {
        let dav = try DAVHarness()
        // A child with two levels of its own arrives before its parent.
        try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Child", extra: ["RELATED-TO;RELTYPE=PARENT:late"]))
        try await dav.put("g.ics", DAVHarness.todo(uid: "g", summary: "Grandchild", extra: ["RELATED-TO;RELTYPE=PARENT:c"]))
        try await chain(dav, 15)
        // The parent lands at level 16: the child (with its own subtask) cannot go under it.
        let parent = try await dav.put("late.ics", DAVHarness.todo(uid: "late", summary: "Late parent",
                                                                    extra: ["RELATED-TO;RELTYPE=PARENT:level-15"]))
        #expect(parent.status == 201)
        let child = try #require(try dav.slate().tasks().first { $0.title == "Child" })
        #expect(child.parentID == nil)
    }
}
