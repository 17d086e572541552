/// A plain left/right-aligned text table for terminal reports, padded by display width (`DisplayWidth`).
struct TextTable {
    enum Alignment { case left, right }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    /// Each cell one line on the terminal: its control characters and line breaks escaped (before the widths).
    mutating func add(_ row: [String]) { rows.append(row.map { TerminalText.escaped($0) }) }

    func render(indent: String = "  ") -> String {
        var widths = headers.map { DisplayWidth.of($0) }
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(cell)))
                parts.append(alignments[index] == .left ? cell + padding : padding + cell)
            }
            var text = indent + parts.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
