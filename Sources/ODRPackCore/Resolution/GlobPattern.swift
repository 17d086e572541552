import ODRPackFormats
import ODRPackPlatform

/// A compiled glob over `/`-separated relative paths: `*` and `?` stay inside one path component,
/// `[..]` is a character class (`!` or `^` negates), and a `**` component matches any number of components.
package struct GlobPattern: Sendable {
    enum Token: Sendable, Equatable {
        case byte(UInt8)
        case anyCharacter
        case star
        case characterClass(ranges: [ClosedRange<UInt32>], negated: Bool)
    }

    enum Segment: Sendable, Equatable {
        case anyDepth
        case literal([UInt8])
        case pattern([Token])
    }

    package let text: String
    let segments: [Segment]
    /// The leading literal folders: only files under them can match.
    let literalDirectory: [String]
    /// Without `**`, only files exactly this many components deep can match.
    let fixedDepth: Int?

    package init?(_ text: String) {
        guard Self.syntaxProblem(text) == nil else { return nil }
        self.text = text
        var segments: [Segment] = []
        for part in text.slashSeparated(omittingEmptySubsequences: true) where part != "." {
            if part == "**" {
                if segments.last != .anyDepth { segments.append(.anyDepth) }
                continue
            }
            let tokens = Self.tokens(Array(part.utf8))
            if tokens.allSatisfy({ if case .byte = $0 { return true } else { return false } }) {
                segments.append(.literal(tokens.map { if case .byte(let b) = $0 { return b } else { return 0 } }))
            } else {
                segments.append(.pattern(tokens))
            }
        }
        self.segments = segments
        var directory: [String] = []
        for segment in segments.dropLast() {
            guard case .literal(let bytes) = segment else { break }
            directory.append(String(decoding: bytes, as: UTF8.self))
        }
        self.literalDirectory = directory
        self.fixedDepth = segments.contains(.anyDepth) ? nil : segments.count
    }

    /// Describes a malformed pattern (an unclosed `[`), or nil when it compiles.
    static func syntaxProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "[") {
                guard let end = classEnd(bytes, from: index) else {
                    return "'[' at character \(index + 1) is never closed: add ']' or escape it as '\\['"
                }
                index = end
            }
            index += 1
        }
        return nil
    }

    /// Whether files in the folder `directory` (components from the root) could match at all.
    package func couldMatch(filesIn directory: [String]) -> Bool {
        if let fixedDepth, directory.count != fixedDepth - 1 { return false }
        let common = min(directory.count, literalDirectory.count)
        if directory.count < literalDirectory.count { return false }
        return directory[..<common].elementsEqual(literalDirectory[..<common]) { $0.hasSameBytes(as: $1) }
    }

    /// Whether files in the folder `directory` or in any folder below it could match: whether a walk that looks
    /// only for this pattern's files must enter it.
    package func couldMatch(filesBelow directory: [String]) -> Bool {
        if let fixedDepth, directory.count > fixedDepth - 1 { return false }
        let common = min(directory.count, literalDirectory.count)
        return directory[..<common].elementsEqual(literalDirectory[..<common]) { $0.hasSameBytes(as: $1) }
    }

    /// Matches a whole relative path given as UTF-8 bytes.
    package func matches(_ path: [UInt8]) -> Bool {
        var components: [Range<Int>] = []
        var start = 0
        for (index, byte) in path.enumerated() where byte == UInt8(ascii: "/") {
            if index > start { components.append(start..<index) }
            start = index + 1
        }
        if start < path.count { components.append(start..<path.count) }
        // (segment, component) pairs known not to match: with several `**` the same pair is reached along many
        // routes, and without this a pattern like `**/**/**/...` takes exponential time (found by make fuzz).
        var failed = Set<Int>()
        return path.withUnsafeBufferPointer { buffer in
            match(segmentIndex: 0, componentIndex: 0, components: components, path: buffer, failed: &failed)
        }
    }

    package func matches(_ path: String) -> Bool { matches(Array(path.utf8)) }

    private func match(
        segmentIndex: Int, componentIndex: Int, components: [Range<Int>],
        path: UnsafeBufferPointer<UInt8>, failed: inout Set<Int>
    ) -> Bool {
        var s = segmentIndex
        var c = componentIndex
        while s < segments.count {
            switch segments[s] {
            case .anyDepth:
                if s == segments.count - 1 { return c < components.count }
                for next in c...components.count {
                    let state = (s + 1) * (components.count + 1) + next
                    if failed.contains(state) { continue }
                    if match(
                        segmentIndex: s + 1, componentIndex: next, components: components, path: path, failed: &failed)
                    {
                        return true
                    }
                    failed.insert(state)
                }
                return false
            case .literal(let bytes):
                guard c < components.count else { return false }
                let range = components[c]
                guard range.count == bytes.count, zip(path[range], bytes).allSatisfy({ $0 == $1 }) else { return false }
            case .pattern(let tokens):
                guard c < components.count,
                    Self.matchComponent(tokens, UnsafeBufferPointer(rebasing: path[components[c]]))
                else {
                    return false
                }
            }
            s += 1
            c += 1
        }
        return c == components.count
    }

    /// Wildcard matching of one component with backtracking over the last `*`.
    static func matchComponent(_ tokens: [Token], _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var t = 0
        var i = 0
        var starToken = -1
        var starText = 0
        while i < text.count {
            if t < tokens.count {
                switch tokens[t] {
                case .star:
                    starToken = t
                    starText = i
                    t += 1
                    continue
                case .byte(let b):
                    if text[i] == b {
                        t += 1
                        i += 1
                        continue
                    }
                case .anyCharacter:
                    t += 1
                    i += scalarLength(text, at: i)
                    continue
                case .characterClass(let ranges, let negated):
                    let (scalar, length) = decodeScalar(text, at: i)
                    if ranges.contains(where: { $0.contains(scalar) }) != negated {
                        t += 1
                        i += length
                        continue
                    }
                }
            }
            guard starToken >= 0 else { return false }
            t = starToken + 1
            starText += scalarLength(text, at: starText)
            i = starText
        }
        while t < tokens.count, tokens[t] == .star { t += 1 }
        return t == tokens.count
    }

    static func scalarLength(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = text[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return min(length, text.count - index)
    }

    static func decodeScalar(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let length = scalarLength(text, at: index)
        if length == 1 { return (UInt32(text[index]), 1) }
        var value = UInt32(text[index]) & (0xFF >> (length + 1))
        for offset in 1..<length { value = (value << 6) | (UInt32(text[index + offset]) & 0x3F) }
        return (value, length)
    }

    static func classEnd(_ bytes: [UInt8], from open: Int) -> Int? {
        var index = open + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "^") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "]") { return index }
            if bytes[index] == UInt8(ascii: "/") { return nil }
            index += 1
        }
        return nil
    }

    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\") where index + 1 < bytes.count:
                tokens.append(.byte(bytes[index + 1]))
                index += 2
                continue
            case UInt8(ascii: "*"):
                if tokens.last != .star { tokens.append(.star) }
            case UInt8(ascii: "?"):
                tokens.append(.anyCharacter)
            case UInt8(ascii: "["):
                if let end = classEnd(bytes, from: index) {
                    tokens.append(characterClass(Array(bytes[(index + 1)..<end])))
                    index = end
                } else {
                    tokens.append(.byte(byte))
                }
            default:
                tokens.append(.byte(byte))
            }
            index += 1
        }
        return tokens
    }

    static func characterClass(_ body: [UInt8]) -> Token {
        var scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars.map(\.value))
        var negated = false
        if let first = scalars.first, first == 0x21 || first == 0x5E {
            negated = true
            scalars.removeFirst()
        }
        var ranges: [ClosedRange<UInt32>] = []
        var index = 0
        while index < scalars.count {
            if index + 2 < scalars.count, scalars[index + 1] == 0x2D {
                let low = scalars[index]
                let high = scalars[index + 2]
                ranges.append(min(low, high)...max(low, high))
                index += 3
            } else {
                ranges.append(scalars[index]...scalars[index])
                index += 1
            }
        }
        return .characterClass(ranges: ranges, negated: negated)
    }
}
