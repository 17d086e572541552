import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// `odrpack build` and `verify` through the binary, as a user runs them.
@Suite struct BuildCommandTests {
    /// Three levels, a shared file, a text file and incompressible media.
    func gameProject() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.build
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
              - {path: Level2, tags: [level2]}
              - {path: Shared/paddle.png, tags: [level1, level2]}
              - {path: "Tutorial/ünïcode name.json", tags: [tutorial]}
            initial-install: [tutorial]
            prefetch-order: [level1, level2]
            """)
        try project.file("R/Level1/scene.json", String(repeating: "{\"tile\": 1, \"enemy\": \"panda\"}\n", count: 400))
        try project.file("R/Level1/music.caf", bytes: randomBytes(50_000, seed: 1))
        try project.file("R/Level2/scene.json", String(repeating: "{\"tile\": 2}\n", count: 300))
        try project.file("R/Level2/Deep/texture.png", bytes: randomBytes(20_000, seed: 2))
        try project.file("R/Shared/paddle.png", bytes: randomBytes(3_000, seed: 3))
        try project.file("R/Tutorial/ünïcode name.json", "{\"step\": 1}")
        try project.file("R/UI/menu.json", "{}")
        return project
    }

    func build(
        _ project: TemporaryProject, _ output: String = "out", _ extra: [String] = [],
        environment: [String: String] = [:]
    ) throws -> CommandRunner.Output {
        // In-process: the build folder by its absolute path (the run's folder is not the process's).
        CommandRunner.runInProcess(
            ["build", "-o", output.hasPrefix("/") ? output : project.path(output), "--json"] + extra, in: project.root,
            environment: environment)
    }

    func buildInfo(_ output: CommandRunner.Output) throws -> [String: [String]] {
        try #require(try output.json()["build"] as? [String: [String]])
    }

    /// Every file of a folder, by relative path.
    func contents(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in enumerator where !url.hasDirectoryPath {
            result[String(url.path.dropFirst(folder.path.count + 1))] = try Data(contentsOf: url)
        }
        return result
    }

    /// What a pack archive must list (docs/build-output.md): META-INF first, then Info.plist, the files and a folder entry for
    /// every folder, in code-point order.
    static func expectedEntries(files: [String]) -> [String] {
        var names = Set(files + ["Info.plist"])
        for file in files {
            var parts = file.split(separator: "/").dropLast()
            while !parts.isEmpty {
                names.insert(parts.joined(separator: "/") + "/")
                parts = parts.dropLast()
            }
        }
        return ["META-INF/", "META-INF/com.apple.ZipMetadata.plist"] + names.sorted { $0.precedesByCodePoint($1) }
    }

    @Test(arguments: ["auto", "store", "deflate"])
    func everyPackStreamsBackThroughItsLocalHeaders(compression: String) throws {
        let project = try gameProject()
        let output = try build(project, "out", ["--compression", compression])
        #expect(output.status == 0, "\(output.stderr)")
        let packs = try #require(try output.json()["packs"] as? [[String: Any]])
        #expect(packs.count == 4)
        for pack in packs {
            let archive = project.path("out/" + (pack["file"] as! String))
            let reader = try ZipArchiveReader(path: archive, streaming: true)
            var names: [String] = []
            var sizes: [String: Int] = [:]
            var metadata = Data()
            while let name = try reader.nextEntry() {
                names.append(name)
                var data = Data()
                try reader.readData { data.append(contentsOf: $0) }
                sizes[name] = data.count
                if name == "META-INF/com.apple.ZipMetadata.plist" {
                    metadata = data
                } else if name != "Info.plist" && !name.hasSuffix("/") {
                    #expect(data == FileManager.default.contents(atPath: project.path("R/" + name)), "\(name)")
                }
            }
            let files = (pack["files"] as! [[String: Any]]).map { $0["path"] as! String }
            #expect(names == Self.expectedEntries(files: files))
            // The ZipMetadata values, computed here from the entries themselves.
            let decoded = try #require(
                try PropertyListSerialization.propertyList(from: metadata, format: nil) as? [String: Any])
            let content = names.dropFirst(2)
            #expect(decoded["Version"] as? Int == 2)
            #expect(decoded["RecordCount"] as? Int == content.count)
            let total: Int = content.reduce(0) { $0 + sizes[$1]! }
            #expect(decoded["TotalUncompressedBytes"] as? Int == total)
            #expect(decoded["StandardDirectoryPerms"] as? Int == 16877)
            #expect(decoded["StandardFilePerms"] as? Int == -32348)
            #expect(decoded.count == 5)
            // Every header field, read byte by byte.
            let directory = try ZipDirectory(path: archive)
            #expect(directory.entries.map(\.name) == names)
            for (entry, local) in zip(directory.entries, directory.locals) {
                #expect(local.flags & 0x8 == 0 && local.flags & 0x800 != 0, "\(entry.name)")
                #expect(entry.flags == local.flags)
                #expect(local.extraIDs.isEmpty && entry.extraLength == 0)
                #expect(entry.versionMadeBy == 0x031E)
                #expect(entry.mode == (entry.name.hasSuffix("/") ? 0o40755 : 0o100644))
                #expect(
                    local.crc == entry.crc && local.size == entry.size && local.compressedSize == entry.compressedSize)
                #expect(local.dosDate == (20 << 9 | 1 << 5 | 1) && local.dosTime == 0)
                switch compression {
                case "store": #expect(entry.method == 0)
                case "deflate":
                    // Every file deflated, except one that deflating did not make smaller: stored (docs/build-output.md).
                    #expect(
                        entry.name.hasSuffix("/")
                            ? entry.method == 0
                            : entry.method == 8
                                ? entry.compressedSize < entry.size : entry.compressedSize == entry.size,
                        "\(entry.name)")
                default: break
                }
            }
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
                let test = Process()
                test.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
                test.arguments = ["-tq", archive]
                test.standardOutput = FileHandle.nullDevice
                try test.run()
                test.waitUntilExit()
                #expect(test.terminationStatus == 0)
            }
        }
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// A file over the 4 MiB whole-entry limit is read twice: first for the CRC its local header needs, then as it is
    /// archived, when its SHA-256 is computed (a stored one's in one pass with the archive's). Clean, and rewritten
    /// at another level from what the cache knows, every digest is swift-crypto's of the bytes.
    @Test func filesOverTheWholeEntryLimitHaveTheirBytesDigests() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.large
            resources-root: R
            resources:
              - {path: Big, tags: [big]}
            """)
        try project.file("R/Big/noise.bin", bytes: randomBytes(5 << 20, seed: 7))
        try project.file("R/Big/text.json", String(repeating: "{\"tile\": 1, \"enemy\": \"panda\"}\n", count: 200_000))
        try project.file("R/Big/small.bin", bytes: randomBytes(600_000, seed: 8))
        for extra in [[], ["--level", "1"]] {
            let output = try build(project, "out", extra)
            #expect(output.status == 0, "\(output.stderr)")
            let pack = try #require((try output.json()["packs"] as? [[String: Any]])?.first)
            let archive = try Data(contentsOf: URL(fileURLWithPath: project.path("out/" + (pack["file"] as! String))))
            #expect(pack["archiveSha256"] as? String == sha256Hex(archive))
            let files = try #require(pack["files"] as? [[String: Any]])
            #expect(files.count == 3)
            for entry in files {
                let source = try Data(contentsOf: URL(fileURLWithPath: project.path("R/" + (entry["path"] as! String))))
                #expect(entry["sha256"] as? String == sha256Hex(source), "\(extra) \(entry["path"]!)")
            }
            #expect(try buildInfo(output)["written"]?.count == 1)
        }
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    @Test func manifestDocumentHasTheBuildFields() throws {
        let project = try gameProject()
        let output = try build(project)
        let onDisk =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json")))
            as! [String: Any]
        let totals = try #require(onDisk["totals"] as? [String: Any])
        let packs = try #require(onDisk["packs"] as? [[String: Any]])
        #expect(totals["archiveSize"] as? Int == packs.reduce(0) { $0 + ($1["archiveSize"] as! Int) })
        for pack in packs {
            let file = project.path("out/" + (pack["file"] as! String))
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(pack["archiveSize"] as? Int == data.count)
            #expect(pack["archiveSha256"] as? String == sha256Hex(data))
            let files = pack["files"] as! [[String: Any]]
            for entry in files {
                let source = try Data(contentsOf: URL(fileURLWithPath: project.path("R/" + (entry["path"] as! String))))
                #expect(entry["sha256"] as? String == sha256Hex(source))
                #expect(entry["size"] as? Int == source.count)
            }
            var hasher = SHA256Hasher()
            for entry in files { hasher.update("\(entry["path"]!)\0\(entry["size"]!)\0\(entry["sha256"]!)\n") }
            #expect(pack["contentHash"] as? String == hasher.finalize())
        }
        let stdoutDocument = try output.json()
        #expect(stdoutDocument["build"] != nil && stdoutDocument["diagnostics"] != nil)
        #expect((stdoutDocument["packs"] as? [Any])?.count == packs.count)
        let text = try String(
            contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json"), encoding: .utf8)
        #expect(!text.contains(project.root.path))
    }

    @Test func applePlistsMatchTheSpecKeyByKey() throws {
        let project = try gameProject()
        #expect(try build(project, "out", ["--url-prefix", "https://cdn.example.com/odr/"]).status == 0)
        let document =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json")))
            as! [String: Any]
        let packs = document["packs"] as! [[String: Any]]
        func plist(_ name: String) throws -> Any {
            try PropertyListSerialization.propertyList(
                from: Data(contentsOf: project.root.appendingPathComponent("out/" + name)), format: nil)
        }
        let odr = try #require(try plist("OnDemandResources.plist") as? [String: Any])
        #expect(Set(odr.keys) == ["NSBundleResourceRequestTags", "NSBundleResourceRequestAssetPacks"])
        let tags = try #require(odr["NSBundleResourceRequestTags"] as? [String: [String: [String]]])
        #expect(Set(tags.keys) == ["level1", "level2", "tutorial"])
        #expect(tags["level1"]?["NSAssetPacks"]?.count == 2)
        #expect(tags["level1"]?["NSAssetPacks"] == tags["level1"]?["NSAssetPacks"]?.sorted())
        let packPaths = try #require(odr["NSBundleResourceRequestAssetPacks"] as? [String: [String]])
        for pack in packs {
            #expect(
                packPaths[pack["id"] as! String] == (pack["files"] as! [[String: Any]]).map { $0["path"] as! String })
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("out/AssetPackManifestTemplate.plist")))
        let manifest = try #require(try plist("AssetPackManifest.plist") as? [String: Any])
        // The export form: the integer 1 in the bytes, not a boolean (docs/build-output.md).
        let exported = try BinaryPlistKinds.read(
            Data(contentsOf: project.root.appendingPathComponent("out/AssetPackManifest.plist")))
        #expect(!exported["resources"]!.items.isEmpty)
        #expect(exported["resources"]!.items.allSatisfy { $0["isStreamable"] == .int(1) })
        let resources = try #require(manifest["resources"] as? [[String: Any]])
        #expect(resources.map { $0["bundleKey"] as! String } == packs.map { $0["id"] as! String }.sorted())
        for resource in resources {
            let pack = packs.first { $0["id"] as? String == resource["bundleKey"] as? String }!
            let fileName = (pack["file"] as! String).replacingOccurrences(of: "OnDemandResources/", with: "")
            #expect(
                resource["URL"] as? String == "https://cdn.example.com/odr/"
                    + fileName.replacingOccurrences(of: "ü", with: "%C3%BC"))
            // The resources and Info.plist.
            let infoSize = AppleManifests.infoPlist(
                for: AssetPack(
                    id: pack["id"] as! String, fileName: "", tags: pack["tags"] as! [String], category: .onDemand,
                    priority: resource["downloadPriority"] as? Double, size: 0, files: [], firstEntry: nil)
            ).binaryData().count
            #expect(resource["uncompressedSize"] as? Int == (pack["size"] as! Int) + infoSize)
            #expect(infoSize > 50)
            // Linux Foundation's JSON parser rounds the last digit, so compare closely rather than exactly.
            #expect(abs((resource["downloadPriority"] as? Double ?? -1) - (pack["priority"] as? Double ?? -2)) < 1e-12)
            let hash = try #require(resource["primaryContentHash"] as? [String: String])
            #expect(hash["strategy"] == "modtime")
            // Whole seconds, written with ".000" as Xcode's exports write it.
            #expect(hash["hash"]?.wholeMatch(of: /20[0-2]\d-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z/) != nil)
            #expect(hash["hash"]! >= "2001-01-01T00:00:00.000Z" && hash["hash"]! <= "2020-12-31T23:59:59.999Z")
            #expect(hash["hash"] == AppleManifests.contentTimestamp(pack["contentHash"] as! String))
            // Info.plist inside the archive.
            let reader = try ZipArchiveReader(path: project.path("out/" + (pack["file"] as! String)))
            var info = Data()
            while let name = try reader.nextEntry() {
                try reader.readData { if name == "Info.plist" { info.append(contentsOf: $0) } }
            }
            let decoded = try #require(
                try PropertyListSerialization.propertyList(from: info, format: nil) as? [String: Any])
            #expect(decoded["CFBundleIdentifier"] as? String == pack["id"] as? String)
            #expect(decoded["Tags"] as? [String] == pack["tags"] as? [String])
            #expect(decoded["Priority"] as? Double == resource["downloadPriority"] as? Double)
        }
        // Without a prefix: the template with this machine's absolute paths.
        #expect(try build(project, "out").status == 0)
        #expect(!FileManager.default.fileExists(atPath: project.path("out/AssetPackManifest.plist")))
        let template = try #require(try plist("AssetPackManifestTemplate.plist") as? [String: Any])
        let first = try #require((template["resources"] as? [[String: Any]])?.first)
        #expect(
            (first["URL"] as? String)?.hasPrefix("http://127.0.0.1" + project.path("out/OnDemandResources/")) == true)
        // The build-product form: the plist boolean true in the bytes (docs/build-output.md).
        let templateKinds = try BinaryPlistKinds.read(
            Data(contentsOf: project.root.appendingPathComponent("out/AssetPackManifestTemplate.plist")))
        #expect(!templateKinds["resources"]!.items.isEmpty)
        #expect(templateKinds["resources"]!.items.allSatisfy { $0["isStreamable"] == .bool(true) })
    }

    /// `--template-path`: the template's URLs name the packs under that folder, not the one written, so builds into two
    /// folders write the same bytes (Bazel's odrpack_packs); a changed path rewrites the template; misuse is exit 64.
    @Test func templatePathNamesTheGivenFolder() throws {
        let project = try gameProject()
        func urls(_ folder: String) throws -> [String] {
            let template = try PropertyListSerialization.propertyList(
                from: Data(
                    contentsOf: project.root.appendingPathComponent(folder + "/AssetPackManifestTemplate.plist")),
                format: nil)
            return ((template as? [String: Any])?["resources"] as? [[String: Any]] ?? []).map { $0["URL"] as! String }
        }
        func fileNames(_ folder: String) throws -> [String] {
            let document = try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.root.appendingPathComponent(folder + "/odrpack-manifest.json")))
            let packs = ((document as! [String: Any])["packs"] as! [[String: Any]])
                .sorted { ($0["id"] as! String) < ($1["id"] as! String) }
            return packs.map { ($0["file"] as! String).replacingOccurrences(of: "OnDemandResources/", with: "") }
        }
        #expect(try build(project, "a", ["--template-path", "/odrpack/my packs"]).status == 0)
        let names = try fileNames("a")
        #expect(names.count == 4)
        #expect(
            try urls("a")
                == names.map {
                    "http://127.0.0.1/odrpack/my%20packs/OnDemandResources/"
                        + $0.replacingOccurrences(of: "ü", with: "%C3%BC").replacingOccurrences(of: "ï", with: "%C3%AF")
                })
        #expect(try CommandRunner.run(["verify", "a"], in: project.root).status == 0)
        // Another folder, the same path: the same bytes (the lock file aside, which is empty).
        #expect(try build(project, "b", ["--template-path", "/odrpack/my packs/"]).status == 0)
        #expect(
            try contents(project.root.appendingPathComponent("a")) == contents(project.root.appendingPathComponent("b"))
        )
        // A changed path is a changed build option: the next build into the folder rewrites the template, and so does
        // leaving the option out (the folder written).
        #expect(try build(project, "a", ["--template-path", "/elsewhere"]).status == 0)
        #expect(try urls("a").allSatisfy { $0.hasPrefix("http://127.0.0.1/elsewhere/OnDemandResources/") })
        #expect(try build(project, "a").status == 0)
        #expect(
            try urls("a").allSatisfy {
                $0.hasPrefix("http://127.0.0.1" + AppleManifests.percentEncoded(project.path("a/OnDemandResources/")))
            })
        // Relative, empty, or beside --url-prefix or --format background-assets: a bad command line.
        for extra in [
            ["--template-path", "odrpack/x"], ["--template-path", ""],
            ["--template-path", "/odrpack/x", "--url-prefix", "https://cdn.example.com/odr/"],
            ["--template-path", "/odrpack/x", "--format", "background-assets"],
        ] {
            let output = try build(project, "x", extra)
            #expect(output.status == 64, "\(extra)")
            #expect(output.stderr.contains("--template-path"), "\(extra): \(output.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("x")))
    }

    @Test func sameInputGivesTheSameBytes() throws {
        let project = try gameProject()
        #expect(try build(project, "a", ["--url-prefix", "https://x/", "--jobs", "1"]).status == 0)
        // Other mtimes, permissions, time zone and job count.
        for name in ["R/Level1/scene.json", "R/Shared/paddle.png"] {
            TestSystem.setTimes(project.path(name), seconds: 1_234_567_890)
            TestSystem.setMode(project.path(name), 0o600)
        }
        #expect(
            try build(
                project, "b", ["--url-prefix", "https://x/", "--jobs", "4"],
                environment: ["TZ": "America/Los_Angeles", "LANG": "tr_TR.UTF-8"]
            ).status == 0)
        let a = try contents(project.root.appendingPathComponent("a"))
        let b = try contents(project.root.appendingPathComponent("b"))
        #expect(a.keys.sorted() == b.keys.sorted())
        #expect(a == b)
        // SOURCE_DATE_EPOCH sets every entry's time; a bad value is refused.
        #expect(
            try build(project, "c", ["--url-prefix", "https://x/"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
                .status == 0)
        // Same content, other entry times: equal content hashes, other archives, every entry at 2023-11-14 22:13:20 UTC.
        func packs(_ folder: String) throws -> [[String: Any]] {
            let document = try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.root.appendingPathComponent(folder + "/odrpack-manifest.json")))
            return (document as! [String: Any])["packs"] as! [[String: Any]]
        }
        #expect(try packs("c").map { $0["contentHash"] as! String } == packs("a").map { $0["contentHash"] as! String })
        #expect(
            try packs("c").map { $0["archiveSha256"] as! String } != packs("a").map { $0["archiveSha256"] as! String })
        for pack in try packs("c") {
            for local in try ZipDirectory(path: project.path("c/" + (pack["file"] as! String))).locals {
                #expect(local.dosDate == (43 << 9 | 11 << 5 | 14) && local.dosTime == (22 << 11 | 13 << 5 | 10))
            }
        }
        let bad = try build(project, "d", [], environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("SOURCE_DATE_EPOCH"))
        #expect(!FileManager.default.fileExists(atPath: project.path("d/odrpack-manifest.json")))
    }

    @Test func autoStoresRandomBytesAndDeflatesText() throws {
        let project = try gameProject()
        #expect(try build(project).status == 0)
        let level1 = try #require(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources"))
                .first { $0.contains(".level1-") })
        let entries = try ZipDirectory(path: project.path("out/OnDemandResources/" + level1)).entries
        #expect(entries.first { $0.name == "Level1/music.caf" }?.method == 0)
        #expect(entries.first { $0.name == "Level1/scene.json" }?.method == 8)
        #expect(try build(project, "stored", ["--compression", "store"]).status == 0)
        #expect(
            try ZipDirectory(path: project.path("stored/OnDemandResources/" + level1)).entries.allSatisfy {
                $0.method == 0
            })
        #expect(try build(project, "deflated", ["--compression", "deflate", "--level", "9"]).status == 0)
        let deflated = try ZipDirectory(path: project.path("deflated/OnDemandResources/" + level1)).entries
        #expect(deflated.first { $0.name == "Level1/scene.json" }?.method == 8)
        #expect(
            try ZipDirectory(path: project.path("deflated/OnDemandResources/" + level1)).entries.allSatisfy {
                $0.name.hasSuffix("/")
                    ? $0.method == 0 : $0.method == 8 ? $0.compressedSize < $0.size : $0.compressedSize == $0.size
            })
        #expect(try build(project, "x", ["--level", "12"]).status == 64)
        // Past 256 threads only cost memory (a million jobs once needed more than 20 GB): a bad command line.
        #expect(try build(project, "x", ["--jobs", "257"]).status == 64)
        #expect(try build(project, "x", ["--jobs", "0"]).status == 64)
        #expect(try build(project, "many", ["--jobs", "256"]).status == 0)
        #expect(
            try contents(project.root.appendingPathComponent("many/OnDemandResources"))
                == contents(project.root.appendingPathComponent("out/OnDemandResources")))
    }

    @Test func incrementalRebuildsRewriteOnlyWhatChanged() throws {
        let project = try gameProject()
        let first = try buildInfo(try build(project))
        #expect(first["written"]?.count == 4 && first["reused"] == [])
        let id = { (tags: [String]) in PackIdentity.id(bundleID: "com.example.build", tags: tags) }

        // Nothing changed, then only mtimes changed: nothing is rewritten.
        #expect(try buildInfo(try build(project))["written"] == [])
        TestSystem.setTimes(project.path("R/Level1/scene.json"), seconds: 1_900_000_000, nanoseconds: 5)
        let touched = try buildInfo(try build(project))
        #expect(touched["written"] == [] && touched["reused"]?.count == 4)

        // One edited file rewrites exactly its pack.
        try project.file("R/Level2/scene.json", "{\"tile\": 3}\n")
        #expect(try buildInfo(try build(project))["written"] == [id(["level2"])])

        // A retagged file moves between packs: both are rewritten.
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.build
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
              - {path: Level2, tags: [level2]}
              - {path: Shared/paddle.png, tags: [level1, level2]}
              - {path: "Tutorial/ünïcode name.json", tags: [tutorial]}
              - {path: Level2/Deep/texture.png, tags: [level1]}
            initial-install: [tutorial]
            prefetch-order: [level1, level2]
            """)
        let retagged = try buildInfo(try build(project))
        #expect(retagged["written"] == [id(["level1", "level2"]), id(["level2"])].sorted())

        // A pack that disappears is removed; --no-cache rewrites everything.
        try FileManager.default.removeItem(atPath: project.path("R/Tutorial"))
        try project.manifest(
            try String(contentsOfFile: project.manifestPath, encoding: .utf8)
                .replacingOccurrences(of: "  - {path: \"Tutorial/ünïcode name.json\", tags: [tutorial]}\n", with: "")
                .replacingOccurrences(of: "initial-install: [tutorial]\n", with: ""))
        let removed = try buildInfo(try build(project))
        #expect(removed["removed"]?.count == 1)
        #expect(removed["removed"]?.first?.contains(".tutorial-") == true)
        #expect(try buildInfo(try build(project, "out", ["--no-cache"]))["written"]?.count == 3)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// A build folder's manifest that is a symbolic link is replaced by the new manifest, whether a pack was rewritten
    /// (the manifest is then written while the old one is removed) or not; what the link pointed at is left alone.
    @Test func aLinkedManifestIsReplacedAndItsTargetLeftAlone() throws {
        let project = try gameProject()
        _ = try build(project)
        let manifestPath = project.path("out/odrpack-manifest.json")
        for edit in ["{\"tile\": 7}\n", nil] {
            try FileManager.default.removeItem(atPath: manifestPath)
            try project.file("elsewhere.json", "not a manifest")
            try project.symlink("out/odrpack-manifest.json", to: project.path("elsewhere.json"))
            if let edit { try project.file("R/Level2/scene.json", edit) }
            let written = try buildInfo(try build(project))["written"] ?? []
            #expect(written.count == (edit == nil ? 0 : 1))
            // attributesOfItem does not follow a link: the manifest is a file of its own now.
            #expect(
                try FileManager.default.attributesOfItem(atPath: manifestPath)[.type] as? FileAttributeType
                    == .typeRegular)
            #expect(try String(contentsOfFile: project.path("elsewhere.json"), encoding: .utf8) == "not a manifest")
            #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        }
    }

    /// A manifest edited by hand (a pack's size, its contentHash, its id) fails verify even though every archive
    /// still matches the lines that were not edited.
    @Test(arguments: ["size", "contentHash", "id"])
    func aHandEditedManifestFailsVerify(field: String) throws {
        let project = try gameProject()
        #expect(try build(project).status == 0)
        let path = project.path("out/odrpack-manifest.json")
        let manifest = try BuildManifest.load(FilePath(path)).manifest
        let pack = try #require(manifest.packs.first)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (old, new): (String, String)
        switch field {
        case "size":
            (old, new) = (
                "\"size\": \(pack.size),\n      \"archiveSize\"", "\"size\": \(pack.size + 1),\n      \"archiveSize\""
            )
        case "contentHash": (old, new) = (pack.contentHash!, String(repeating: "0", count: 64))
        default: (old, new) = ("\"id\": \"\(pack.id)\"", "\"id\": \"\(pack.id)x\"")
        }
        #expect(text.components(separatedBy: old).count == 2, "exactly one place to edit")
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        let verify = try CommandRunner.run(["verify", "out"], in: project.root)
        #expect(verify.status == 1)
        #expect(verify.stderr.hasPrefix("error: " + pack.file + ": the manifest"), "\(verify.stderr)")
        #expect(verify.stderr.contains("[verify-figures-mismatch]"), "\(verify.stderr)")
    }

    /// An output folder under resources-root holds the build's lock file: it is output, never packed into itself,
    /// so a second build changes nothing and plan agrees with build.
    @Test func aBuildFolderInsideResourcesRootIsNeverAResource() throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.self\nresources:\n  - {path: Levels, tags: [all]}\n  - {path: ., tags: [root]}\n"
        )
        try project.file("Levels/a.txt", "a")
        #expect(try build(project, "Levels/out").status == 0)
        let second = try build(project, "Levels/out")
        #expect(try buildInfo(second)["written"] == [])
        let packs = try #require(try second.json()["packs"] as? [[String: Any]])
        let paths = packs.flatMap { ($0["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
            .sorted()
        #expect(paths == ["Levels/a.txt", "odrpack.yml"])
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(
            (try plan.json()["totals"] as? [String: Any])?["size"] as? Int == 1
                + (try String(contentsOfFile: project.manifestPath, encoding: .utf8)).utf8.count)
        // resources-root itself as the output: refused, and no lock file is left among the resources.
        let intoRoot = try build(project, ".")
        #expect(intoRoot.status == 2 && intoRoot.stderr.contains("is resources-root"))
        #expect(!FileManager.default.fileExists(atPath: project.path(".odrpack.lock")))
    }

    /// Progress goes to stderr: nothing by default off a terminal, plain lines with `always`, ending with every pack.
    @Test func progressLinesOffATerminalEndWithTheWholeCount() throws {
        let project = try gameProject()
        let quiet = try CommandRunner.run(["build", "-o", "quiet"], in: project.root)
        #expect(quiet.status == 0 && !quiet.stderr.contains("packs,"))
        let lines = try CommandRunner.run(["build", "-o", "lines", "--progress", "always"], in: project.root)
        let packs = try FileManager.default.contentsOfDirectory(atPath: project.path("lines/OnDemandResources")).count
        #expect(
            lines.stderr.split(separator: "\n").last?.hasPrefix("odrpack: \(packs)/\(packs) packs, ") == true,
            "\(lines.stderr)")
        #expect(!lines.stdout.contains("packs, "))
    }

    /// A pack replaced by a pipe once made verify wait for ever: it is a mismatch (exit 1), thin refuses it (exit 2),
    /// and the next build replaces it.
    @Test func aPackThatIsAPipeIsAMismatchNotAHang() throws {
        let project = try gameProject()
        #expect(try build(project).status == 0)
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).sorted().first)
        let pack = project.path("out/OnDemandResources/" + name)
        try FileManager.default.removeItem(atPath: pack)
        #expect(TestSystem.makeFIFO(pack))
        let verify = try CommandRunner.run(["verify", "out"], in: project.root)
        #expect(verify.status == 1 && verify.stderr.contains("is neither a file nor a folder"))
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.build"))
        #expect(try CommandRunner.run(["thin", "Game.app", "out", "--embed"], in: project.root).status == 2)
        #expect(try buildInfo(try build(project))["written"]?.count == 1)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// `verify odrpack-manifest.json` inside the build folder: the packs are found beside the manifest, not under "/".
    @Test func aBareManifestNameIsReadFromTheCurrentFolder() throws {
        let project = try gameProject()
        #expect(try build(project).status == 0)
        let verify = try CommandRunner.run(
            ["verify", "odrpack-manifest.json"], in: project.root.appendingPathComponent("out"))
        #expect(verify.status == 0, "\(verify.stderr)")
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.build"))
        let thin = try CommandRunner.run(
            ["thin", "../Game.app", "odrpack-manifest.json", "--embed"], in: project.root.appendingPathComponent("out"))
        #expect(thin.status == 0, "\(thin.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.path("Game.app/OnDemandResources")).count
                == FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).count)
    }

    @Test func theCacheNeverVouchesForAChangedOrMissingArchive() throws {
        let project = try gameProject()
        #expect(try build(project).status == 0)
        let clean = try contents(project.root.appendingPathComponent("out"))
        let names = try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).sorted()
        // Flip a byte in one archive and delete another.
        let flipped = project.path("out/OnDemandResources/" + names[0])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: flipped))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: flipped))
        try FileManager.default.removeItem(atPath: project.path("out/OnDemandResources/" + names[1]))
        let verify = try CommandRunner.run(["verify", "out", "--json"], in: project.root)
        #expect(verify.status == 1)
        let failed = (try verify.json()["packs"] as? [[String: Any]])?.filter { $0["status"] as? String != "ok" }
        #expect(failed?.count == 2)
        let rebuilt = try buildInfo(try build(project))
        #expect(rebuilt["written"]?.count == 2)
        #expect(try contents(project.root.appendingPathComponent("out")) == clean)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        #expect(try CommandRunner.run(["verify", "nowhere"], in: project.root).status == 2)
    }

    @Test func aBuildWithErrorsWritesNothing() throws {
        let project = try gameProject()
        try project.file("R/Level1/tool", bytes: Data([0x7F, 0x45, 0x4C, 0x46, 1, 1]))
        let output = try build(project)
        #expect(output.status == 1)
        #expect(!FileManager.default.fileExists(atPath: project.path("out")))
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["executable-content"])
    }

    @Test func killedBuildsLeaveAFolderTheNextBuildRepairs() throws {
        let project = try TemporaryProject()
        var yaml = "version: 1\nbundle-id: com.example.kill\nresources-root: R\nresources:\n"
        for pack in 0..<12 {
            yaml += "  - {path: P\(pack), tags: [t\(pack)]}\n"
            for file in 0..<6 {
                try project.file(
                    "R/P\(pack)/f\(file).bin",
                    bytes: randomBytes(300_000 + pack * 1000 + file, seed: UInt64(pack * 10 + file)))
            }
        }
        try project.manifest(yaml)
        #expect(try build(project, "clean", ["--url-prefix", "https://x/"]).status == 0)
        let clean = try contents(project.root.appendingPathComponent("clean"))
        // A finished build first: each killed build must leave the folder as that one left it.
        #expect(
            try CommandRunner.run(
                ["build", "-o", "killed", "--url-prefix", "https://x/"], in: project.root,
                environment: ["ODRPACK_CACHE_DIR": project.path("cache")]
            ).status == 0)
        var verified = 0
        // Killed part way, at points the build itself reports: after its first, second, fourth and eighth progress line
        // (make test-all), after its first and fourth (make test).
        for lines in TestLevel.sample([1, 4, 2, 8], small: 2) {
            // Build into a changing folder: first as it was, then with new content, killed part way.
            try project.file("R/P0/f0.bin", bytes: randomBytes(300_000, seed: UInt64(lines)))
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = [
                "build", "-o", "killed", "--url-prefix", "https://x/", "--progress", "always", "--no-cache",
            ]
            process.currentDirectoryURL = project.root
            process.environment = ["ODRPACK_CACHE_DIR": project.path("cache")]
            process.standardOutput = FileHandle.nullDevice
            let progress = Pipe()
            process.standardError = progress
            try process.run()
            var seen = 0
            var text = ""
            while seen < lines, case let chunk = progress.fileHandleForReading.availableData, !chunk.isEmpty {
                seen += chunk.filter { $0 == 0x0A }.count
                text += String(decoding: chunk, as: UTF8.self)
            }
            // "odrpack: N/12 packs, ...": how many packs the build had finished when it was last heard of.
            let finished =
                text.split(separator: "\n").last.flatMap { line in
                    line.split(separator: " ").dropFirst().first?.split(separator: "/").first.flatMap { Int($0) }
                } ?? 12
            TestSystem.killAtOnce(process.processIdentifier)
            process.waitUntilExit()
            // Right after a kill while packs were still being written (some of the 12 not reported finished), before
            // anything repairs it: the folder verifies (docs/build-output.md#atomic). A kill that lands in the commit,
            // while finished packs replace old ones under their names, leaves no manifest to verify against.
            if finished < 12 {
                verified += 1
                let verify = try CommandRunner.run(["verify", "killed"], in: project.root)
                #expect(verify.status == 0, "killed after \(finished) packs: \(verify.stderr)")
            }
        }
        #expect(verified > 0, "no kill landed while packs were being written")
        try project.file("R/P0/f0.bin", bytes: randomBytes(300_000, seed: 0))
        let rebuild = try CommandRunner.run(
            ["build", "-o", "killed", "--url-prefix", "https://x/"], in: project.root,
            environment: ["ODRPACK_CACHE_DIR": project.path("cache")])
        #expect(rebuild.status == 0)
        #expect(try contents(project.root.appendingPathComponent("killed")) == clean)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func aFullDiskIsAClearErrorAndKeepsThePreviousOutput() throws {
        let project = try gameProject()
        #expect(try build(project).status == 0)
        let before = try contents(project.root.appendingPathComponent("out"))
        try project.file("R/Level1/music.caf", bytes: randomBytes(400_000, seed: 9))
        // Files may grow to 100 KB only: the rewritten pack cannot be written.
        let output = try CommandRunner.run(
            ["--fsize=100000", CommandRunner.executable.path, "build", "-o", "out"],
            in: project.root, executable: URL(fileURLWithPath: "/usr/bin/prlimit"))
        #expect(output.status == 2)
        #expect(output.stderr.contains("error"))
        #expect(try contents(project.root.appendingPathComponent("out")) == before)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// A state that cannot be saved does not fail a finished build, but says so once: every later build is cold.
    @Test func aStateThatCannotBeSavedIsAWarning() throws {
        let project = try gameProject()
        try project.file("not-a-folder", "x")
        let output = try build(
            project, "out", ["--progress", "never"], environment: ["ODRPACK_CACHE_DIR": project.path("not-a-folder")])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains("warning: the build state cannot be saved")
                && output.stderr.contains("ODRPACK_CACHE_DIR"))
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
        let saved = try build(project, "again")
        #expect(!saved.stderr.contains("cannot be saved"))
    }
}
