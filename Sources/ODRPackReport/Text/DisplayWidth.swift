/// The columns a string takes on a terminal: CJK and emoji take two, combining marks and other zero-width characters
/// none, everything else one (Unicode's East Asian Width, as terminals apply it), so tables of Japanese tags or emoji
/// file names line up.
enum DisplayWidth {
    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji && scalars.contains("\u{FE0F}") { return 2 }  // text emoji shown as emoji
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// East Asian Wide and Fullwidth blocks.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
