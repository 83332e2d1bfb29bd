import Foundation
import SlateStore
import Testing

@Suite struct DeleteRuleTests {
    @Test func cascadeRunsThroughTwoLevelsAndNullifyKeepsTheGrandchildren() throws {
        let context = ModelContext(try makeContainer())
        let owner = Owner(name: "Pixar")
        let project = Project(name: "Toy Story 5", ownerID: owner.id)
        let item = Item(title: "Write Act 2 outline", projectID: project.id)
        context.insert(owner)
        context.insert(project)
        context.insert(item)
        try context.save()

        context.delete(owner)
        let commit = try #require(try context.save())

        #expect(try context.fetch(FetchDescriptor<Owner>()).isEmpty)
        #expect(try context.fetch(FetchDescriptor<Project>()).isEmpty)
        let kept = try #require(try context.model(Item.self, id: item.id))
        #expect(kept.projectID == nil)
        #expect(commit.changes(of: Owner.self).deleted == [owner.id])
        #expect(commit.changes(of: Project.self).deleted == [project.id])
        #expect(commit.changes(of: Item.self).updated == [item.id])
    }

    @Test func cascadeOnASelfReferenceDeletesSubtasksRecursively() throws {
        let context = ModelContext(try makeContainer())
        let parent = Item(title: "Parent")
        let child = Item(title: "Child", parentID: parent.id)
        let grandchild = Item(title: "Grandchild", parentID: child.id)
        let other = Item(title: "Unrelated")
        [parent, child, grandchild, other].forEach(context.insert)
        try context.save()

        context.delete(parent)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Item>()).map(\.title) == ["Unrelated"])
    }

    @Test func denyRefusesTheDeleteAndWritesNothing() throws {
        let context = ModelContext(try makeContainer())
        let owner = Owner(name: "Pixar")
        let project = Project(name: "Cars 4", ownerID: owner.id)
        let badge = Badge(label: "Founder", ownerID: owner.id)
        context.insert(owner)
        context.insert(project)
        context.insert(badge)
        try context.save()
        let revision = try context.container.currentRevision()

        context.delete(owner)
        let error = #expect(throws: StoreError.self) { try context.save() }
        guard case .deleteDenied(let model, let id, let dependents, let count) = error else {
            Issue.record("expected deleteDenied, got \(String(describing: error))")
            return
        }
        #expect(model == "Owner" && id == owner.id && dependents == "Badge rows" && count == 1)
        #expect(error?.description.contains("delete rule .deny") == true)
        // The cascade to the project that ran before the refusal was rolled back.
        #expect(try context.fetch(FetchDescriptor<Project>()).count == 1)
        #expect(try context.container.currentRevision() == revision)
        #expect(context.hasChanges)

        context.rollback()
        context.delete(badge)
        context.delete(owner)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Owner>()).isEmpty)
    }

    @Test func deleteMatchingAPredicateIsOneBatch() throws {
        let context = ModelContext(try makeContainer())
        let items = (0..<10).map { Item(title: "Task \($0)", isDone: $0 % 3 == 0) }
        items.forEach(context.insert)
        try context.save()

        try context.delete(model: Item.self, where: #Predicate { $0.isDone })
        let commit = try #require(try context.save())
        #expect(commit.changes(of: Item.self).deleted == Set(items.filter(\.isDone).map(\.id)))
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 6)
    }

    @Test func deletingAMissingRowIsNotFound() throws {
        let context = ModelContext(try makeContainer())
        let id = UUID()
        context.delete(Item.self, id: id)
        #expect(throws: StoreError.notFound(model: "Item", id: id)) { try context.save() }
    }
}

@Suite struct DeepCascadeTests {
    /// A chain far deeper than any stack allows for recursion (issue: 4,000 levels crashed
    /// a debug build). The cascade walks a work list, so the depth of the data does not
    /// reach the call stack; undo puts every row back.
    @Test func deletingTheRootOfAVeryDeepChainDeletesItAllAndUndoRestoresIt() throws {
        let context = ModelContext(try makeContainer())
        var parentID: UUID? = nil
        var ids: [UUID] = []
        for level in 0..<5_000 {
            let item = Item(title: "Level \(level)", parentID: parentID)
            context.insert(item)
            ids.append(item.id)
            parentID = item.id
        }
        context.insert(Item(title: "Unrelated"))
        try context.save(undoLabel: "Build the chain")

        context.delete(try #require(try context.model(Item.self, id: ids[0])))
        let commit = try #require(try context.save(undoLabel: "Delete the chain"))
        #expect(commit.changes(of: Item.self).deleted.count == 5_000)
        #expect(try context.fetch(FetchDescriptor<Item>()).map(\.title) == ["Unrelated"])

        #expect(try context.undo()?.label == "Delete the chain")
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 5_001)
        #expect(try context.model(Item.self, id: ids[4_999])?.parentID == ids[4_998])
    }
}
