import Foundation
import FuzzSupport
@testable import SlateCore

// todo.txt import: completion marks, (A) priorities, dates, +projects, @contexts, key:value.
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    _ = try? TodoTxtFormat.decode(FuzzInput.data(start, count), calendar: FuzzClock.zones[0])
    return 0
}
