import CYaml

/// A bound on what YAML aliases expand to (docs/manifest.md#yaml), checked on libyaml's events before the document is
/// composed: a few hundred bytes of nested aliases (`&a [*b, *b]`, "billion laughs") would otherwise become a tree of
/// billions of nodes, and comparing mapping keys built of them takes exponential time. Every node counts once per place
/// it appears, aliases expanded, without building anything: an anchor's size is known when its node ends.
enum YAMLAliasBudget {
    /// The most nodes a manifest may expand to: far more than a manifest of the store's maximum holds.
    static let maximumNodes = 2_000_000

    /// Where the expansion passed the bound: the alias's 1-based line and column, and its anchor's name.
    struct Exceeded: Error, Equatable {
        let line: Int
        let column: Int
        let anchor: String
    }

    /// Nil when `text` stays within `limit` nodes (or is not YAML libyaml reads: Yams reports that itself).
    static func check(_ text: String, limit: Int = maximumNodes) -> Exceeded? {
        var bytes = Array(text.utf8)
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer -> Exceeded? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count - 1)
            var sizes: [String: Int] = [:]
            // The open collections: their anchor and the nodes counted in them so far (themselves included).
            var open: [(anchor: String?, count: Int)] = []
            // The nodes aliases added: what the text itself holds is bounded by its size, this is not.
            var expanded = 0
            func count(_ nodes: Int) {
                guard !open.isEmpty else { return }
                open[open.count - 1].count = min(open[open.count - 1].count + nodes, limit + 1)
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    if let anchor = name(event.data.scalar.anchor) { sizes[anchor] = 1 }
                    count(1)
                case YAML_SEQUENCE_START_EVENT:
                    open.append((name(event.data.sequence_start.anchor), 1))
                case YAML_MAPPING_START_EVENT:
                    open.append((name(event.data.mapping_start.anchor), 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let node = open.popLast() else { continue }
                    if let anchor = node.anchor { sizes[anchor] = node.count }
                    count(node.count)
                case YAML_ALIAS_EVENT:
                    let anchor = name(event.data.alias.anchor) ?? ""
                    let nodes = sizes[anchor] ?? 1
                    expanded = expanded > limit - nodes ? limit + 1 : expanded + nodes
                    count(nodes)
                    if expanded > limit {
                        return Exceeded(
                            line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1,
                            anchor: anchor)
                    }
                default:
                    continue
                }
            }
        }
    }

    private static func name(_ text: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let text else { return nil }
        return String(cString: text)
    }
}
