import Foundation
import SlateStore
import TestDatabases
import Testing

@Suite struct UndoTests {
    @Test func undoRestoresExactPriorValuesAndRedoReappliesThem() throws {
        let context = ModelContext(try makeContainer())
        var item = Item(title: "Storyboard", notes: "Andy's flashback", rank: 2, due: Date(timeIntervalSinceReferenceDate: 1.5))
        context.insert(item)
        try context.save(undoLabel: "Add “Storyboard”")
        let original = item
        item.title = "Storyboard v2"
        item.notes = nil
        item.due = nil
        context.update(item)
        try context.save(undoLabel: "Edit “Storyboard”")

        #expect(try context.undoLabel() == "Edit “Storyboard”")
        let undone = try #require(try context.undo())
        #expect(undone.label == "Edit “Storyboard”")
        #expect(undone.commit.origin == .undo)
        #expect(undone.commit.changes(of: Item.self).updated == [item.id])
        #expect(try context.model(Item.self, id: item.id) == original)

        #expect(try context.redoLabel() == "Edit “Storyboard”")
        try context.redo()
        #expect(try context.model(Item.self, id: item.id) == item)

        try context.undo()
        try context.undo()
        #expect(try context.model(Item.self, id: item.id) == nil)
        #expect(try context.canUndo() == false)
        #expect(try context.undo() == nil)
        try context.redo()
        #expect(try context.model(Item.self, id: item.id) == original)
    }

    @Test func undoingADeleteBringsBackTheCascadeAndTheNullifiedReferences() throws {
        let context = ModelContext(try makeContainer())
        let owner = Owner(name: "Pixar")
        let project = Project(name: "Toy Story 5", ownerID: owner.id)
        let parent = Item(title: "Parent", projectID: project.id)
        let child = Item(title: "Child", parentID: parent.id)
        context.insert(owner)
        context.insert(project)
        context.insert(parent)
        context.insert(child)
        try context.save()
        let before = try context.fetch(FetchDescriptor<Item>())

        context.delete(owner)
        context.delete(parent)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 0)

        try context.undo()
        #expect(try context.fetch(FetchDescriptor<Owner>()) == [owner])
        #expect(try context.fetch(FetchDescriptor<Project>()) == [project])
        #expect(try context.fetch(FetchDescriptor<Item>()) == before, "same values, same order")
        #expect(try context.changes(of: Item.self, since: 0).deleted.isEmpty, "tombstones cleared")
    }

    @Test func undoRefusesWhenAnUnrecordedWriteChangedTheRowSince() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        var item = Item(title: "Mine")
        context.insert(item)
        try context.save()
        item.title = "Mine, edited"
        context.update(item)
        try context.save()

        let other = ModelContext(container, undo: false)
        var theirs = item
        theirs.title = "Theirs"
        other.update(theirs)
        try other.save()

        #expect(throws: StoreError.self) { try context.undo() }
        #expect(try context.model(Item.self, id: item.id)?.title == "Theirs", "nothing overwritten")
        #expect(try context.canUndo(), "the entry stays for a later attempt")
    }

    @Test func aNewSaveClearsTheRedoStackAndTheLimitKeepsTheNewest() throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration(undoLimit: 2))
        let context = ModelContext(container)
        for title in ["a", "b", "c"] {
            context.insert(Item(title: title))
            try context.save(undoLabel: title)
        }
        try context.undo()
        #expect(try context.canRedo())
        context.insert(Item(title: "d"))
        try context.save(undoLabel: "d")
        #expect(try context.canRedo() == false)
        #expect(try context.undo()?.label == "d")
        #expect(try context.undo()?.label == "b")
        #expect(try context.undo() == nil, "older entries fell off the limit")
        #expect(try context.fetch(FetchDescriptor<Item>()).map(\.title) == ["a"])
    }

    @Test func aLowerLimitTrimsAHistoryThatIsLongerThanItByMoreThanOne() throws {
        let folder = try TemporaryDirectory()
        var configuration = TestDatabase.shared(path: folder.path("trim.sqlite"))
        configuration.undoLimit = 5
        do {
            let context = ModelContext(try ModelContainer(for: allModels, configuration: configuration))
            for title in ["a", "b", "c", "d", "e"] {
                context.insert(Item(title: title))
                try context.save(undoLabel: title)
            }
        }
        configuration.undoLimit = 2
        let context = ModelContext(try ModelContainer(for: allModels, configuration: configuration))
        context.insert(Item(title: "f"))
        try context.save(undoLabel: "f")
        #expect(try context.undo()?.label == "f")
        #expect(try context.undo()?.label == "e")
        #expect(try context.undo() == nil, "the four older entries went with the one save")
    }

    @Test func theUndoHistoryIsKeptInTheFileAcrossProcesses() throws {
        let folder = try TemporaryDirectory()
        let configuration = TestDatabase.shared(path: folder.path("undo.sqlite"))
        let item = Item(title: "Persisted")
        do {
            let context = ModelContext(try ModelContainer(for: allModels, configuration: configuration))
            context.insert(item)
            try context.save(undoLabel: "Add")
        }
        let context = ModelContext(try ModelContainer(for: allModels, configuration: configuration))
        #expect(try context.undo()?.label == "Add")
        #expect(try context.model(Item.self, id: item.id) == nil)
    }
}
