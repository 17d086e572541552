import Foundation
import ODRPackCore
import Testing

@testable import ODRPackPlatform

/// docs/commands.md#verify: a verify that means it. A corrupt build manifest is exit 2, whatever command reads it;
/// Apple's plists are regenerated and compared byte for byte; the manifest's own figures are recomputed; a file in
/// OnDemandResources/ that the manifest does not name fails; every problem is a `verify-…` diagnostic; verify reads
/// under a shared lock and refuses a folder an interrupted build left.
@Suite struct VerifyCommandTests {
    let game = BuildCommandTests()

    func built(_ extra: [String] = []) throws -> TemporaryProject {
        let project = try game.gameProject()
        let output = try game.build(project, "out", extra)
        #expect(output.status == 0, "\(output.stderr)")
        return project
    }

    func verify(_ project: TemporaryProject, _ folder: String = "out", json: Bool = false) throws
        -> CommandRunner.Output
    {
        try CommandRunner.run(["verify", folder] + (json ? ["--json"] : []), in: project.root)
    }

    /// The codes of `verify --json`'s diagnostics, sorted, and the document (exit 1 expected).
    func codes(_ project: TemporaryProject) throws -> [String] {
        let output = try verify(project, json: true)
        #expect(output.status == 1, "\(output.stdout)")
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        return diagnostics.compactMap { $0["code"] as? String }.sorted()
    }

