import Foundation
import SlateCore
import Testing

@testable import SlateServer

/// `SubtaskCountCache` keeps a count under its parent's revision: asked again at that
/// revision it counts nothing, at any other it counts again.
@Suite struct SubtaskCountCacheTests {
    final class Counter {
        var asked: [[UUID]] = []
        let counts: [UUID: SubtaskCount]
        init(_ counts: [UUID: SubtaskCount]) { self.counts = counts }
        func count(_ parents: [UUID]) -> [UUID: SubtaskCount] {
            asked.append(parents)
            return counts.filter { parents.contains($0.key) }
        }
    }

    let parent = UUID()
    let childless = UUID()

    @Test func aCountIsKeptUnderItsParentsRevisionAndCountedAgainAtAnother() {
        let cache = SubtaskCountCache()
        let counter = Counter([parent: SubtaskCount(active: 1, total: 2)])
        let page = [(id: parent, revision: 7), (id: childless, revision: 3)]
        let first = cache.counts(of: page, count: counter.count)
        #expect(first == [parent: SubtaskCount(active: 1, total: 2)])
        #expect(counter.asked == [[parent, childless]])

        // The same revisions: nothing counted, a parent without subtasks still absent.
        #expect(cache.counts(of: page, count: counter.count) == first)
        #expect(counter.asked.count == 1)

        // The parent moved (a subtask changed): counted again, alone.
        _ = cache.counts(of: [(parent, 8), (childless, 3)], count: counter.count)
        #expect(counter.asked.last == [parent])
    }

    @Test func whatWasCountedInsideAWriteIsCountedAgain() {
        let cache = SubtaskCountCache()
        let counter = Counter([parent: SubtaskCount(active: 0, total: 1)])
        _ = cache.counts(of: [(parent, 4)], keep: false, count: counter.count)
        _ = cache.counts(of: [(parent, 4)], count: counter.count)
        #expect(counter.asked.count == 2, "what was counted inside a write was not kept")
        _ = cache.counts(of: [(parent, 4)], count: counter.count)
        #expect(counter.asked.count == 2)
    }
}
