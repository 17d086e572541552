import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform
@testable import ODRPackReport

/// What the HTML report is built from (docs/commands.md#report-and-ci): the treemap's tiles, the limits, the tables and the page.
@Suite struct ReportModelTests {
    func resource(_ path: String, _ size: Int64) -> ResolvedResource {
        ResolvedResource(
            path: path, size: size,
            stamp: FileStamp(size: size, modificationNanoseconds: 0, changeNanoseconds: 0, inode: 0, device: 0),
            tags: [], firstEntry: nil)
    }

    @Test func aFolderOfManySmallFilesBecomesFewTilesThatKeepEveryByte() {
        var files = (0..<1000).map { (path: "Catalog/Items/item\($0).json", size: Int64(100 + $0)) }
        files.append((path: "Catalog/big.bin", size: 1_000_000))
        let node = TreemapNode.pack(name: "catalog", group: "on-demand", files: files, keep: 40)
        #expect(node.size == files.reduce(0) { $0 + $1.size })
        #expect(node.fileCount == 1001)
        // "Catalog" holds only "Items" and one file, so it stays; "Items" shows the 40 largest and one group.
        let catalog = try! #require(node.children.first)
        #expect(catalog.name == "Catalog")
        let items = try! #require(catalog.children.first { $0.name == "Items" })
        #expect(items.children.count == 41)
        #expect(items.children.first { $0.groupedFiles == 0 }?.name == "item999.json")
        let group = try! #require(items.children.first { $0.groupedFiles > 0 })
        #expect(group.groupedFiles == 960 && group.name == "960 smaller files")
        #expect(group.size == (0..<960).reduce(Int64(0)) { $0 + 100 + Int64($1) })
        // Children are biggest first, and a chain of single folders is one tile.
        let chain = TreemapNode.pack(
            name: "p", group: "prefetch", files: [("A/B/C/x.bin", 5), ("A/B/C/y.bin", 7)], keep: 40)
        #expect(chain.children.map(\.name) == ["A/B/C"])
        #expect(chain.children.first?.children.map(\.name) == ["y.bin", "x.bin"])
    }

    /// A pack over the hard limit gets pack-too-large, not over-recommended-size: the amber recommended-size gauge says
    /// why the problems list has no warning for it (issue 45); without that error the gauge keeps its plain name.
    @Test func theAmberGaugeSaysWhyItsWarningIsNotListed() throws {
        func gaugeName(packSize: Int) throws -> (name: String, codes: [String]) {
            let project = try TemporaryProject()
            try project.manifest(
                """
                version: 1
                bundle-id: com.example.report
                resources-root: R
                resources:
                  - {path: A, tags: [alpha]}
                limits: {max-pack-size: 100B, recommended-size: 50B, max-tag-size: 100B}
                """)
            try project.file("R/A/a.json", String(repeating: "a", count: packSize))
            let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
            let model = ReportModel(plan: try #require(result.plan), diagnostics: result.diagnostics, manifestPath: "x")
            guard case .object(let fields) = model.document,
                case .array(let limits)? = fields.first(where: { $0.0 == "limits" })?.1
            else { return ("", []) }
            for case .object(let row) in limits
            where row.contains(where: { $0.0 == "key" && $0.1 == .string("recommended-size") }) {
                if case .string(let name)? = row.first(where: { $0.0 == "name" })?.1 { return (name, result.codes) }
            }
            return ("", result.codes)
        }
        let over = try gaugeName(packSize: 120)
        #expect(over.codes == ["pack-too-large"])  // the pack is its tag's only pack: one diagnostic
        #expect(
            over.name
                == """
                largest pack or tag (recommended) (past the recommended size: no over-recommended-size warning is \
                listed because the largest pack is over the hard limit, reported as pack-too-large)
                """)
        let warned = try gaugeName(packSize: 70)
        #expect(warned.codes == ["over-recommended-size"])
        #expect(warned.name == "largest pack or tag (recommended)")
    }

    @Test func theModelNamesEveryPackTagLimitAndProblem() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.report
            resources-root: R
            profile: ios
            resources:
              - {path: A, tags: [alpha]}
              - {path: B, tags: [alpha, beta]}
            initial-install: [alpha]
            limits: {max-pack-count: 1}
            """)
        try project.file("R/A/a.json", String(repeating: "a", count: 300))
        try project.file("R/B/b.json", "b")
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
        let plan = try #require(result.plan)
        let model = ReportModel(plan: plan, diagnostics: result.diagnostics, manifestPath: "odrpack.yml")
        guard case .object(let fields) = model.document else {
            Issue.record("the document is an object")
            return
        }
        let document = Dictionary(fields, uniquingKeysWith: { first, _ in first })
        guard case .array(let packs)? = document["packs"], case .array(let limits)? = document["limits"],
            case .array(let tagSets)? = document["tagSets"], case .array(let diagnostics)? = document["diagnostics"]
        else {
            Issue.record("packs, limits, tagSets and diagnostics are lists")
            return
        }
        #expect(packs.count == 2 && limits.count == LimitProfile.Key.allCases.count)
        #expect(
            diagnostics.count == result.diagnostics.count && result.diagnostics.contains { $0.code == .tooManyPacks })
        // too-many-packs: the tag sets, most tags first.
        #expect(tagSets.count == 2)
        if case .object(let first)? = tagSets.first {
            #expect(first.first { $0.0 == "tags" }?.1 == .strings(["alpha", "beta"]))
        }
        #expect(model.treemap.size == 301 && model.treemap.children.first?.name == "alpha")

        let html = model.html
        for pack in plan.packs { #expect(html.contains(pack.id)) }
        #expect(
            !html.contains("<script src") && !html.contains("<link") && !html.contains("http://")
                && !html.contains("https://"))
        // The data cannot end its script element early, whatever a file name holds.
        try project.file("R/A/</script><b>.json", "x")
        let tricky = try #require(try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr).plan)
        let page = ReportModel(plan: tricky, diagnostics: [], manifestPath: "odrpack.yml").html
        #expect(page.components(separatedBy: "</script>").count == 3)
    }
}
