import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// The one self-contained HTML page of `report` and `diff --html` (docs/commands.md#report-and-ci): inline styles and script
/// (`Assets/report.css` and `Assets/report.js`, embedded at build time), the data as JSON in the page, nothing fetched.
enum ReportPage {
    static func html(title: String, data: JSONValue) -> String {
        let (head, tail) = parts(title: title)
        return head + scriptSafe(data.serialized()) + tail
    }

    /// `html(title:data:)` written as it is made (docs/build-output.md#bounded): the page around the data, and the
    /// data's JSON as `write` writes it (`serialized()`'s bytes), made script-safe a chunk at a time.
    static func document(title: String, data write: @escaping @Sendable (inout DocumentSink) throws -> Void)
        -> StreamedDocument
    {
        let (head, tail) = parts(title: title)
        return StreamedDocument { sink in
            try sink.append(Array(head.utf8))
            try sink.flush()
            let page = SinkBox(sink)
            let escaped = Array("\\u003c".utf8)
            var data = DocumentSink { chunk in
                for byte in chunk {
                    if byte == UInt8(ascii: "<") {
                        page.sink.buffer.append(contentsOf: escaped)
                    } else {
                        page.sink.buffer.append(byte)
                    }
                }
                try page.sink.flushIfFull()
            }
            try write(&data)
            try data.flush()
            sink = page.sink
            try sink.append(Array(tail.utf8))
        }
    }

    /// The page's sink while the data's chunks are escaped into it.
    private final class SinkBox {
        var sink: DocumentSink
        init(_ sink: DocumentSink) { self.sink = sink }
    }

    /// The page before the data's JSON, and after it.
    private static func parts(title: String) -> (head: String, tail: String) {
        let json = "\u{0}"
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="odrpack \(ToolVersion.current)">
            <title>\(escapeHTML(title))</title>
            <style>\(EmbeddedAssets.reportCss)</style>
            </head>
            <body>
            <header><h1 id="title">\(escapeHTML(title))</h1><p id="subtitle"></p></header>
            <main>
            <section id="summary" aria-label="Summary"></section>
            <section id="map-section"><h2>Where the bytes are</h2>
            <nav id="crumbs" aria-label="Treemap path"></nav>
            <div id="treemap" role="img" aria-label="Treemap of the packs, their folders and files, sized by bytes"></div>
            <div id="legend"></div></section>
            <section id="gauges-section"><h2>Limits</h2><div id="gauges"></div></section>
            <section id="diagnostics-section"><h2>Problems</h2><ul id="diagnostics"></ul></section>
            <section id="tagsets-section" hidden><h2>Tag sets that make packs</h2>
            <p>Each distinct set of tags is one pack. The resources with the most tags multiply packs: the sets below, most tags first, and files that make each.</p>
            <div id="tagsets"></div></section>
            <section id="packs-section"><h2>Packs</h2><input type="search" placeholder="Search packs" data-for="packs"><div class="scroll"><table id="packs"></table></div></section>
            <section id="tags-section"><h2>Tags</h2><input type="search" placeholder="Search tags" data-for="tags"><div class="scroll"><table id="tags"></table></div></section>
            <section id="files-section"><h2 id="files-title">Largest files</h2><input type="search" placeholder="Search files" data-for="files"><div class="scroll"><table id="files"></table></div></section>
            </main>
            <script type="application/json" id="data">\(json)</script>
            <script>\(EmbeddedAssets.reportJs)</script>
            </body>
            </html>

            """
        // The data comes after the title (which a name could fill with NULs) and nothing after it holds one.
        let mark = page.lastIndex(of: "\u{0}")!
        return (String(page[..<mark]), String(page[page.index(after: mark)...]))
    }

    /// Every "<" of the JSON becomes "\u003c" (the same JSON string: "<" appears only inside strings), so no name
    /// can end the script element ("</script>") or switch the HTML parser into its escaped states ("<!--<script>"),
    /// which would swallow the rest of the page (docs/commands.md#report-and-ci). A byte loop, because Foundation's
    /// replacingOccurrences is slow on the megabytes of a large project's data.
    static func scriptSafe(_ json: String) -> String {
        let escaped = Array("\\u003c".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(json.utf8.count + 64)
        for byte in json.utf8 {
            if byte == UInt8(ascii: "<") { out += escaped } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
