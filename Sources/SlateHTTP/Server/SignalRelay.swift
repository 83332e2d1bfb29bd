import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns process signals into calls on a Dispatch queue, whichever thread receives them.
///
/// A `DispatchSource` signal source on Linux reads a signalfd, which only sees a signal
/// that every thread blocks; a process with threads started elsewhere (the library's, the
/// test runner's) loses it. So the relay installs a plain handler that writes the signal
/// number to a pipe — `write` is async-signal-safe — and a Dispatch read source on the
/// other end calls the observers.
enum SignalRelay {
    private struct Observers {
        var byNumber: [Int32: [@Sendable () -> Void]] = [:]
        var readSource: (any DispatchSourceRead)?
    }

    /// The pipe's write end, read by the handler: an atomic load is async-signal-safe.
    private static let writeEnd = Atomic<Int32>(-1)
    private static let observers = Mutex(Observers())

    /// Calls `observer` on a Dispatch queue each time one of `signals` arrives. The signals'
    /// default actions are replaced for the rest of the process.
    static func observe(_ signals: [Int32], _ observer: @escaping @Sendable () -> Void) {
        observers.withLock { observers in
            if observers.readSource == nil, let readEnd = openPipe() {
                let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
                source.setEventHandler { relay(from: readEnd) }
                source.resume()
                observers.readSource = source
            }
            for number in signals {
                observers.byNumber[number, default: []].append(observer)
                _ = signal(number) { number in
                    let saved = errno
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = write(SignalRelay.writeEnd.load(ordering: .relaxed), &byte, 1)
                    errno = saved
                }
            }
        }
    }

    private static func openPipe() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        writeEnd.store(ends[1], ordering: .relaxed)
        return ends[0]
    }

    private static func relay(from readEnd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(readEnd, &bytes, bytes.count)
        guard count > 0 else { return }
        for number in bytes[0..<count] {
            let calls = observers.withLock { $0.byNumber[Int32(number)] ?? [] }
            for call in calls { call() }
        }
    }
}