    func edit(_ project: TemporaryProject, _ relative: String, _ change: (String) -> String) throws {
        let path = project.path(relative)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = change(text)
        #expect(changed != text, "the edit of \(relative) changed nothing")
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Replaces exactly one occurrence.
    func replacing(_ old: String, _ new: String) -> (String) -> String {
        { text in
            #expect(text.components(separatedBy: old).count == 2, "exactly one '\(old)'")
            return text.replacingOccurrences(of: old, with: new)
        }
    }

    // MARK: 1. A corrupt build manifest is exit 2, for verify, diff and thin.

    /// `null` hashes once skipped every content check, so a pack with swapped content passed.
    @Test func nullHashesAreACorruptManifestNotASkippedCheck() throws {
        let project = try built(["--layout", "folder"])
        try edit(project, "out/odrpack-manifest.json") {
            $0.replacingOccurrences(
                of: #""sha256": "[0-9a-f]{64}""#, with: #""sha256": null"#, options: .regularExpression)
        }
        // The content no longer matches the old hashes: without them nothing would notice.
        let folder = project.path("out/OnDemandResources")
        let pack = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.contains("level1-") })
        let scene = folder + "/" + pack + "/Level1/scene.json"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scene))
        try Data(bytes.reversed()).write(to: URL(fileURLWithPath: scene))
        try project.file("Game.app/Info.plist", "app")
        for command in [["verify", "out"], ["diff", "out", "out"], ["thin", "Game.app", "out"]] {
            let output = try CommandRunner.run(command, in: project.root)
            #expect(output.status == 2, "\(command): \(output.stderr)")
            #expect(output.stderr.contains("a file's sha256 must be a string"), "\(command): \(output.stderr)")
        }
    }

    @Test func aPlanDocumentIsNotABuildManifest() throws {
        let project = try built()
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0)
        try plan.stdout.write(toFile: project.path("out/odrpack-manifest.json"), atomically: true, encoding: .utf8)
        try project.file("Game.app/Info.plist", "app")
        for command in [["verify", "out"], ["diff", "out", "out"], ["thin", "Game.app", "out"]] {
            let output = try CommandRunner.run(command, in: project.root)
            #expect(output.status == 2, "\(command)")
            #expect(output.stderr.contains("a plan --json document has no archive facts"), "\(output.stderr)")
        }
    }

    @Test(arguments: [
        (#""schemaVersion": 1,"#, #""schemaVersion": 1, "x": 1, "priority": 0,"#, "", ""),
        (
            #"\"size\": [0-9]+,\n    \"archiveSize\""#, "\"size\": 99999999999999999999,\n    \"archiveSize\"",
            "totals.size", ""
        ),
        (
            #"\"archiveSize\": [0-9]+,\n      \"archiveSha256\""#, "\"archiveSize\": -1,\n      \"archiveSha256\"",
            "archiveSize must not be negative", ""
        ),
        (#"\"priority\": 1(\.0)?,"#, "\"priority\": 7,", "priority 7.0 is not between 0 and 1", ""),
        (#"\"bundleId\""#, "\"bundleID\"", "missing 'bundleId'", ""),
    ])
    func numbersOutOfRangeAndMissingMembersExitTwo(pattern: String, replacement: String, problem: String, _: String)
        throws
    {
        let project = try built()
        let path = project.path("out/odrpack-manifest.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let range = text.range(of: pattern, options: .regularExpression) else {
            Issue.record("no '\(pattern)' in the manifest")
            return
        }
        try text.replacingCharacters(in: range, with: replacement).write(
            toFile: path, atomically: true, encoding: .utf8)
        let output = try verify(project)
        if problem.isEmpty {
            // Unknown members are skipped: not every edit is corruption.
            #expect(output.status == 0, "\(output.stderr)")
        } else {
            #expect(output.status == 2, "\(output.stderr)")
            #expect(output.stderr.contains(problem), "\(output.stderr)")
        }
    }

    // MARK: 2. Apple's plists, regenerated byte for byte.

    @Test(arguments: ["OnDemandResources.plist", "AssetPackManifestTemplate.plist"])
    func anEditedOrMissingPlistIsADocumentMismatch(name: String) throws {
        let project = try built()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: project.path("out/" + name)))
        bytes[bytes.count - 40] ^= 1
        try bytes.write(to: URL(fileURLWithPath: project.path("out/" + name)))
        let output = try verify(project, json: true)
        #expect(output.status == 1)
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["verify-document-mismatch"])
        #expect(diagnostics.first?["subject"] as? String == name)
        try FileManager.default.removeItem(atPath: project.path("out/" + name))
        let missing = try verify(project)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("[verify-document-mismatch]"), "\(missing.stderr)")
    }

    /// The template's URLs hold the absolute path the build wrote: a moved or copied build folder (a CI artifact)
    /// still verifies, any other URL does not.
    @Test func aMovedBuildFolderVerifiesAndAForeignURLDoesNot() throws {
        let project = try built()
        try FileManager.default.moveItem(atPath: project.path("out"), toPath: project.path("moved ü%"))
        #expect(try verify(project, "moved ü%").status == 0)
        let path = project.path("moved ü%/AssetPackManifestTemplate.plist")
        for (from, to) in [("http://127.0.0.1/", "http://127.0.0.2/"), ("/OnDemandResources/", "/Elsewhere/")] {
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try rewriteURLs(path) { $0.replacingOccurrences(of: from, with: to) }
            let output = try verify(project, "moved ü%")
            #expect(output.status == 1, "\(from)")
            #expect(output.stderr.contains("[verify-document-mismatch]"), "\(output.stderr)")
            try original.write(to: URL(fileURLWithPath: path))
        }
        // One pack's URL elsewhere than the others': the regenerated document gives each the same folder.
        try rewriteURLs(path, onlyFirst: true) { $0.replacingOccurrences(of: "/moved", with: "/other") }
        #expect(try verify(project, "moved ü%").status == 1)
    }

    @Test func aURLPrefixBuildVerifiesAndAnEditedURLDoesNot() throws {
        let project = try built(["--url-prefix", "https://cdn.example.com/odr/"])
        #expect(!FileManager.default.fileExists(atPath: project.path("out/AssetPackManifestTemplate.plist")))
        #expect(try verify(project).status == 0)
        try rewriteURLs(project.path("out/AssetPackManifest.plist"), onlyFirst: true) {
            $0.replacingOccurrences(of: "cdn.example.com", with: "cdn.example.org")
        }
        let output = try verify(project)
        #expect(output.status == 1 && output.stderr.contains("AssetPackManifest.plist"), "\(output.stderr)")
        // Both asset-pack manifests: a build writes one.
        try project.file("out/AssetPackManifestTemplate.plist", "stale")
        #expect(try codes(project).filter { $0 == "verify-document-mismatch" }.count == 1)
    }

    /// Rewrites the `URL` of every resource (or the first) of a binary asset-pack manifest.
    func rewriteURLs(_ path: String, onlyFirst: Bool = false, _ change: (String) -> String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var plist = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        var resources = try #require(plist["resources"] as? [[String: Any]])
        for index in resources.indices where !onlyFirst || index == 0 {
            resources[index]["URL"] = change(try #require(resources[index]["URL"] as? String))
        }
        plist["resources"] = resources
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(
            to: URL(fileURLWithPath: path))
    }

    // MARK: 3. The manifest's own figures.

    /// Each edit keeps the manifest readable and every pack's own record (ids, sizes, hashes) intact: only the figure
    /// catches it.
    @Test(arguments: [
        "totals.size", "totals.archiveSize", "totals.initialInstallSize", "totals.packs", "tag.size", "tag.packs",
        "tag.category", "pack.category", "pack.priority", "initialInstallTags", "prefetchOrder", "tag.missing",
    ])
    func anEditedFigureIsAFiguresMismatch(figure: String) throws {
        let project = try built()
        let manifest = "out/odrpack-manifest.json"
        func bump(_ prefix: String) -> (String) -> String {
            { text in
                let range = text.range(
                    of: NSRegularExpression.escapedPattern(for: prefix) + "[0-9]+", options: .regularExpression)!
                let number = Int(text[range].dropFirst(prefix.count))!
                return text.replacingCharacters(in: range, with: prefix + String(number + 1))
            }
        }
        switch figure {
        case "totals.size": try edit(project, manifest, bump("\"totals\": {\n    \"packs\": 4,\n    \"size\": "))
        case "totals.archiveSize": try edit(project, manifest, bump("    \"archiveSize\": "))
        case "totals.initialInstallSize": try edit(project, manifest, bump("\"initialInstallSize\": "))
        case "totals.packs": try edit(project, manifest, replacing("\"packs\": 4,", "\"packs\": 5,"))
        case "tag.size":
            try edit(
                project, manifest, bump("\"name\": \"level2\",\n      \"category\": \"prefetch\",\n      \"size\": "))
        case "tag.packs":
            try edit(project, manifest) { text in
                let range = text.range(of: #""name": "tutorial",[^\]]*\]"#, options: .regularExpression)!
                return text.replacingCharacters(
                    in: range, with: text[range].replacingOccurrences(of: "\"packs\": [", with: "\"packs\": [\"x\", "))
            }
        case "tag.category":
            try edit(
                project, manifest,
                replacing(
                    "\"name\": \"level2\",\n      \"category\": \"prefetch\"",
                    "\"name\": \"level2\",\n      \"category\": \"on-demand\""))
        case "pack.category":
            try edit(
                project, manifest,
                replacing(
                    "\"category\": \"initial-install\",\n      \"priority\"",
                    "\"category\": \"prefetch\",\n      \"priority\""))
        case "pack.priority":
            try edit(project, manifest) { text in
                let range = text.range(of: #""priority": 0\.05[0-9]*"#, options: .regularExpression)!
                return text.replacingCharacters(in: range, with: "\"priority\": 0.06")
            }
        case "initialInstallTags":
            try edit(
                project, manifest,
                replacing("\"initialInstallTags\": [\"tutorial\"]", "\"initialInstallTags\": [\"nothing\"]"))
        case "prefetchOrder":
            try edit(
                project, manifest,
                replacing("\"prefetchOrder\": [\"level1\", \"level2\"]", "\"prefetchOrder\": [\"level1\", \"level1\"]"))
        default:
            try edit(project, manifest) { text in
                let range = text.range(of: #",\s*\{\s*"name": "tutorial",[^\}]*\}"#, options: .regularExpression)!
                return text.replacingCharacters(in: range, with: "")
            }
        }
        let found = try codes(project)
        #expect(found.contains("verify-figures-mismatch"), "\(found)")
        #expect(
            found.allSatisfy {
                ["verify-figures-mismatch", "verify-document-mismatch", "verify-entry-mismatch"].contains($0)
            })
    }

    /// Background Assets builds: a version is never null (self-hosted devices compare it), and their figures are
    /// checked as an ODR build's.
    @Test func aBackgroundAssetsManifestIsReadAsStrictlyAndItsFiguresChecked() throws {
        let fixture = try BackgroundAssetsFixture()
        #expect(try fixture.build().status == 0)
        #expect(try fixture.run(["verify", "out"]).status == 0)
        let text = try fixture.text("out/odrpack-manifest.json")
        let version = try #require(text.range(of: #""version": 0"#))
        try fixture.project.file(
            "out/odrpack-manifest.json", text.replacingCharacters(in: version, with: #""version": null"#))
        let null = try fixture.run(["verify", "out"])
        #expect(null.status == 2 && null.stderr.contains("a pack's version must be a number"), "\(null.stderr)")
        let size = try #require(text.range(of: #""initialPrefetchSize": "#))
        try fixture.project.file(
            "out/odrpack-manifest.json", text.replacingCharacters(in: size, with: #""initialPrefetchSize": 1"#))
        let figures = try fixture.run(["verify", "out"])
        #expect(figures.status == 1 && figures.stderr.contains("[verify-figures-mismatch]"), "\(figures.stderr)")
    }

    // MARK: 4. Files the manifest does not name.

    @Test func everyNameInThePacksFolderTheManifestDoesNotNameFails() throws {
        let project = try built()
        // What a build killed while writing leaves, beside the packs folder: the previous build still verifies.
        try project.file("out/.odrpack-tmp-123-abc", "a killed build's")
        #expect(try verify(project).status == 0)
        try project.file("out/OnDemandResources/notes.txt", "mine")
        try project.file("out/OnDemandResources/Extra.assetpack/Info.plist", "mine")
        // A temporary inside the packs folder is no finished build's (an upload of the folder would carry it).
        try project.file("out/OnDemandResources/.odrpack-tmp-123-abc-signing/x", "a killed build's")
        let output = try verify(project, json: true)
        #expect(output.status == 1)
        let document = try output.json()
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == Array(repeating: "verify-foreign-file", count: 3))
        #expect(
            diagnostics.map { $0["subject"] as? String } == [
                "OnDemandResources/.odrpack-tmp-123-abc-signing", "OnDemandResources/Extra.assetpack",
                "OnDemandResources/notes.txt",
            ])
        #expect(
            document["extraArchives"] as? [String] == [".odrpack-tmp-123-abc-signing", "Extra.assetpack", "notes.txt"])
        #expect(try String(contentsOfFile: project.path("out/OnDemandResources/notes.txt"), encoding: .utf8) == "mine")
    }

    // MARK: 5. Diagnostics, on stderr and in --json.

    @Test func everyProblemIsADiagnosticWithACode() throws {
        let project = try built()
        let folder = project.path("out/OnDemandResources")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        try FileManager.default.removeItem(atPath: folder + "/" + names[0])
        let text = try verify(project)
        #expect(text.status == 1)
        #expect(
            text.stderr
                == "error: OnDemandResources/\(names[0]): the pack is missing: build again [verify-missing-pack]\n")
        // One pack of four, and the next step: rebuild with the command that made it (docs/commands.md#verify).
        #expect(
            text.stdout == """
                1 of 4 packs does not match odrpack-manifest.json
                next: build 'out' again with the command that made it, adding --no-cache (odrpack build MANIFEST \
                --output out --no-cache and its other options), then verify it again

                """)
        let json = try verify(project, json: true)
        let document = try json.json()
        #expect(document["problems"] == nil)
        let diagnostic = try #require((document["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic.keys.sorted() == ["code", "column", "file", "line", "message", "severity", "subject"])
        #expect(diagnostic["severity"] as? String == "error")
        #expect(diagnostic["code"] as? String == "verify-missing-pack")
        #expect(diagnostic["subject"] as? String == "OnDemandResources/" + names[0])
        #expect(diagnostic["file"] is NSNull && diagnostic["line"] is NSNull && diagnostic["column"] is NSNull)
        let packs = try #require(document["packs"] as? [[String: Any]])
        #expect(packs.compactMap { $0["status"] as? String }.sorted() == ["mismatch", "ok", "ok", "ok"])
    }

    // MARK: 6. The shared lock.

    /// CRC-32 values are printed in hex, as zip tools print them (docs/commands.md#scripts).
    @Test func aDamagedEntryGivesItsCRCsInHex() throws {
        let project = try built()
        // music.caf is random: stored as it is, so its bytes are in the archive as on disk.
        let music = try Data(contentsOf: project.root.appendingPathComponent("R/Level1/music.caf"))
        let folder = project.path("out/OnDemandResources")
        var damaged = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let url = URL(fileURLWithPath: folder + "/" + name)
            var bytes = try Data(contentsOf: url)
            guard let range = bytes.range(of: music.prefix(64)) else { continue }
            bytes[range.lowerBound + 1000] ^= 0x01
            try bytes.write(to: url)
            damaged += 1
        }
        #expect(damaged == 1)
        let text = try verify(project)
        #expect(text.status == 1)
        let pattern =
            #/its data has CRC-32 0x[0-9a-f]{8}, its local header says 0x[0-9a-f]{8} \[verify-entry-mismatch\]/#
        #expect(text.stderr.contains(pattern), "\(text.stderr)")
    }

    @Test func verifyWaitsForABuildAndNeverCreatesALockFile() throws {
        let project = try built()
        // A folder without a lock file is read without one, and gets none.
        try FileManager.default.removeItem(atPath: project.path("out/.odrpack.lock"))
        #expect(try verify(project).status == 0)
        #expect(!FileManager.default.fileExists(atPath: project.path("out/.odrpack.lock")))

        let lock = Locked<OutputLock?>(
            try OutputLock(folder: FilePath(project.path("out")), fileName: BuildFolder.lockFileName, wait: false) {})
        let (process, said, _) = try CommandRunner.startWaitingForLock(["verify", "out"], in: project.root)
        #expect(said == "odrpack: a build is using 'out': waiting for it to finish\n")
        #expect(process.isRunning)
        lock.withLock { $0 = nil }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    // MARK: 7. An interrupted build.

    @Test func aFolderAnInterruptedBuildLeftIsExitTwo() throws {
        let project = try built()
        try project.file("out/.odrpack-tmp-previous-manifest.json", "{}")
        let output = try verify(project)
        #expect(output.status == 2)
        #expect(output.stderr.contains("was left by an interrupted build"), "\(output.stderr)")
        #expect(output.stderr.contains("run the build again"))
    }

    // MARK: 8. Bounded.

    /// Documents are streamed against what the manifest makes of them: 4 GB plists are a mismatch in bounded memory.
    @Test func hugeDocumentsAreAMismatchInBoundedMemory() throws {
        let project = try built()
        for name in ["OnDemandResources.plist", "AssetPackManifestTemplate.plist"] {
            try FileManager.default.removeItem(atPath: project.path("out/" + name))
            try TestSystem.makeSparseFile(project.path("out/" + name), size: 4 << 30)
        }
        let output = try CommandRunner.run(
            ["-c", "ulimit -v 400000; exec '\(CommandRunner.executable.path)' verify out"],
            in: project.root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stderr.components(separatedBy: "[verify-document-mismatch]").count == 3, "\(output.stderr)")
    }
}
