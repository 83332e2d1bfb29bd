import Foundation

/// One timed run: wall-clock seconds, and the CPU seconds of the calling thread (both
/// sides do all their work on it), which separates waiting for the disk or for other
/// processes from work done.
struct Timing {
    let seconds: Double
    let cpuSeconds: Double
}

/// Runs `body` once and returns its result and how long it took.
@inline(never)
func measure<T>(_ body: () throws -> T) rethrows -> (result: T, timing: Timing) {
    let cpuStart = threadCPUSeconds()
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = start.duration(to: .now)
    let cpu = threadCPUSeconds() - cpuStart
    return (result, Timing(seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                           cpuSeconds: cpu))
}

private func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// The middle value (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
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
    /// The median CPU time of the measuring thread.
    let cpuMedianSeconds: Double

    init(samples: [Timing], rows: Int) {
        samplesSeconds = samples.map(\.seconds)
        medianSeconds = median(samplesSeconds)
        minSeconds = samplesSeconds.min() ?? 0
        maxSeconds = samplesSeconds.max() ?? 0
        rowsPerSecond = medianSeconds > 0 ? Double(rows) / medianSeconds : 0
        cpuMedianSeconds = median(samples.map(\.cpuSeconds))
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
    /// The same for the median CPU times: the work done, without waiting.
    let cpuRatio: Double
    let target: Double
    let meetsTarget: Bool

    init(name: String, detail: String, rows: Int, store: [Timing], raw: [Timing], target: Double) {
        self.name = name
        self.detail = detail
        self.rows = rows
        repetitions = store.count
        slateStore = SideResult(samples: store, rows: rows)
        self.raw = SideResult(samples: raw, rows: rows)
        ratio = self.raw.medianSeconds > 0 ? slateStore.medianSeconds / self.raw.medianSeconds : .infinity
        cpuRatio = self.raw.cpuMedianSeconds > 0 ? slateStore.cpuMedianSeconds / self.raw.cpuMedianSeconds : .infinity
        self.target = target
        meetsTarget = ratio <= target
    }
}

/// Collects the samples of one line, alternating which side goes first in each
/// repetition so that neither always runs on a warmer (or more tired) machine.
struct AlternatingSampler {
    private(set) var store: [Timing] = []
    private(set) var raw: [Timing] = []

    mutating func repetition(_ index: Int, store runStore: () throws -> Timing, raw runRaw: () throws -> Timing) rethrows {
        if index % 2 == 0 {
            store.append(try runStore())
            raw.append(try runRaw())
        } else {
            raw.append(try runRaw())
            store.append(try runStore())
        }
    }
}
