import Foundation

/// Runs `body` once and returns its result and the wall-clock seconds it took.
@inline(never)
func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = start.duration(to: .now)
    return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
}

/// The timings of one side of one line.
struct SideResult: Codable {
    /// Every repetition, in seconds, in the order run.
    let samplesSeconds: [Double]
    let medianSeconds: Double
    let minSeconds: Double
    let maxSeconds: Double
    /// Rows handled per second at the median time.
    let rowsPerSecond: Double

    init(samples: [Double], rows: Int) {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        samplesSeconds = samples
        medianSeconds = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        minSeconds = sorted.first ?? 0
        maxSeconds = sorted.last ?? 0
        rowsPerSecond = medianSeconds > 0 ? Double(rows) / medianSeconds : 0
    }
}

/// One line of the report: the same work measured through SlateStore and the raw loop.
struct LineResult: Codable {
    let name: String
    /// What exactly the line does, in words.
    let detail: String
    /// Rows written, returned or counted by one repetition.
    let rows: Int
    let repetitions: Int
    let slateStore: SideResult
    let raw: SideResult
    /// SlateStore's median time ÷ the raw loop's median time (lower is better, 1 is parity).
    let ratio: Double
    let target: Double
    let meetsTarget: Bool

    init(name: String, detail: String, rows: Int, store: [Double], raw: [Double], target: Double) {
        self.name = name
        self.detail = detail
        self.rows = rows
        repetitions = store.count
        slateStore = SideResult(samples: store, rows: rows)
        self.raw = SideResult(samples: raw, rows: rows)
        ratio = self.raw.medianSeconds > 0 ? slateStore.medianSeconds / self.raw.medianSeconds : .infinity
        self.target = target
        meetsTarget = ratio <= target
    }
}

/// Collects the samples of one line, alternating which side goes first in each
/// repetition so that neither always runs on a warmer (or more tired) machine.
struct AlternatingSampler {
    private(set) var store: [Double] = []
    private(set) var raw: [Double] = []

    mutating func repetition(_ index: Int, store runStore: () throws -> Double, raw runRaw: () throws -> Double) rethrows {
        if index % 2 == 0 {
            store.append(try runStore())
            raw.append(try runRaw())
        } else {
            raw.append(try runRaw())
            store.append(try runStore())
        }
    }
}
