import Foundation

/// An icon a list can have: an SF Symbols–style name (what is stored and what Apple's
/// apps understand) and the emoji the web app and terminal draw for it.
public struct ListIcon: Sendable, Hashable {
    public let name: String
    public let glyph: String
}

extension TaskList {
    /// The icons offered by the apps, in order; the first is the default.
    public static let icons: [ListIcon] = [
        ("list.bullet", "📋"), ("book", "📖"), ("figure.walk", "🚶"), ("lightbulb", "💡"), ("music.note", "🎵"),
        ("film", "🎬"), ("camera", "📷"), ("paintbrush", "🖌️"), ("briefcase", "💼"), ("house", "🏠"),
        ("cart", "🛒"), ("heart", "❤️"), ("star", "⭐"), ("flag", "🚩"), ("calendar", "📅"),
        ("gift", "🎁"), ("fork.knife", "🍴"), ("airplane", "✈️"), ("graduationcap", "🎓"), ("wrench", "🔧"),
    ].map { ListIcon(name: $0.0, glyph: $0.1) }

    /// The emoji for an icon name; a name not offered (any valid name may be stored, e.g.
    /// from an import) draws as the default icon's.
    public static func glyph(forIcon name: String) -> String {
        icons.first { $0.name == name }?.glyph ?? icons[0].glyph
    }
}
