import Foundation
import FuzzSupport
@testable import SlateDAV

// CalDAV's request bodies: XMLReader (elements, attributes, namespaces, entities, CDATA,
// comments; no DOCTYPE; bounded depth, count and size). The whole DAV handler, with these
// bodies behind PROPFIND, REPORT and PROPPATCH, is in the router target.
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    _ = try? XMLReader.parse(FuzzInput.data(start, count))
    return 0
}
