import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackPlatform

/// docs/build-output.md#ownership and #atomic through the binary: a build creates, replaces or removes only what the
/// build manifest already in DIR names, its temporaries and its lock; it refuses, before writing anything, a folder it
/// cannot write without touching the user's; a failure in its commit leaves DIR as the previous build left it.
@Suite struct OwnershipTests {
    func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.own
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {path: B, tags: [b]}
            """)
        try project.file("R/A/one.json", "{\"a\": 1}")
        try project.file("R/B/two.json", "{\"b\": 2}")
        return project
    }

    func build(_ project: TemporaryProject, _ extra: [String] = [], output: String = "out") throws
        -> CommandRunner.Output
    {
        try CommandRunner.run(["build", "-o", output, "--json"] + extra, in: project.root)
    }

    /// Every file, folder and link under `path` (links by their target, folders as "/").
    static func snapshot(_ path: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for entry in try FolderWalk.entries(under: FilePath(path)) {
            let full = path + "/" + entry.path
            switch entry.status.kind {
            case .directory: result[entry.path] = Data("/".utf8)
            case .symbolicLink:
                result[entry.path] = Data(
                    ("-> " + (try FileManager.default.destinationOfSymbolicLink(atPath: full))).utf8)
            default: result[entry.path] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return result
    }

    func packNames(_ project: TemporaryProject, _ folder: String = "out") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: project.path(folder + "/OnDemandResources")).sorted()
    }

    @Test func anEmptyOutputIsABadCommandLine() throws {
        let project = try project()
        let before = try Self.snapshot(project.root.path)
        let output = try CommandRunner.run(["build", "-o", ""], in: project.root)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("odrpack: error: --output is empty"), "\(output.stderr)")
        #expect(try Self.snapshot(project.root.path) == before)
    }

    /// The user's files beside and inside the build's folders stay, byte for byte, through builds that add, replace
    /// and remove packs; each one left in OnDemandResources/ is an `output-foreign-file` warning.
    @Test func theUsersFilesStayAndThoseInOnDemandResourcesAreNamed() throws {
        let project = try project()
        #expect(try build(project).status == 0)
        try project.file("outside.txt", "outside")
        try project.file("out/notes.txt", "notes")
        try project.file("out/BackgroundAssets/mine.aar", "not odrpack's")
        try project.file("out/OnDemandResources/mine.assetpack", "not odrpack's")
        try project.file("out/OnDemandResources/Folder.assetpack/Info.plist", "not odrpack's")
        try project.symlink("out/OnDemandResources/away.assetpack", to: project.path("outside.txt"))
        let user = [
            "outside.txt", "out/notes.txt", "out/BackgroundAssets/mine.aar", "out/OnDemandResources/mine.assetpack",
            "out/OnDemandResources/Folder.assetpack/Info.plist",
        ]
        let bytes = try user.map { try Data(contentsOf: project.root.appendingPathComponent($0)) }
        // Pack b goes, pack c comes, pack a changes.
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.own
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {path: C, tags: [c]}
            """)
        try project.file("R/A/one.json", "{\"a\": 11}")
        try project.file("R/C/three.json", "{}")
        let output = try build(project)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try user.map { try Data(contentsOf: project.root.appendingPathComponent($0)) } == bytes)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: project.path("out/OnDemandResources/away.assetpack")) == project.path("outside.txt"))
        let removed = try #require((try output.json()["build"] as? [String: [String]])?["removed"])
        #expect(removed.count == 1 && removed[0].contains(".b-"), "\(removed)")
        let foreign = try #require(try output.json()["diagnostics"] as? [[String: Any]]).filter {
            $0["code"] as? String == "output-foreign-file"
        }
        #expect(
            foreign.compactMap { $0["subject"] as? String } == [
                "out/OnDemandResources/Folder.assetpack", "out/OnDemandResources/away.assetpack",
                "out/OnDemandResources/mine.assetpack",
            ])
        #expect(foreign.allSatisfy { $0["severity"] as? String == "warning" })
        // Printed like every diagnostic.
        let text = try CommandRunner.run(["build", "-o", "out", "--no-cache"], in: project.root)
        #expect(text.stderr.contains("warning: 'out/OnDemandResources/mine.assetpack' was not written by odrpack"))
        #expect(text.stderr.contains("[output-foreign-file]"), "\(text.stderr)")
    }

    /// A user's file where the build must write is exit 2 naming it, before anything is written; so is a folder the
    /// build writes in that is a link, and resources-root inside what the build writes.
    @Test func whatStandsInTheWayIsRefusedBeforeAnythingIsWritten() throws {
        let project = try project()
        #expect(try build(project, output: "clean").status == 0)
        let pack = try #require(try packNames(project, "clean").first)
        try project.file("out/OnDemandResources/" + pack, "the user's file of that name")
        try project.file("out/keep.txt", "keep")
        var before = try Self.snapshot(project.path("out"))
        let inTheWay = try build(project)
        #expect(inTheWay.status == 2)
        #expect(inTheWay.stderr.contains("'out/OnDemandResources/\(pack)' is in the way"), "\(inTheWay.stderr)")
        #expect(try Self.snapshot(project.path("out")) == before)

        // A linked OnDemandResources/ (of the user's or not) is never written through.
        try FileManager.default.removeItem(atPath: project.path("out/OnDemandResources"))
        try project.folder("elsewhere")
        try project.symlink("out/OnDemandResources", to: project.path("elsewhere"))
        before = try Self.snapshot(project.path("out"))
        let linked = try build(project)
        #expect(linked.status == 2 && linked.stderr.contains("is a symbolic link"), "\(linked.stderr)")
        #expect(try Self.snapshot(project.path("out")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("elsewhere")).isEmpty)

        // A folder of the user's where the manifest goes, and a user's plist where a plist goes.
        for path in ["mine/odrpack-manifest.json/notes.txt", "plist/OnDemandResources.plist"] {
            try project.file(path, "the user's")
            let folder = String(path.prefix { $0 != "/" })
            before = try Self.snapshot(project.path(folder))
            let refused = try build(project, output: folder)
            #expect(refused.status == 2 && refused.stderr.contains("is in the way"), "\(refused.stderr)")
            #expect(try Self.snapshot(project.path(folder)) == before)
        }
    }

    /// `resources-root: OnDemandResources` with `-o .`: the build would replace the resources. Refused, every source
    /// file left as it was, and no lock file left among them.
    @Test(arguments: ["odr", "background-assets"])
    func resourcesRootInsideWhatTheBuildWritesIsRefused(format: String) throws {
        let project = try TemporaryProject()
        let folder = format == "odr" ? "OnDemandResources" : "BackgroundAssets"
        try project.manifest(
            "version: 1\nbundle-id: com.example.own\nresources-root: \(folder)\nresources:\n  - {path: A, tags: [a]}\n")
        try project.file("\(folder)/A/one.json", "{}")
        try project.file("\(folder)/x.assetpack", "a source file")
        try project.file("\(folder)/x.aar", "a source file")
        let before = try Self.snapshot(project.root.path)
        let output = try CommandRunner.run(
            ["build", "-o", ".", "--format", format]
                + (format == "odr" ? [] : ["--ba-package", BackgroundAssetsFixture.packagerCommand]),
            in: project.root)
        #expect(output.status == 2)
        #expect(output.stderr.contains("resources-root") && output.stderr.contains("inside it"), "\(output.stderr)")
        #expect(try Self.snapshot(project.root.path) == before)
    }

    /// A resources-root inside the packs folder whose first name there starts with a combining mark: "/" and U+0301
    /// are one Character, so `hasPrefix(packs + "/")` missed it and the build went on to write over the resources.
    /// Compared by bytes, it is refused before anything is written.
    @Test func resourcesRootInsideThePacksFolderIsFoundByBytes() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.own
            resources-root: "OnDemandResources/\\u0301res"
            resources:
              - {path: A, tags: [a]}

            """)
        try project.file("OnDemandResources/\u{301}res/A/one.json", "{}")
        let before = try Self.snapshot(project.root.path)
        let output = try CommandRunner.run(["build", "-o", "."], in: project.root)
        #expect(output.status == 2)
        #expect(
            output.stderr.hasSuffix(
                "is './OnDemandResources' or inside it, the folder the build writes its packs in: the build would replace your resources; write the build to another folder\n"
            ), "\(output.stderr)")
        #expect(try Self.snapshot(project.root.path) == before)
    }

    /// One folder holds one format: a build of the other one is refused, both ways, and the folder stays as it was.
    @Test func aFolderHoldingTheOtherFormatIsRefused() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.run(["build", "-o", "odr"]).status == 0)
        #expect(try fixture.build(output: "ba").status == 0)
        for (folder, other) in [("odr", true), ("ba", false)] {
            let before = try Self.snapshot(fixture.project.path(folder))
            let output = other ? try fixture.build(output: folder) : try fixture.run(["build", "-o", folder])
            #expect(output.status == 2)
            #expect(output.stderr.contains("one folder holds one format"), "\(output.stderr)")
            #expect(try Self.snapshot(fixture.project.path(folder)) == before)
        }
    }

    /// An ODR folder's BackgroundAssets/ and a Background Assets folder's OnDemandResources/ and plists are the
    /// user's: each build leaves them.
    @Test func eachFormatLeavesTheOthersNamesAlone() throws {
        let fixture = try BackgroundAssetsFixture()
        try fixture.project.file("odr/BackgroundAssets/x.aar", "mine")
        try fixture.project.file("odr/BackgroundAssets/AssetPackTags.json", "mine")
        try fixture.project.file("ba/OnDemandResources/x.assetpack", "mine")
        try fixture.project.file("ba/OnDemandResources.plist", "mine")
        try fixture.project.file("ba/AssetPackManifestTemplate.plist", "mine")
        let before = (
            try Self.snapshot(fixture.project.path("odr/BackgroundAssets")),
            try Self.snapshot(fixture.project.path("ba/OnDemandResources"))
        )
        for _ in 0..<2 {
            #expect(try fixture.run(["build", "-o", "odr"]).status == 0)
            #expect(try fixture.build(output: "ba").status == 0)
        }
        #expect(try Self.snapshot(fixture.project.path("odr/BackgroundAssets")) == before.0)
        #expect(try Self.snapshot(fixture.project.path("ba/OnDemandResources")) == before.1)
        #expect(try fixture.text("ba/OnDemandResources.plist") == "mine")
        #expect(try fixture.text("ba/AssetPackManifestTemplate.plist") == "mine")
    }

    /// A failure inside the commit (a pack or a document that cannot be replaced: an immutable file, which root cannot
    /// rename either) rolls back: DIR is byte for byte as the previous build left it, and verify passes.
    @Test(
        .enabled(if: SystemAbilities.canMakeImmutable, "needs root and chattr"),
        arguments: ["pack", "plist", "manifest"])
    func aFailureInTheCommitLeavesThePreviousBuild(blocked: String) throws {
        let project = try project()
        #expect(try build(project).status == 0)
        let names = try packNames(project)
        let path = project.path(
            blocked == "pack"
                ? "out/OnDemandResources/" + names[1]
                : blocked == "plist" ? "out/OnDemandResources.plist" : "out/odrpack-manifest.json")
        let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
        try #require(try CommandRunner.run(["+i", path], executable: chattr).status == 0, "chattr +i was refused")
        defer { _ = try? CommandRunner.run(["-i", path], executable: chattr) }
        let before = try Self.snapshot(project.path("out"))
        // Pack a changes (placed first), b changes too, and a new tag changes the plist.
        try project.file("R/A/one.json", "{\"a\": 111}")
        try project.file("R/B/two.json", "{\"b\": 222}")
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.own
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {path: B, tags: [b]}
              - {path: B/two.json, tags: [extra]}
            """)
        let failed = try build(project)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(try Self.snapshot(project.path("out")) == before)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        _ = try CommandRunner.run(["-i", path], executable: chattr)
        #expect(try build(project).status == 0)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// A DIR a killed commit left (the previous manifest kept as the journal, some packs already replaced): the next
    /// build owns what the interrupted one did, recovers completely (exactly what a clean build writes) and removes
    /// the journal.
    @Test func theBuildAfterAnInterruptedCommitRecoversIt() throws {
        let project = try project()
        #expect(try build(project).status == 0)
        try project.file("R/A/one.json", "{\"a\": 2}")
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.own
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {path: B, tags: [b]}
              - {path: B/two.json, tags: [extra]}
            """)
        #expect(try build(project, output: "clean").status == 0)
        // As a kill after the first placements leaves it: the journal, the record, a new pack in place, no manifest.
        try FileManager.default.moveItem(
            atPath: project.path("out/odrpack-manifest.json"),
            toPath: project.path("out/" + OutputOwnership.journalName))
        let new = try #require(try packNames(project, "clean").first { !(try packNames(project)).contains($0) })
        try FileManager.default.copyItem(
            atPath: project.path("clean/OnDemandResources/" + new), toPath: project.path("out/OnDemandResources/" + new)
        )
        try Data(("OnDemandResources/" + new + "\0").utf8).write(
            to: project.root.appendingPathComponent("out/" + OutputOwnership.writesName))
        let rebuilt = try build(project)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        var clean = try Self.snapshot(project.path("clean"))
        var out = try Self.snapshot(project.path("out"))
        // The template's URLs hold each folder's absolute path.
        clean["AssetPackManifestTemplate.plist"] = nil
        out["AssetPackManifestTemplate.plist"] = nil
        #expect(out == clean)
    }

    /// A record of an interrupted commit that is there but cannot be read (a folder: EISDIR) stops the build with
    /// its path and errno (exit 2) before anything changes: read as absent, the build would forget what the
    /// interrupted commit created.
    @Test func anUnreadableCommitRecordStopsTheBuild() throws {
        let project = try project()
        #expect(try build(project).status == 0)
        try project.file("R/A/one.json", "{\"a\": 2}")
        try FileManager.default.createDirectory(
            atPath: project.path("out/" + OutputOwnership.writesName), withIntermediateDirectories: false)
        let before = try Self.snapshot(project.path("out"))
        let failed = try CommandRunner.run(["build", "-o", "out"], in: project.root)
        #expect(failed.status == 2)
        #expect(
            failed.stderr
                == """
                odrpack: error: cannot read the record of an interrupted build's commit \
                '\(project.path("out/" + OutputOwnership.writesName))': Is a directory

                """)
        #expect(try Self.snapshot(project.path("out")) == before)
    }

    /// After `--sign-command`, the pack's Info.plist and every resource must still be there with their bytes.
    @Test(arguments: [
        "rm {}/Info.plist", "rm {}/A/one.json", "echo x >> {}/A/one.json", "echo x >> {}/Info.plist",
    ])
    func aSignerThatRemovesOrChangesAPacksFileFailsTheBuild(command: String) throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.own\nresources-root: R\nresources:\n  - {path: A, tags: [a]}\n")
        try project.file("R/A/one.json", "{}")
        for layout in ["zip", "folder"] {
            let output = try build(project, ["--layout", layout, "--sign-command", command], output: layout)
            #expect(output.status == 2, "\(layout): \(command)")
            #expect(output.stderr.contains("pack 'a'"), "\(output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: project.path(layout + "/odrpack-manifest.json")))
        }
        // A signer that only adds files passes.
        let adds = try build(
            project,
            [
                "--layout", "folder", "--sign-command",
                "mkdir {}/_CodeSignature && echo s > {}/_CodeSignature/CodeResources",
            ], output: "signed")
        #expect(adds.status == 0, "\(adds.stderr)")
    }
}
