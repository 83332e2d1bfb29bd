import Foundation
@testable import SlateServer
import Synchronization
import Testing

/// `slate serve` hands freed memory back after bulk work, and only then.
@Suite struct MemoryKeeperTests {
    /// A process whose resident size the test sets; a release brings it down to what is in use.
    final class FakeProcess: Sendable {
        let state = Mutex((resident: 100, inUse: 100, releases: 0))
        func grow(by bytes: Int, keeping kept: Int) { state.withLock { $0.resident += bytes; $0.inUse += kept } }
        var resident: Int { state.withLock { $0.resident } }
        func release() { state.withLock { $0.resident = $0.inUse; $0.releases += 1 } }
    }

    @Test func freedMemoryGoesBackOnlyAfterTheProcessGrewByMoreThanTheThreshold() {
        let process = FakeProcess()
        let keeper = MemoryKeeper(growth: 50, residentBytes: { process.resident }, release: { process.release() })
        process.grow(by: 40, keeping: 0)
        #expect(keeper.check() == false, "40 above the start: below the threshold")
        process.grow(by: 200, keeping: 30)  // an import: 200 more, of which 30 stay in use
        #expect(keeper.check() == true)
        #expect(process.resident == 130, "what the import freed went back; what is in use stayed")
        #expect(keeper.check() == false, "nothing grew since")
        process.grow(by: 45, keeping: 45)
        #expect(keeper.check() == false, "45 more in use: below the threshold from the new baseline")
        process.grow(by: 10, keeping: 0)
        #expect(keeper.check() == true, "55 above the baseline set after the last release")
        #expect(keeper.releases == 2)
    }

    @Test func aProcessWithoutAResidentSizeIsLeftAlone() {
        let released = Atomic(0)
        let keeper = MemoryKeeper(growth: 1, residentBytes: { nil }, release: { released.add(1, ordering: .relaxed) })
        #expect(keeper.check() == false)
        #expect(released.load(ordering: .relaxed) == 0)
    }

    @Test func theProcessResidentSizeIsRead() throws {
        let resident = try #require(MemoryKeeper.processResidentBytes())
        #expect(resident > 1 << 20, "a test process holds more than a megabyte")
    }
}
