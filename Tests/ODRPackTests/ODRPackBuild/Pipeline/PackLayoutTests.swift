import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackPlatform

/// `--layout folder` and `--sign-command` (docs/build-output.md), through the binary.
@Suite struct PackLayoutTests {
    let game = BuildCommandTests()

    /// Every file and folder under `folder` with its mode, modification time and bytes.
    func tree(_ folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)!
        while let relative = enumerator.nextObject() as? String {
            let status = try SystemCall.requireStatus(
                FilePath(folder).joined(relative), followingLinks: false, .named(.stat, relative))
            let bytes =
                status.kind == .regular
                ? (FileManager.default.contents(atPath: folder + "/" + relative).map(sha256Hex) ?? "?") : "dir"
            result[relative] = "\(String(status.mode, radix: 8)) \(status.stamp.modificationNanoseconds) \(bytes)"
        }
        return result
    }

    func packs(_ project: TemporaryProject, _ output: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: project.path(output + "/odrpack-manifest.json")))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["packs"] as! [[String: Any]]
    }

    func assetPackManifest(_ project: TemporaryProject, _ output: String) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: project.path(output + "/AssetPackManifestTemplate.plist")))
        let resources =
            (try PropertyListSerialization.propertyList(from: data, format: nil) as! [String: Any])["resources"]
            as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: resources.map { ($0["bundleKey"] as! String, $0) })
    }

    /// A pack file name of the full 240 bytes (docs/manifest.md#pack-identity) builds, signs, verifies and embeds: no temporary name may
    /// grow it past the 255 bytes a file name can have.
    @Test(arguments: [
        ["--layout", "zip"], ["--layout", "folder"],
        ["--sign-command", "mkdir {}/_CodeSignature && touch {}/_CodeSignature/CodeResources"],
    ])
    func fullLengthPackNamesBuildVerifyAndEmbed(options: [String]) throws {
        let project = try TemporaryProject()
        let tag = String(repeating: "é", count: 150)
        try project.manifest(
            "version: 1\nbundle-id: com.example.long\nresources-root: R\nresources:\n  - {path: Levels, tags: [\"\(tag)\"]}\n"
        )
        try project.file("R/Levels/a.json", "{}")
        try project.file("Game.app/Levels/a.json", "{}")
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.long"))
        let build = CommandRunner.runInProcess(["build", "-o", project.path("out")] + options, in: project.root)
        #expect(build.status == 0, "\(build.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources"))
        #expect(names.count == 1 && (231...240).contains(names.first?.utf8.count ?? 0), "\(names)")
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
        let thin = CommandRunner.runInProcess(
            ["thin", project.path("Game.app"), project.path("out"), "--embed"], in: project.root)
        #expect(thin.status == 0, "\(thin.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: project.path("Game.app/OnDemandResources/\(names.first ?? "?")/Levels/a.json")))
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.app/Levels/a.json")))
    }

    @Test func folderPacksAreReproducibleTreesThatVerify() throws {
        let project = try game.gameProject()
        #expect(try game.build(project, project.path("a"), ["--layout", "folder", "--jobs", "1"]).status == 0)
        TestSystem.setMode(project.path("R/Level1/scene.json"), 0o600)
        TestSystem.setTimes(project.path("R/Level2/scene.json"), seconds: 1_234_567_890)
        let oldMask = umask(0o077)
        defer { umask(oldMask) }
        #expect(
            try game.build(project, "b", ["--layout", "folder", "--jobs", "3"], environment: ["TZ": "Asia/Tokyo"])
                .status == 0)
        let a = try tree(project.path("a/OnDemandResources"))
        let b = try tree(project.path("b/OnDemandResources"))
        // 4 pack folders, each with its Info.plist, 6 resources and 5 folders inside them.
        #expect(a.count == 4 + 4 + 6 + 5 && a == b)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: project.path("a/odrpack-manifest.json")))
                == Data(contentsOf: URL(fileURLWithPath: project.path("b/odrpack-manifest.json"))))
        for (path, facts) in a {
            let isFolder = facts.hasSuffix(" dir")
            #expect(facts.hasPrefix(isFolder ? "40755 946684800000000000 " : "100644 946684800000000000 "), "\(path)")
        }
        let plists = try assetPackManifest(project, "a")
        for pack in try packs(project, "a") {
            let folder = project.path("a/" + (pack["file"] as! String))
            // archiveSha256: the SHA-256 of `path NUL size NUL sha256 LF` over every file of the folder in path order.
            var lines = SHA256Hasher()
            var total = 0
            let listing = try tree(folder)
            let files = listing.keys.filter { !listing[$0]!.hasSuffix(" dir") }.sorted { $0.precedesByCodePoint($1) }
            #expect(files.contains("Info.plist"))
            for file in files {
                let data = FileManager.default.contents(atPath: folder + "/" + file)!
                total += data.count
                lines.update("\(file)\0\(data.count)\0\(sha256Hex(data))\n")
            }
            #expect(pack["archiveSize"] as? Int == total)
            #expect(pack["archiveSha256"] as? String == lines.finalize())
            #expect(plists[pack["id"] as! String]?["uncompressedSize"] as? Int == total)
            #expect(
                (plists[pack["id"] as! String]?["URL"] as? String)?.hasSuffix(
                    "/a/" + (pack["file"] as! String).replacingOccurrences(of: "ü", with: "%C3%BC")) == true)
        }
        #expect(CommandRunner.runInProcess(["verify", project.path("a")], in: project.root).status == 0)
    }

    @Test func anEditedFolderPackFailsVerifyAndTheNextBuildRepairsIt() throws {
        let project = try game.gameProject()
        #expect(try game.build(project, project.path("out"), ["--layout", "folder"]).status == 0)
        let pack = try #require(try packs(project, "out").first { ($0["tags"] as? [String]) == ["level2"] })
        let folder = project.path("out/" + (pack["file"] as! String))
        try Data("changed".utf8).write(to: URL(fileURLWithPath: folder + "/Level2/scene.json"))
        let verify = CommandRunner.runInProcess(["verify", project.path("out")], in: project.root)
        #expect(verify.status == 1 && verify.stderr.contains("Level2/scene.json"))
        let repair = try game.buildInfo(try game.build(project, project.path("out"), ["--layout", "folder"]))
        #expect(repair["written"] == [pack["id"] as! String])
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
        // A file added inside a pack is noticed too.
        try Data("stray".utf8).write(to: URL(fileURLWithPath: folder + "/stray.txt"))
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 1)
        #expect(
            try game.buildInfo(try game.build(project, project.path("out"), ["--layout", "folder"]))["written"] == [
                pack["id"] as! String
            ])
        #expect(!FileManager.default.fileExists(atPath: folder + "/stray.txt"))
    }

    @Test func switchingLayoutsLeavesOnlyTheNewOne() throws {
        let project = try game.gameProject()
        #expect(try game.build(project, "out").status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).sorted()
        func kinds() throws -> [Bool] {
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).sorted().map {
                name in
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(
                    atPath: project.path("out/OnDemandResources/" + name), isDirectory: &isFolder)
                return isFolder.boolValue
            }
        }
        #expect(try kinds() == [false, false, false, false])
        #expect(
            try game.buildInfo(try game.build(project, project.path("out"), ["--layout", "folder"]))["written"]?.count
                == 4)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).sorted() == names
        )
        #expect(try kinds() == [true, true, true, true])
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
        #expect(
            try game.buildInfo(try game.build(project, project.path("out"), ["--layout", "zip"]))["written"]?.count == 4
        )
        #expect(try kinds() == [false, false, false, false])
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
    }

    /// A stand-in for codesign: adds `_CodeSignature/CodeResources` listing the pack's files.
    func signer(_ project: TemporaryProject) throws -> String {
        try project.file(
            "sign.sh",
            """
            #!/bin/sh
            set -e
            test -f "$1/Info.plist"
            mkdir -p "$1/_CodeSignature"
            (cd "$1" && find . -type f | LC_ALL=C sort) > "$1/_CodeSignature/CodeResources"
            """)
        TestSystem.setMode(project.path("sign.sh"), 0o755)
        return project.path("sign.sh") + " {}"
    }

    @Test(arguments: ["zip", "folder"])
    func whatTheSignerAddsIsPartOfThePack(layout: String) throws {
        let project = try game.gameProject()
        let output = try game.build(
            project, project.path("out"), ["--layout", layout, "--sign-command", try signer(project)])
        #expect(output.status == 0, "\(output.stderr)")
        let plists = try assetPackManifest(project, "out")
        for pack in try packs(project, "out") {
            let path = project.path("out/" + (pack["file"] as! String))
            let signature: Data
            var contentBytes = 0
            if layout == "zip" {
                let reader = try ZipArchiveReader(path: path, streaming: true)
                var entries: [String: Data] = [:]
                var names: [String] = []
                while let name = try reader.nextEntry() {
                    var data = Data()
                    try reader.readData { data.append(contentsOf: $0) }
                    entries[name] = data
                    names.append(name)
                }
                signature = try #require(entries["_CodeSignature/CodeResources"])
                let files =
                    (pack["files"] as! [[String: Any]]).map { $0["path"] as! String } + ["_CodeSignature/CodeResources"]
                #expect(names == BuildCommandTests.expectedEntries(files: files))
                let metadata =
                    try PropertyListSerialization.propertyList(
                        from: entries["META-INF/com.apple.ZipMetadata.plist"]!, format: nil) as! [String: Any]
                #expect(metadata["RecordCount"] as? Int == names.count - 2)
                contentBytes = names.dropFirst(2).reduce(0) { $0 + entries[$1]!.count }
                #expect(metadata["TotalUncompressedBytes"] as? Int == contentBytes)
            } else {
                signature = try #require(FileManager.default.contents(atPath: path + "/_CodeSignature/CodeResources"))
                contentBytes = pack["archiveSize"] as! Int
            }
            #expect(String(decoding: signature, as: UTF8.self).contains("./Info.plist\n"))
            // The ZipMetadata counts the signature; the asset-pack manifest does not (as in Xcode's exports).
            #expect(plists[pack["id"] as! String]?["uncompressedSize"] as? Int == contentBytes - signature.count)
            #expect(
                contentBytes == (pack["size"] as! Int)
                    + AppleManifests.infoPlist(
                        for: AssetPack(
                            id: pack["id"] as! String, fileName: "", tags: pack["tags"] as! [String],
                            category: .onDemand,
                            priority: pack["priority"] as? Double, size: 0, files: [], firstEntry: nil)
                    ).binaryData().count + signature.count)
        }
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
    }

    @Test func aFailingSignerFailsTheBuildAndKeepsThePreviousOutput() throws {
        let project = try game.gameProject()
        #expect(try game.build(project, "out").status == 0)
        // The files, by bytes, mode and time (a folder's own time changes as temporaries come and go).
        let before = try tree(project.path("out")).filter { !$0.value.hasSuffix(" dir") }
        try project.file("R/Level1/scene.json", "{\"edited\": true}")
        let failed = try game.build(project, project.path("out"), ["--sign-command", "exit 3 {}"])
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("sign command exited with 3"))
        #expect(try tree(project.path("out")).filter { !$0.value.hasSuffix(" dir") } == before)
        #expect(CommandRunner.runInProcess(["verify", project.path("out")], in: project.root).status == 0)
    }
}
