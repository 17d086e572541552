import Yams

/// The fix for the common causes of a YAML syntax error (docs/manifest.md#syntax-errors), read from the manifest's
/// text at the line libyaml names, since libyaml's own words ("while scanning an alias", "found character that cannot
/// start any token") describe the scanner, not the mistake: an unquoted value that starts with an indicator
/// (`*`, `&`, `!`, `%`, `@`), a tab in the indentation, a key out of line with its siblings, a value holding `: `.
/// Pure functions of the text, so the tests feed them strings.
package enum YAMLSyntaxHint {
    /// Characters that cannot start a plain YAML scalar, and what a value starting with one becomes.
    static let indicators: Set<Character> = ["*", "&", "!", "%", "@", "`"]

    /// The fix for the error libyaml reported at `line` (1-based), if the text there shows a common cause.
    package static func fix(text: String, line: Int, contextLine: Int?) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        func lineText(_ number: Int?) -> String? {
            guard let number, number >= 1, number <= lines.count else { return nil }
            return lines[number - 1]
        }
        let candidates = [line, contextLine].compactMap { $0 }
        for number in candidates {
            if let text = lineText(number), text.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") {
                return "YAML does not allow tabs: indent with spaces"
            }
        }
        for number in candidates {
            if let text = lineText(number), let quote = quoteIndicatorValue(in: text) { return quote }
        }
        if let text = lineText(line),
            let outOfLine = keyOutOfLine(text, previous: previousContentLine(before: line, in: lines))
        {
            return outOfLine
        }
        if let text = lineText(line), let colon = valueWithColon(text) { return colon }
        return nil
    }

    /// `quote it: glob: "**/*.png"` for a value (after `key:` or a list's `-`) that starts with an indicator.
    static func quoteIndicatorValue(in line: String) -> String? {
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "#", index == 0 || characters[index - 1] == " " { return nil }  // a comment
            if character == "\"" || character == "'" { return nil }  // quoted from here on: not this mistake
            guard indicators.contains(character) else {
                index += 1
                continue
            }
            var before = index - 1
            while before >= 0 && characters[before] == " " { before -= 1 }
            let opener: Character? = before >= 0 ? characters[before] : nil
            guard opener == nil || [":", "-", "[", ",", "{", "?"].contains(opener!) else {
                index += 1
                continue
            }
            if opener == ":" || opener == "-", before + 1 == index {
                index += 1
                continue
            }  // `a:*` is one scalar
            let inFlow = characters[..<index].contains("[") || characters[..<index].contains("{")
            var end = index
            while end < characters.count {
                let next = characters[end]
                if inFlow && (next == "," || next == "]" || next == "}") { break }
                if next == "#" && end > 0 && characters[end - 1] == " " { break }
                end += 1
            }
            let value = String(characters[index..<end]).trimmingTrailingSpaces
            let quoted =
                "\""
                + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"") + "\""
            if opener == ":", let key = keyBefore(colon: before, in: characters) {
                return "quote it: \(key): \(quoted)"
            }
            if opener == "-" { return "quote it: - \(quoted)" }
            return "quote it: \(quoted)"
        }
        return nil
    }

    /// The key whose `:` is at `colon`.
    static func keyBefore(colon: Int, in characters: [Character]) -> String? {
        var start = colon
        while start > 0, !" {,[\t".contains(characters[start - 1]) { start -= 1 }
        let key = String(characters[start..<colon])
        return key.isEmpty ? nil : key
    }

    /// `'tags' starts in column 6, the key above it in column 4: ...` when a line's key is out of line with the key
    /// of the line above it that is not its parent.
    static func keyOutOfLine(_ line: String, previous: String?) -> String? {
        guard let (key, column) = keyColumn(line), let previous, let (_, aboveColumn) = keyColumn(previous),
            column != aboveColumn
        else { return nil }
        // Deeper under a key that opens a block (`resources:`) is where a child belongs, not a mistake.
        if column > aboveColumn && previous.trimmingTrailingSpaces.hasSuffix(":") { return nil }
        return
            """
            '\(key)' starts in column \(column + 1), the key above it in column \(aboveColumn + 1): keys of one \
            mapping start in the same column (indent with spaces, the same number for every sibling)
            """
    }

    /// The key a line starts with (after any `- `) and its 0-based column.
    static func keyColumn(_ line: String) -> (String, Int)? {
        let characters = Array(line)
        var column = 0
        while column < characters.count && characters[column] == " " { column += 1 }
        while column + 1 < characters.count && characters[column] == "-" && characters[column + 1] == " " {
            column += 2
            while column < characters.count && characters[column] == " " { column += 1 }
        }
        var end = column
        while end < characters.count, characters[end] != ":", !" #{}[],\"'".contains(characters[end]) { end += 1 }
        guard end > column, end < characters.count, characters[end] == ":",
            end + 1 == characters.count || characters[end + 1] == " "
        else { return nil }
        return (String(characters[column..<end]), column)
    }

    /// The nearest line above `line` that holds more than blanks and a comment.
    static func previousContentLine(before line: Int, in lines: [String]) -> String? {
        var index = line - 2
        while index >= 0 {
            let trimmed = lines[index].drop(while: { $0 == " " })
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") { return lines[index] }
            index -= 1
        }
        return nil
    }

    /// A plain value that holds `: `, which YAML reads as a second key.
    static func valueWithColon(_ line: String) -> String? {
        guard let (key, column) = keyColumn(line) else { return nil }
        let rest = line.dropFirst(column + key.count + 1)
        let value = rest.drop(while: { $0 == " " })
        guard !value.hasPrefix("\""), !value.hasPrefix("'"), value.contains(": ") else { return nil }
        return "a value that holds ': ' must be quoted: \(key): \"\(value.trimmingTrailingSpaces)\""
    }

    // MARK: Duplicate keys

    /// The 1-based line and column of the second occurrence of a duplicate `key`: the first prefix of the text (whole
    /// lines) in which libyaml finds the duplicate ends on that line. Nil when the text does not show it that way.
    package static func secondOccurrence(of key: String, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func duplicated(within count: Int) -> Bool {
            let prefix = lines.prefix(count).joined(separator: "\n") + "\n"
            do {
                _ = try Yams.compose(yaml: prefix)
                return false
            } catch YamlError.duplicatedKeysInMapping(let duplicates, _) {
                return duplicates.contains(key)
            } catch {
                return false
            }
        }
        // The smallest prefix that holds the duplicate: found by halving, as a prefix past it holds it too.
        var low = 1
        var high = lines.count
        guard duplicated(within: high) else { return nil }
        while low < high {
            let middle = (low + high) / 2
            if duplicated(within: middle) { high = middle } else { low = middle + 1 }
        }
        // The key on that line; when a flow mapping holds it twice there, the second.
        let line = String(lines[low - 1])
        var columns: [Int] = []
        for pattern in [key, "\"\(key)\"", "'\(key)'"] {
            var search = line.startIndex
            while let range = line.range(of: pattern, range: search..<line.endIndex) {
                let before = range.lowerBound == line.startIndex ? " " : line[line.index(before: range.lowerBound)]
                let after = line[range.upperBound...].drop(while: { $0 == " " })
                if after.hasPrefix(":") && " -{,?".contains(before) {
                    columns.append(line.distance(from: line.startIndex, to: range.lowerBound) + 1)
                }
                search = range.upperBound
            }
        }
        columns.sort()
        return (low, columns.count >= 2 ? columns[1] : columns.first ?? 1)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: String { String(self).trimmingTrailingSpaces }
}
