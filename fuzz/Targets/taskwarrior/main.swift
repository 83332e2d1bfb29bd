import Foundation
import FuzzSupport
@testable import SlateCore

// Taskwarrior import: a JSON array of tasks, or one object per line (older versions), with
// recurring templates, annotations, dates and UDAs.
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    _ = try? TaskwarriorFormat.decode(FuzzInput.data(start, count), calendar: FuzzClock.zones[0])
    return 0
}
