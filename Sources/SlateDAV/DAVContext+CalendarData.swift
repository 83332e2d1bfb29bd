import Foundation
import SlateCore

/// What a REPORT's calendar-data element asks for beyond the stored bytes: CALDAV:expand
/// (RFC 4791 §9.6.5) and partial retrieval with `comp` / `prop` / `allprop` / `allcomp`
/// (§9.6.1–9.6.4).
struct CalendarDataRequest {
    /// The expansion asked for, if any.
    var expansion: CalendarExpansion?
    /// The components and properties asked for; nil: all of them.
    var selection: CalendarDataSelection?

    /// `data` expanded, then cut to the selection: partial retrieval applies to the
    /// expanded output (so `comp name="VTODO"` selects from each instance).
    func applied(to data: Data, calendar: Calendar) -> Data {
        let expanded = expansion.map { $0.expanded(data, calendar: calendar) } ?? data
        return selection.map { $0.selected(expanded) } ?? expanded
    }
}

extension DAVContext {
    /// The calendar-data of a REPORT's DAV:prop, nil when it asks for nothing but the stored
    /// bytes. Refused (400, CALDAV:supported-calendar-data) when a `comp` or `prop` has no
    /// name, `novalue` is neither `yes` nor `no`, or the element holds more than
    /// `CalendarDataSelection.maximumElements` `comp`, `prop`, `allprop` and `allcomp`
    /// elements (its depth is the XML reader's to bound).
    static func calendarDataRequest(in prop: XMLElement?) throws(CalendarDataError) -> CalendarDataRequest? {
        let expansion = try expansion(in: prop)
        let top = prop?.child(Namespace.caldav, "calendar-data")?.child(Namespace.caldav, "comp")
        var count = 0
        let selection = try top.map { (element) throws(CalendarDataError) in CalendarDataSelection(root: try component(element, count: &count)) }
        guard expansion != nil || selection != nil else { return nil }
        return CalendarDataRequest(expansion: expansion, selection: selection)
    }

    private static func counted(_ element: XMLElement, _ count: inout Int) throws(CalendarDataError) {
        count += 1
        guard count <= CalendarDataSelection.maximumElements else {
            throw CalendarDataError(description: "CALDAV:calendar-data may hold at most \(CalendarDataSelection.maximumElements) "
                + "comp, prop, allprop and allcomp elements; this one has more (the \(count)th is a CALDAV:\(element.name)).")
        }
    }

    private static func component(_ element: XMLElement, count: inout Int) throws(CalendarDataError) -> CalendarDataSelection.Component {
        try counted(element, &count)
        guard let name = element.attributes["name"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            throw CalendarDataError(description: "CALDAV:comp needs a name attribute, a component name such as VCALENDAR, VTODO or VALARM.")
        }
        var component = CalendarDataSelection.Component(name: name)
        for child in element.children where child.namespace == Namespace.caldav {
            switch child.name {
            case "allprop":
                try counted(child, &count)
                component.allProperties = true
            case "allcomp":
                try counted(child, &count)
                component.allComponents = true
            case "prop":
                try counted(child, &count)
                guard let property = child.attributes["name"]?.trimmingCharacters(in: .whitespaces), !property.isEmpty else {
                    throw CalendarDataError(description: "CALDAV:prop needs a name attribute, a property name such as SUMMARY or UID.")
                }
                let novalue = child.attributes["novalue"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "no"
                guard novalue == "yes" || novalue == "no" else {
                    throw CalendarDataError(description: "CALDAV:prop novalue must be yes or no; got '\(novalue.prefix(20))' on \(property.prefix(40)).")
                }
                component.properties.append(CalendarDataSelection.Property(name: property, withoutValue: novalue == "yes"))
            case "comp":
                component.components.append(try self.component(child, count: &count))
            default: break
            }
        }
        return component
    }
}
