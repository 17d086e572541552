import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackReport

/// Names are data (docs/commands.md#report-and-ci): no tag or file name can end, alter or empty the page.
@Suite struct ReportPageSafetyTests {
    static let hostile = ["</script>", "<!--<script>", "x\"y'z", "</SCRIPT >", "<\u{2028}>", "a&amp;b"]

    /// The page's data element holds no "<" at all, so the HTML parser never leaves it early nor enters its escaped
    /// states; and the JSON it holds reads back as the same names.
    @Test func namesInTheEmbeddedDataCannotEndThePage() throws {
        let data = JSONValue.object([("names", .strings(Self.hostile))])
        let html = ReportPage.html(title: "odrpack report: </title><script>", data: data)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let embedded = String(html[start.upperBound..<end.lowerBound])
        #expect(!embedded.contains("<"))
        #expect(embedded.contains("\\u003c/script>"))
        let parsed = try JSONSerialization.jsonObject(with: Data(embedded.utf8)) as? [String: [String]]
        #expect(parsed?["names"] == Self.hostile)
        // The title is text: escaped as HTML, never markup.
        #expect(html.contains("<title>odrpack report: &lt;/title&gt;&lt;script&gt;</title>"))
        // What follows the data is the page's own script and end, whole.
        #expect(html.hasSuffix("</script>\n</body>\n</html>\n"))
        #expect(html.components(separatedBy: "<script").count == 3)
    }

    /// Through the binary: a project whose tag and file names hold those strings makes a page with all its parts.
    @Test func aProjectWithHostileNamesMakesAWholeReport() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.names
            resources:
              - {path: "Levels/<!--<script>.json", tags: ["<!--<script>", "<b>"]}
              - {path: "a</script>b.json", tags: ["a'b\\"c"]}
            """)
        try project.file("Levels/<!--<script>.json", "{}")
        try project.file("a</script>b.json", "{}")
        let output = try CommandRunner.run(["report", "--output", "page.html"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let html = try String(contentsOfFile: project.path("page.html"), encoding: .utf8)
        let start = try #require(html.range(of: "id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        #expect(!html[start.upperBound..<end.lowerBound].contains("<"))
        #expect(html.contains("\\u003c!--\\u003cscript>"))
        #expect(html.contains("a\\u003c/script>b.json"))
        #expect(html.hasSuffix("</script>\n</body>\n</html>\n"))
    }
}
