import Foundation
import SlateStore

/// Where the Web Push channel reads its key and devices, so that the server reaches them
/// through SlateCore rather than the store.
extension VAPIDKey {
    /// The server's one VAPID key; on the first call `make` creates it and it is stored.
    ///
    /// Two first calls may race (the scheduler starting, a page asking for the key, two
    /// nodes starting at once): the one whose insert loses reads the winner's key, so
    /// everyone signs with the same one.
    public static func stored(in store: BoardStore, making make: () throws -> VAPIDKey) throws -> VAPIDKey {
        let context = ModelContext(store, undo: false)
        if let key = try context.model(VAPIDKey.self, id: VAPIDKey.rowID) { return key }
        let key = try make()
        context.insert(key)
        do {
            _ = try context.save()
        } catch {
            if let winner = try ModelContext(store, undo: false).model(VAPIDKey.self, id: VAPIDKey.rowID) { return winner }
            throw error
        }
        return key
    }
}

extension PushSubscription {
    /// The push device `id` of any account, or nil when it was removed.
    public static func stored(id: UUID, in store: BoardStore) throws -> PushSubscription? {
        try ModelContext(store, undo: false).model(PushSubscription.self, id: id)
    }
}
