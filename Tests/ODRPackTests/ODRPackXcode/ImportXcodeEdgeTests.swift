import Foundation
import Testing

@testable import ODRPackXcode

/// import-xcode at its edges (docs/xcode.md): keys of a synchronized folder that reach outside it, names that would
/// break the manifest's comments, and one group with very many children.
extension ImportXcodeTests {
    /// A synchronized folder `Sync` whose exception set holds `tagKeys` (assetTagsByRelativePath) and `exceptions`
    /// (membershipExceptions), both written as pbxproj text.
    func outsideKeyProject(tagKeys: String, exceptions: String) throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.folder("Project/App.xcodeproj")
        try project.file(
            "Project/App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                objects: """
                      X1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (\(exceptions)); assetTagsByRelativePath = { \(tagKeys) }; target = T1; };
                      S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (X1, ); path = Sync; sourceTree = "<group>"; };
                    """,
                mainChildren: "S1, ", synchronized: "S1, "))
        try project.file("Project/Sync/Levels/a.png", "a")
        try project.file("secretdir/id_rsa", "-----BEGIN PRIVATE KEY-----")
        try project.file("Project/other/b.png", "b")
        return project
    }

    /// A key with a `..` component or an absolute path names nothing Xcode applies it to: dropped with one warning
    /// `import-path-outside` each, naming it; resources-root stays the project folder and nothing outside is packed.
    @Test func keysReachingOutsideTheFolderAreDroppedWithAWarning() throws {
        let project = try outsideKeyProject(
            tagKeys: """
                "../../secretdir" = (secret, ); "/etc" = (abs, ); "Levels/../../other" = (up, ); Levels = (levels, );
                """,
            exceptions: "\"../x.png\", \"/tmp/y\", ")
        let output = try CommandRunner.run(
            ["import-xcode", "App.xcodeproj"], in: project.root.appendingPathComponent("Project"))
        #expect(output.status == 0, "\(output.stderr)")
        let warnings = output.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(
            warnings == [
                "warning: assetTagsByRelativePath key '../../secretdir' of synchronized folder 'Sync' reaches outside it, where Xcode never applies it: dropped; name a path inside 'Sync' [import-path-outside]",
                "warning: assetTagsByRelativePath key '/etc' of synchronized folder 'Sync' reaches outside it, where Xcode never applies it: dropped; name a path inside 'Sync' [import-path-outside]",
                "warning: assetTagsByRelativePath key 'Levels/../../other' of synchronized folder 'Sync' reaches outside it, where Xcode never applies it: dropped; name a path inside 'Sync' [import-path-outside]",
                "warning: membershipExceptions key '../x.png' of synchronized folder 'Sync' reaches outside it, where Xcode never applies it: dropped; name a path inside 'Sync' [import-path-outside]",
                "warning: membershipExceptions key '/tmp/y' of synchronized folder 'Sync' reaches outside it, where Xcode never applies it: dropped; name a path inside 'Sync' [import-path-outside]",
            ], "\(output.stderr)")
        let text = try String(contentsOfFile: project.path("Project/odrpack.yml"), encoding: .utf8)
        #expect(text.contains("resources-root: \".\"\n"), "\(text)")
        #expect(!text.contains("secretdir") && !text.contains("/etc") && !text.contains("other/"), "\(text)")
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root.appendingPathComponent("Project"))
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(Self.packContents(try plan.json()) == ["levels": ["a.png"]])
    }

    /// Every line break a name can hold (`\n`, `\r`, U+0085, U+2028, U+2029) becomes a space in the comments: each
    /// note stays one comment line and the manifest plans.
    @Test func lineBreaksInNamesNeverBreakTheManifest() throws {
        let project = try TemporaryProject()
        try project.folder("App.xcodeproj")
        let breaks = ["\\n", "\\r", "\u{85}", "\u{2028}", "\u{2029}"]
        var objects = ""
        var children = ""
        var files = ""
        for (index, mark) in breaks.enumerated() {
            objects += """
                  F\(index) = {isa = PBXFileReference; path = "gone\(mark)\(index).png"; sourceTree = "<group>"; };
                  B\(index) = {isa = PBXBuildFile; fileRef = F\(index); settings = {ASSET_TAGS = (t\(index), ); }; };\n
                """
            children += "F\(index), "
            files += "B\(index), "
        }
        try project.file(
            "App.xcodeproj/project.pbxproj", Self.pbxproj(objects: objects, mainChildren: children, buildFiles: files))
        let output = try CommandRunner.run(["import-xcode", "App.xcodeproj"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let notes = lines.filter { $0.contains("does not exist") }
        #expect(
            notes.map { String($0.prefix(16)) }
                == [
                    "#   - 'gone 0.pn", "#   - 'gone 1.pn", "#   - 'gone 2.pn", "#   - 'gone 3.pn", "#   - 'gone 4.pn",
                ],
            "\(text)")
        #expect(!text.unicodeScalars.contains { [0x0D, 0x85, 0x2028, 0x2029].contains($0.value) })
        #expect(lines.allSatisfy { $0.isEmpty || $0.hasPrefix("#") || $0.first != " " || $0.hasPrefix("  ") })
        let plan = try CommandRunner.run(["validate"], in: project.root)
        #expect(!plan.stderr.contains("manifest-syntax"), "\(plan.stderr)")
    }

    /// One group with many children: the cycle check visits each child once, not the whole list again per child.
    /// Counted, not timed: the work at 40,000 children is four times the work at 10,000 (quadratic was sixteen).
    @Test func oneWideGroupCostsLinearWork() throws {
        func work(_ count: Int) throws -> Int {
            var text = "// !$*UTF8*$!\n{ objects = {\n"
            var children = ""
            for index in 0..<count {
                text += "  F\(index) = {isa = PBXFileReference; path = f\(index).png; sourceTree = \"<group>\"; };\n"
                children += "F\(index), "
            }
            text += "  G1 = {isa = PBXGroup; children = (\(children)); sourceTree = \"<group>\"; };\n"
            text += "  R1 = {isa = PBXProject; mainGroup = G1; targets = (); };\n}; rootObject = R1; }\n"
            let project = try TemporaryProject()
            try project.folder("App.xcodeproj")
            try project.file("App.xcodeproj/project.pbxproj", text)
            let parsed = try XcodeProject(path: project.path("App.xcodeproj"))
            var steps = 0
            #expect(parsed.groupCycle(converted: &steps) == nil)
            return steps
        }
        let small = try work(10_000)
        let large = try work(40_000)
        #expect(small > 0 && large <= 4 * small + 8, "\(small) \(large)")
    }

    /// 100,000 children in one group import in reasonable time (quadratic took over two minutes).
    @Test func aHundredThousandChildrenImport() throws {
        var objects = ""
        var children = ""
        for index in 0..<100_000 {
            objects += "  F\(index) = {isa = PBXFileReference; path = f\(index).png; sourceTree = \"<group>\"; };\n"
            children += "F\(index), "
        }
        objects += """
              T = {isa = PBXFileReference; path = x.png; sourceTree = "<group>"; };
              B = {isa = PBXBuildFile; fileRef = T; settings = {ASSET_TAGS = (x, ); }; };\n
            """
        let project = try TemporaryProject()
        try project.folder("App.xcodeproj")
        try project.file(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(objects: objects, mainChildren: children + "T, ", buildFiles: "B, "))
        try project.file("x.png", "x")
        let output = try CommandRunner.run(["import-xcode", "App.xcodeproj"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        #expect(text.contains("  - path: \"x.png\"   # ASSET_TAGS\n    tags: [\"x\"]\n"), "\(text)")
    }
}
