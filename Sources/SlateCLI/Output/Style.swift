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

/// Visible width of text in terminal columns: ANSI codes do not count, wide East Asian
/// characters and emoji take two columns (`columns(of:)`).
func visibleWidth(_ text: String) -> Int {
    var count = 0
    var inEscape = false
    for character in text {
        if inEscape {
            if character == "m" { inEscape = false }
        } else if character == "\u{1B}" {
            inEscape = true
        } else {
            count += columns(of: character)
        }
    }
    return count
}

/// Width in terminal columns of text without escape codes.
func displayWidth(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
}

/// The columns a terminal gives a character: two for wide and full-width East Asian
/// characters (Unicode's East Asian Width W and F: CJK, kana, Hangul, full-width forms)
/// and for emoji shown as emoji; none for a control character; one otherwise. A table of
/// ranges as `wcwidth` keeps it, without the C locale it needs.
func columns(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    let value = first.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x1100 { return 1 }
    if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") && first.properties.isEmoji {
        return 2
    }
    return wideRanges.contains { $0.contains(value) } ? 2 : 1
}

private let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
]

/// `text` cut to `width` columns, ending in "…" when cut (a wide character that would
/// straddle the edge goes too).
func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    guard displayWidth(text) > width else { return text }
    var kept = ""
    var used = 0
    for character in text {
        let next = columns(of: character)
        if used + next > width - 1 { break }
        kept.append(character)
        used += next
    }
    return kept + "…"
}

/// `text` padded with spaces to `width` visible characters.
func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - visibleWidth(text)))
}
