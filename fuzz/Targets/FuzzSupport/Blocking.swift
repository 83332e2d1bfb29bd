import Dispatch
import Synchronization

/// Runs `body` on the concurrency pool and waits for its result: libFuzzer calls a target
/// synchronously, and the API answers through `async` functions.
public func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
