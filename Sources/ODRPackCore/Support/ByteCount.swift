import Foundation

/// Parsing and printing byte counts the way the manifest and the reports use them.
package enum ByteCount {
    /// Units accepted in the manifest: powers of 1000 and of 1024 (case-insensitive).
    static let units: [(name: String, factor: Int64)] = [
        ("B", 1), ("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("TB", 1_000_000_000_000),
        ("KiB", 1_024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("TiB", 1_099_511_627_776),
    ]

    /// Parses `512MB`, `1.5 GiB`, `1000` or `42 B`; nil when the text is not a size.
    package static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let firstLetter = trimmed.firstIndex(where: { $0.isLetter }) else {
            return Int64(trimmed).flatMap { $0 >= 0 ? $0 : nil }
        }
        let number = trimmed[..<firstLetter].trimmingCharacters(in: .whitespaces)
        let unit = String(trimmed[firstLetter...])
        guard let factor = units.first(where: { $0.name.caseInsensitiveCompare(unit) == .orderedSame })?.factor,
            !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        if let whole = Int64(number) {
            let (product, overflow) = whole.multipliedReportingOverflow(by: factor)
            return overflow ? nil : product
        }
        guard let decimal = Decimal(string: number, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        let bytes = decimal * Decimal(factor)
        var rounded = Decimal()
        var copy = bytes
        NSDecimalRound(&rounded, &copy, 0, .plain)
        guard rounded == bytes, rounded < Decimal(Int64.max) else { return nil }
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    /// `530.1 MB`, `512 MB`, `999 B`: decimal units, one decimal place, `.0` dropped.
    package static func format(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let names = ["KB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var index = 0
        while value >= 999.95 && index < names.count - 1 {
            value /= 1000
            index += 1
        }
        var text = String(format: "%.1f", value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return "\(text) \(names[index])"
    }
}
