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
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath)
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
        let tricky = try #require(try ProjectPlanner().plan(manifestPath: project.manifestPath).plan)
        let page = ReportModel(plan: tricky, diagnostics: [], manifestPath: "odrpack.yml").html
        #expect(page.components(separatedBy: "</script>").count == 3)
    }
}
