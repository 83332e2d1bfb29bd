import Foundation

/// CALDAV:calendar-data's partial retrieval (RFC 4791 §9.6.1–9.6.4): which components and
/// properties of a calendar object to return.
///
/// The selection starts at the object's top component (`VCALENDAR`); a component is kept
/// when its parent is kept and names it in `components` (or has `allComponents`), a property
/// line when its component is kept and names it in `properties` (or has `allProperties`).
/// Names are compared without regard to case; a name the object does not have matches
/// nothing. What is kept keeps its bytes (folds and line ends included): lines are left out,
/// never rewritten, except that a property asked for with `novalue` keeps its name and
/// parameters and loses its value (`DUE;TZID=Europe/Paris:`). A component left out goes with
/// everything inside it, so a `VTIMEZONE` is returned only when asked for.
///
/// `allComponents` keeps every component inside, whole (all its properties and components),
/// as RFC 4791's `allcomp` returns "all components". A `comp` naming neither `allprop` nor
/// any `prop` keeps no properties of that component, as the element's content model says.
public struct CalendarDataSelection: Sendable, Equatable {
    /// One `comp` element.
    public struct Component: Sendable, Equatable {
        /// The component's name (`VCALENDAR`, `VTODO`, `VALARM`, …).
        public var name: String
        /// `allprop`: every property line of the component.
        public var allProperties = false
        /// The `prop` elements (ignored with `allProperties`).
        public var properties: [Property] = []
        /// `allcomp`: every component inside, whole.
        public var allComponents = false
        /// The nested `comp` elements (ignored with `allComponents`).
        public var components: [Component] = []

        public init(name: String, allProperties: Bool = false, properties: [Property] = [], allComponents: Bool = false,
                    components: [Component] = []) {
            self.name = name
            self.allProperties = allProperties
            self.properties = properties
            self.allComponents = allComponents
            self.components = components
        }
    }

    /// One `prop` element.
    public struct Property: Sendable, Equatable {
        /// The property's name (`SUMMARY`, `X-MOZ-LASTACK`, …).
        public var name: String
        /// `novalue="yes"`: the name and parameters only, with an empty value.
        public var withoutValue = false

        public init(name: String, withoutValue: Bool = false) {
            self.name = name
            self.withoutValue = withoutValue
        }
    }

    /// The most `comp`, `prop`, `allprop` and `allcomp` elements a request may hold.
    public static let maximumElements = 200

    /// The top `comp` (normally `VCALENDAR`).
    public var root: Component

    public init(root: Component) {
        self.root = root
    }

    /// Where a line stands while walking the object: inside a component kept by a `comp`,
    /// inside one kept whole (`allcomp` above it), or inside one left out.
    private enum Scope {
        case selected(Component)
        case whole
        case omitted
    }

    /// `data` with only what the selection names (see the type's description).
    public func selected(_ data: Data) -> Data {
        let lines = ContentLines(data)
        var scopes: [Scope] = []
        var output = Data()
        for index in lines.raw.indices {
            let name = lines.names[index]
            if name == "BEGIN" {
                let component = lines.value(index)
                let scope: Scope
                switch scopes.last {
                case nil: scope = component == root.name.uppercased() ? .selected(root) : .omitted
                case .whole?: scope = .whole
                case .omitted?: scope = .omitted
                case .selected(let parent)?:
                    if parent.allComponents {
                        scope = .whole
                    } else {
                        scope = parent.components.first { $0.name.uppercased() == component }.map(Scope.selected) ?? .omitted
                    }
                }
                scopes.append(scope)
                if case .omitted = scope { continue }
                output += lines.raw[index]
                continue
            }
            if name == "END" {
                let scope = scopes.popLast()
                if case .omitted? = scope { continue }
                if scope != nil { output += lines.raw[index] }
                continue
            }
            switch scopes.last {
            case .whole?: output += lines.raw[index]
            case .selected(let component)?:
                if component.allProperties {
                    output += lines.raw[index]
                } else if let property = component.properties.first(where: { $0.name.uppercased() == name }) {
                    output += property.withoutValue ? Self.withoutValue(lines.raw[index]) : Data(lines.raw[index])
                }
            case .omitted?, nil: continue
            }
        }
        return output
    }

    /// A content line's name and parameters (its bytes up to the colon that starts the value,
    /// outside quoted parameter values), a colon and its line end.
    static func withoutValue(_ line: ArraySlice<UInt8>) -> Data {
        var quoted = false
        var colon = line.endIndex
        for index in line.indices {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":"), !quoted { colon = index; break }
        }
        let ending: [UInt8] = line.last == 0x0A ? (line.dropLast().last == 0x0D ? [0x0D, 0x0A] : [0x0A]) : []
        return Data(line[line.startIndex..<colon]) + Data([UInt8(ascii: ":")] + ending)
    }
}
