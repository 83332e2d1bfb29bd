import Foundation
import SlateCore

/// ANSI styling, applied only when colour is on (a terminal, no NO_COLOR, no --no-color).
struct Style {
    let isEnabled: Bool

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Struck through and dimmed: a completed task.
    func completed(_ text: String) -> String { wrap(text, "2;9") }

    /// Text in a `#RRGGBB` colour (24-bit).
    func color(_ text: String, hex: String) -> String {
        let digits = hex.dropFirst()
        guard digits.count == 6, let value = Int(digits, radix: 16) else { return text }
        return wrap(text, "38;2;\(value >> 16);\((value >> 8) & 0xFF);\(value & 0xFF)")
    }

    /// Priority marks in the colours of features.md: critical red, high orange, medium yellow, low grey.
    func priority(_ priority: Priority) -> String {
        switch priority {
        case .none: ""
        case .low: wrap(priority.marks, "90")
        case .medium: wrap(priority.marks, "33")
        case .high: wrap(priority.marks, "38;5;208")
        case .critical: wrap(priority.marks, "1;31")
        }
    }
}

/// Visible width of text: ANSI codes do not count, and each character counts one
/// (wide East Asian characters and emoji are rare in task titles; counted as one).
func visibleWidth(_ text: String) -> Int {
    var count = 0
    var inEscape = false
    for character in text {
        if inEscape {
            if character == "m" { inEscape = false }
        } else if character == "\u{1B}" {
            inEscape = true
        } else {
            count += 1
        }
    }
    return count
}

/// `text` cut to `width` characters, ending in "…" when cut.
func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    guard text.count > width else { return text }
    return String(text.prefix(max(0, width - 1))) + "…"
}

/// `text` padded with spaces to `width` visible characters.
func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - visibleWidth(text)))
}
