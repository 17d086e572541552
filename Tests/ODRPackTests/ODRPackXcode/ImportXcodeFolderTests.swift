import Foundation
import Testing

@testable import ODRPackXcode

/// import-xcode on small generated projects (docs/xcode.md): tagged folders of synchronized folders, missing tagged
/// files, version-control metadata, group cycles anywhere, and deep nesting.
extension ImportXcodeTests {
    /// A project whose main group `G1` holds `children`, with `objects` added and the target's resources phase
    /// holding `buildFiles` and its synchronized folders `synchronized`.
    static func pbxproj(
        objects: String, mainChildren: String, buildFiles: String = "", synchronized: String = ""
    ) -> String {
        """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 77; objects = {
        \(objects)
          G1 = {isa = PBXGroup; children = (\(mainChildren)); sourceTree = "<group>"; };
          P1 = {isa = PBXResourcesBuildPhase; files = (\(buildFiles)); };
          T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1, ); fileSystemSynchronizedGroups = (\(synchronized)); name = App; productType = "com.apple.product-type.application"; };
          C1 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.example.sync; SDKROOT = iphoneos; }; name = Release; };
          L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
          R1 = {isa = PBXProject; mainGroup = G1; targets = (T1, ); };
        }; rootObject = R1; }
        """
    }

