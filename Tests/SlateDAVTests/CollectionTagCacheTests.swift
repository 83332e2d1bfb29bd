import Foundation
@testable import SlateCore
import Testing

@testable import SlateDAV

/// `CollectionTagCache` answers only at the account revision it was given, for the account
/// and collection it was given.
@Suite struct CollectionTagCacheTests {
    let account = UUID()
    let tags = [CalendarObjectTag(name: "b.ics", revision: 4), CalendarObjectTag(name: "a.ics", revision: 9)]

    @Test func aListingIsKeptInItsOrderAtItsRevisionOnly() {
        let cache = CollectionTagCache()
        cache.remember(tags, of: .inbox, account: account, at: 12)
        #expect(cache.listedTags(of: .inbox, account: account, at: 12) == tags, "the listing's own order")
        #expect(cache.tags(of: .inbox, account: account, at: 12) == ["b.ics": 4, "a.ics": 9])
        #expect(cache.listedTags(of: .inbox, account: account, at: 13) == nil, "the account changed since")
        #expect(cache.tags(of: .inbox, account: account, at: 11) == nil)
        #expect(cache.listedTags(of: .inbox, account: UUID(), at: 12) == nil, "another account")
        #expect(cache.listedTags(of: .list(UUID()), account: account, at: 12) == nil, "another collection")
    }

    @Test func aCollectionLookedUpIsKeptAtItsRevisionAndSoIsNotFindingOne() {
        let cache = CollectionTagCache()
        let info = CalendarCollectionInfo(id: .list(UUID()), name: "errands", displayName: "Errands", color: "#FF9500", order: 1)
        #expect(cache.collection(named: "errands", account: account, at: 3) == nil, "never looked up")
        cache.remember(info, named: "errands", account: account, at: 3)
        cache.remember(nil, named: "gone", account: account, at: 3)
        #expect(cache.collection(named: "errands", account: account, at: 3) == .some(info))
        #expect(cache.collection(named: "gone", account: account, at: 3) == .some(nil), "looked up, and nothing is there")
        #expect(cache.collection(named: "errands", account: account, at: 4) == nil, "a list or a collection changed since")
        #expect(cache.collection(named: "errands", account: UUID(), at: 3) == nil, "another account")
    }
}
