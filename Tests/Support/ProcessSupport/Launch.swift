import Foundation

/// Starts a process made by `make`, retrying when Foundation's spawn fails with EBADF:
/// tests run in parallel in one process, and a descriptor another test closes at the same
/// moment can make `Process.run` fail (a Foundation race, not the program under test).
public func launchRetryingSpawnRace(_ make: () throws -> Process) throws -> Process {
    var attempt = 0
    while true {
        let process = try make()
        do {
            try process.run()
            return process
        } catch let error as NSError where attempt < 5 && spawnRaced(error) {
            attempt += 1
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}

private func spawnRaced(_ error: NSError) -> Bool {
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
    return (error.domain == NSPOSIXErrorDomain && error.code == Int(EBADF))
        || (underlying?.domain == NSPOSIXErrorDomain && underlying?.code == Int(EBADF))
}