    /// The Sync project: a synchronized folder `Sync` whose folder `Levels` is tagged, with a .lproj folder, an
    /// explicit folder, a membership exception, hidden and version-control files inside; a tagged file key and a
    /// classic file reference that are missing; version-control names tagged both ways.
    func syncProject() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.folder("App.xcodeproj")
        try project.file(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                objects: """
                      F1 = {isa = PBXFileReference; path = "gone\u{2028}.png"; sourceTree = "<group>"; };
                      B1 = {isa = PBXBuildFile; fileRef = F1; settings = {ASSET_TAGS = (gone, ); }; };
                      F2 = {isa = PBXFileReference; path = Sub/.git; sourceTree = "<group>"; };
                      B2 = {isa = PBXBuildFile; fileRef = F2; settings = {ASSET_TAGS = (vcs, ); }; };
                      X1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Levels/Boss/skip.png, Levels/Cut, ); assetTagsByRelativePath = { Levels = (levels, ); "Levels/CVS" = (vcs, ); "missing.png" = (lost, ); }; target = T1; };
                      S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (X1, ); explicitFolders = (Levels/Explicit, ); path = Sync; sourceTree = "<group>"; };
                    """,
                mainChildren: "S1, F1, F2, ", buildFiles: "B1, B2, ", synchronized: "S1, "))
        for file in [
            "Levels/a.png", "Levels/Boss/b.png", "Levels/Boss/skip.png", "Levels/Cut/c.png",
            "Levels/en.lproj/t.strings",
            "Levels/en.lproj/Deep/d.png", "Levels/Explicit/e.png", "Levels/Explicit/In/f.png", "Levels/.gitkeep",
            "Levels/.svn/entries", "Levels/Boss/.hidden/h.png",
        ] {
            try project.file("Sync/" + file, file)
        }
        try project.file("Sub/.git", "gitdir: /home/someone/secret/.git/modules/Sub")
        return project
    }

    /// A tagged folder of a synchronized folder is entries naming its folders (globs), not today's files one by one:
    /// a file added later gets the tag as Xcode gives it. Missing tagged files are written all the same, one note
    /// line each, for classic references and synchronized folders alike; version-control metadata gets no entry.
    @Test func aTaggedSynchronizedFolderIsNamedNotListed() throws {
        let project = try syncProject()
        let imported = try CommandRunner.run(["import-xcode", "App.xcodeproj"], in: project.root)
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        let entries = text.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map {
            String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
        }
        #expect(
            entries == [
                "- glob: \"Sync/Levels/*\"",
                "- glob: \"Sync/Levels/Boss/**\"",
                "- path: \"Sync/Levels/Explicit\"",
                "- glob: \"Sync/Levels/en.lproj/*\"",
                "- glob: \"Sync/Levels/en.lproj/Deep/**\"",
                "- path: \"Sync/missing.png\"",
                "- path: \"gone\\u2028.png\"",
            ], "\(text)")
        #expect(!text.contains("CVS") || !entries.contains { $0.contains("CVS") })
        #expect(!entries.contains { $0.contains(".git") || $0.contains(".svn") })
        #expect(
            text.contains(
                "exclude: [\"Sync/Levels/**/.*\", \"Sync/Levels/**/.*/**\", \"Sync/Levels/Boss/skip.png\", \"Sync/Levels/Cut/**\"]\n"
            ), "\(text)")
        // One note line per missing file, the line separator in a name replaced: no line of the YAML breaks.
        let notes = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            $0.contains("does not exist")
        }
        #expect(notes.count == 2, "\(text)")
        #expect(notes.allSatisfy { $0.hasPrefix("#   - '") })
        #expect(notes.contains { $0.hasPrefix("#   - 'gone .png' is tagged (ASSET_TAGS) but does not exist") })
        #expect(notes.contains { $0.hasPrefix("#   - 'Sync/missing.png' is tagged (assetTagsByRelativePath)") })
        #expect(!text.unicodeScalars.contains { [0x85, 0x2028, 0x2029].contains($0.value) })
        // Missing files: plan says path-not-found, for both kinds alike.
        let missing = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(missing.status == 1)
        let codes = ((try missing.json()["diagnostics"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }
        #expect(codes.filter { $0 == "path-not-found" }.count == 2, "\(codes)")

        try project.file("gone\u{2028}.png", "g")
        try project.file("Sync/missing.png", "m")
        // Added after the import: a file in a tagged folder, and one in a folder that did not exist.
        try project.file("Sync/Levels/Boss/Later/new.png", "new")
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stderr)\(plan.stdout)")
        let packs = Self.packContents(try plan.json())
        #expect(
            packs["levels"]?.sorted() == [
                "Explicit/In/f.png", "Explicit/e.png", "a.png", "b.png", "d.png", "en.lproj/t.strings", "new.png",
            ], "\(packs)")
        #expect(packs["gone"] == ["gone\u{2028}.png"] && packs["lost"] == ["missing.png"])
        #expect(packs["vcs"] == nil)
    }

    /// A tagged folder with nothing Xcode places apart is one glob at the bundle's root.
    @Test func aPlainTaggedFolderIsOneGlob() throws {
        let project = try TemporaryProject()
        try project.folder("App.xcodeproj")
        try project.file(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                objects: """
                      X1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; assetTagsByRelativePath = { "Art[1]*" = (art, ); }; target = T1; };
                      S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (X1, ); path = Sync; sourceTree = "<group>"; };
                    """,
                mainChildren: "S1, ", synchronized: "S1, "))
        try project.file("Sync/Art[1]*/x/y.png", "y")
        #expect(try CommandRunner.run(["import-xcode", "App.xcodeproj"], in: project.root).status == 0)
        let text = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        #expect(
            text.contains(
                "  - glob: \"Sync/Art\\\\[1]\\\\*/**\"   # assetTagsByRelativePath\n    tags: [\"art\"]\n    into: \".\"\n"
            ), "\(text)")
        try project.file("Sync/Art[1]*/z.png", "z")
        try project.file("Sync/Art[1]x/no.png", "no")
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(Self.packContents(try plan.json())["art"]?.sorted() == ["y.png", "z.png"])
    }

    /// A cycle among groups the main group reaches is exit 2 even when no tagged file's path goes through it.
    @Test func aCycleOffEveryTaggedPathIsRefused() throws {
        let project = try TemporaryProject()
        try project.folder("App.xcodeproj")
        try project.file(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                objects: """
                      F1 = {isa = PBXFileReference; path = x.png; sourceTree = "<group>"; };
                      B1 = {isa = PBXBuildFile; fileRef = F1; settings = {ASSET_TAGS = (a, ); }; };
                      G2 = {isa = PBXGroup; children = (G3, ); path = two; sourceTree = "<group>"; };
                      G3 = {isa = PBXGroup; children = (G4, ); path = three; sourceTree = "<group>"; };
                      G4 = {isa = PBXGroup; children = (G2, ); path = four; sourceTree = "<group>"; };
                    """,
                mainChildren: "F1, G2, ", buildFiles: "B1, "))
        try project.file("x.png", "x")
        let output = try CommandRunner.run(["import-xcode", "App.xcodeproj"], in: project.root)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains("cycle") && output.stderr.contains("App.xcodeproj"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("odrpack.yml")))
    }

    /// 20,000 nested groups, a tagged file at the bottom: time linear in the depth (it was quadratic: 43 s), no
    /// recursion to overflow the stack.
    /// 20,000 nested groups: the time limit is a hang guard (the import was quadratic in depth), not a measurement.
    @Test(.timeLimit(.minutes(1))) func deeplyNestedGroupsImportQuickly() throws {
        let depth = 20_000
        let project = try TemporaryProject()
        try project.folder("App.xcodeproj")
        var objects = """
              F1 = {isa = PBXFileReference; path = x.png; sourceTree = "<group>"; };
              B1 = {isa = PBXBuildFile; fileRef = F1; settings = {ASSET_TAGS = (deep, ); }; };\n
            """
        for level in 0..<depth {
            let child = level == depth - 1 ? "F1" : "N\(level + 1)"
            objects +=
                "  N\(level) = {isa = PBXGroup; children = (\(child), ); path = d; sourceTree = \"<group>\"; };\n"
        }
        try project.file(
            "App.xcodeproj/project.pbxproj", Self.pbxproj(objects: objects, mainChildren: "N0, ", buildFiles: "B1, "))
        let output = try CommandRunner.run(["import-xcode", "App.xcodeproj"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(contentsOfFile: project.path("odrpack.yml"), encoding: .utf8)
        let path = Array(repeating: "d", count: depth).joined(separator: "/") + "/x.png"
        #expect(text.contains("  - path: \"\(path)\""))
        // The same depth with a cycle at the bottom: found, not a hang.
        try project.file(
            "App.xcodeproj/project.pbxproj",
            Self.pbxproj(
                objects: objects.replacingOccurrences(of: "children = (F1, )", with: "children = (F1, N0, )"),
                mainChildren: "N0, ", buildFiles: "B1, "))
        let cyclic = try CommandRunner.run(["import-xcode", "App.xcodeproj", "--force"], in: project.root)
        #expect(cyclic.status == 2 && cyclic.stderr.contains("cycle"), "\(cyclic.stderr)")
    }
}
