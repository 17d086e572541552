import Foundation
import Testing

@testable import ODRPackFormats

/// `odrpack thin` (docs/commands.md#thin) through the binary, on an app made from the game's resources.
@Suite struct ThinCommandTests {
    let game = BuildCommandTests()

    /// The game built into `out`, and an app bundle that holds every resource under `subfolder` plus its own files.
    func builtGame(subfolder: String = "", _ extra: [String] = []) throws -> TemporaryProject {
        let project = try game.gameProject()
        #expect(try game.build(project, "out", extra).status == 0)
        let base = "Game.app/" + subfolder
        for path in [
            "Level1/scene.json", "Level1/music.caf", "Level2/scene.json", "Level2/Deep/texture.png",
            "Shared/paddle.png", "Tutorial/ünïcode name.json", "UI/menu.json",
        ] {
            try project.file(base + path, bytes: try Data(contentsOf: URL(fileURLWithPath: project.path("R/" + path))))
        }
        try project.file("Game.app/Game", "executable")
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.build"))
        return project
    }

    func thin(_ project: TemporaryProject, _ extra: [String] = []) throws -> CommandRunner.Output {
        try CommandRunner.run(["thin", "Game.app", "out", "--json"] + extra, in: project.root)
    }

    /// Every file of the app with its bytes.
    func appFiles(_ project: TemporaryProject) throws -> [String: Data] {
        try game.contents(project.root.appendingPathComponent("Game.app"))
    }

    /// thin removes files, so nothing outside the app may be reached: not through a folder that is a symbolic link
    /// out of the app (app-file-differs, app untouched), not through --resources-path, not through a crafted manifest.
    @Test func nothingOutsideTheAppIsRemoved() throws {
        let project = try builtGame()
        let outside = project.path("Elsewhere")
        try FileManager.default.moveItem(atPath: project.path("Game.app/Level1"), toPath: outside)
        try project.symlink("Game.app/Level1", to: outside)
        func untouched() -> Bool {
            ["Game.app/Shared/paddle.png", "Game.app/UI/menu.json", "Elsewhere/scene.json", "Elsewhere/music.caf"]
                .allSatisfy { FileManager.default.fileExists(atPath: project.path($0)) }
                && !FileManager.default.fileExists(atPath: project.path("Game.app/OnDemandResources.plist"))
        }
        let linked = try thin(project)
        #expect(linked.status == 1)
        let problems = try #require(try linked.json()["diagnostics"] as? [[String: Any]])
        #expect(problems.map { $0["subject"] as? String } == ["Level1/music.caf", "Level1/scene.json"])
        #expect((problems.first?["message"] as? String)?.contains("symbolic link that leaves the app") == true)
        #expect(untouched())

        try project.symlink("Game.app/Data", to: outside)
        let resourcesPath = try thin(project, ["--resources-path", "Data"])
        #expect(resourcesPath.status == 2 && resourcesPath.stderr.contains("leads out of"))

        // A manifest whose file path climbs out of the app is corrupt: exit 2, nothing touched.
        let manifestPath = project.path("out/odrpack-manifest.json")
        let text = try String(contentsOfFile: manifestPath, encoding: .utf8)
        try text.replacingOccurrences(of: "\"path\": \"UI/menu.json\"", with: "\"path\": \"../victim.txt\"")
            .replacingOccurrences(of: "\"path\": \"Shared/paddle.png\"", with: "\"path\": \"../victim.txt\"")
            .write(toFile: manifestPath, atomically: true, encoding: .utf8)
        try project.file("victim.txt", "keep me")
        let crafted = try thin(project)
        #expect(crafted.status == 2 && crafted.stderr.contains("not a plain relative path"), "\(crafted.stderr)")
        #expect(FileManager.default.fileExists(atPath: project.path("victim.txt")))
        #expect(untouched())
    }

    /// The plists thin installs replace a link in the app, never the file it points to; an OnDemandResources
    /// folder that is a link is refused (thin writes and removes packs there).
    @Test func linksInTheAppAreReplacedNotFollowed() throws {
        let project = try builtGame()
        try project.file("outside.plist", "keep me")
        try project.symlink("Game.app/OnDemandResources.plist", to: project.path("outside.plist"))
        #expect(try thin(project).status == 0)
        #expect(try String(contentsOfFile: project.path("outside.plist"), encoding: .utf8) == "keep me")
        #expect(
            FileManager.default.contents(atPath: project.path("Game.app/OnDemandResources.plist"))
                == FileManager.default.contents(atPath: project.path("out/OnDemandResources.plist")))
        try FileManager.default.createDirectory(atPath: project.path("Packs"), withIntermediateDirectories: true)
        try project.symlink("Game.app/OnDemandResources", to: project.path("Packs"))
        let embed = try thin(project, ["--embed"])
        #expect(embed.status == 2 && embed.stderr.contains("is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("Packs")).isEmpty)
    }

    @Test func removesPackedFilesInstallsThePlistsAndIsIdempotent() throws {
        let project = try builtGame()
        let output = try thin(project)
        #expect(output.status == 0, "\(output.stderr)")
        let document = try output.json()
        #expect(
            document["removed"] as? [String] == [
                "Level1/music.caf", "Level1/scene.json", "Level2/Deep/texture.png",
                "Level2/scene.json", "Shared/paddle.png", "Tutorial/ünïcode name.json",
            ])
        let removedBytes = try [
            "Level1/music.caf", "Level1/scene.json", "Level2/Deep/texture.png", "Level2/scene.json",
            "Shared/paddle.png", "Tutorial/ünïcode name.json",
        ]
        .reduce(0) { $0 + (try Data(contentsOf: URL(fileURLWithPath: project.path("R/" + $1)))).count }
        #expect(document["removedBytes"] as? Int == removedBytes)
        #expect(document["installed"] as? [String] == ["OnDemandResources.plist", "AssetPackManifestTemplate.plist"])
        let files = try appFiles(project)
        #expect(
            Set(files.keys) == [
                "Game", "Info.plist", "UI/menu.json", "OnDemandResources.plist", "AssetPackManifestTemplate.plist",
            ])
        #expect(
            files["OnDemandResources.plist"]
                == FileManager.default.contents(atPath: project.path("out/OnDemandResources.plist")))
        #expect(
            files["AssetPackManifestTemplate.plist"]
                == FileManager.default.contents(atPath: project.path("out/AssetPackManifestTemplate.plist")))
        // Emptied folders are gone; the app's own folder stays.
        for folder in ["Level1", "Level2", "Level2/Deep", "Shared", "Tutorial"] {
            #expect(!FileManager.default.fileExists(atPath: project.path("Game.app/" + folder)), "\(folder)")
        }
        let again = try thin(project)
        #expect(again.status == 0)
        #expect(try again.json()["removed"] as? [String] == [])
        #expect(try appFiles(project) == files)
    }

    @Test func aFileWithOtherBytesIsAnErrorAndTheAppIsUntouched() throws {
        let project = try builtGame()
        try project.file("Game.app/Level2/scene.json", "{\"tile\": 3}")
        let before = try appFiles(project)
        let output = try thin(project, ["--embed"])
        #expect(output.status == 1)
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["code"] as? String == "app-file-differs")
        #expect(diagnostics.first?["severity"] as? String == "error")
        #expect(diagnostics.first?["subject"] as? String == "Level2/scene.json")
        #expect(try appFiles(project) == before)
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.app/OnDemandResources")))
        let human = try CommandRunner.run(["thin", "Game.app", "out"], in: project.root)
        #expect(
            human.status == 1 && human.stderr.contains("error: 'Level2/scene.json'")
                && human.stderr.contains("[app-file-differs]"))
    }

    @Test(arguments: ["zip", "folder"])
    func embedsEveryPackAsAFolderWithRelativeURLs(layout: String) throws {
        let project = try builtGame(
            subfolder: "Data/", ["--layout", layout, "--url-prefix", "https://cdn.example.com/"])
        let output = try thin(project, ["--embed", "--resources-path", "Data"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try output.json()
        #expect((document["removed"] as? [String])?.count == 6)
        #expect((document["removed"] as? [String])?.allSatisfy { $0.hasPrefix("Data/") } == true)
        #expect(document["installed"] as? [String] == ["OnDemandResources.plist", "AssetPackManifest.plist"])
        let packs =
            try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json")))
                    as? [String: Any])["packs"] as! [[String: Any]]
        #expect((document["embedded"] as? [String])?.count == packs.count)
        let plist =
            try PropertyListSerialization.propertyList(
                from: Data(contentsOf: project.root.appendingPathComponent("Game.app/AssetPackManifest.plist")),
                format: nil) as! [String: Any]
        let resources = plist["resources"] as! [[String: Any]]
        // Xcode's embedded form is a build product: isStreamable is the plist boolean false (0x08), not 0 (docs/build-output.md).
        let kinds = try BinaryPlistKinds.read(
            Data(contentsOf: project.root.appendingPathComponent("Game.app/AssetPackManifest.plist")))
        #expect(kinds["resources"]!.items.count == resources.count)
        #expect(kinds["resources"]!.items.allSatisfy { $0["isStreamable"] == .bool(false) })
        #expect(resources.map { $0["bundleKey"] as! String } == packs.map { $0["id"] as! String }.sorted())
        for pack in packs {
            let name = (pack["file"] as! String)
            let resource = try #require(resources.first { $0["bundleKey"] as? String == pack["id"] as? String })
            #expect(resource["URL"] as? String == name.replacingOccurrences(of: "ü", with: "%C3%BC"))
            let folder = project.path("Game.app/" + name)
            var total = 0
            for file in pack["files"] as! [[String: Any]] {
                let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + (file["path"] as! String)))
                #expect(sha256Hex(data) == file["sha256"] as? String)
                total += data.count
            }
            let info = try Data(contentsOf: URL(fileURLWithPath: folder + "/Info.plist"))
            #expect(resource["uncompressedSize"] as? Int == total + info.count)
            #expect(!FileManager.default.fileExists(atPath: folder + "/META-INF"))
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.app/AssetPackManifestTemplate.plist")))
        let files = try appFiles(project)
        #expect(try thin(project, ["--embed", "--resources-path", "Data"]).status == 0)
        #expect(try appFiles(project) == files)
    }

    @Test func badArgumentsExitTwoAndChangeNothing() throws {
        let project = try builtGame()
        let before = try appFiles(project)
        #expect(try CommandRunner.run(["thin", "Missing.app", "out"], in: project.root).status == 2)
        #expect(try CommandRunner.run(["thin", "Game.app", "nowhere"], in: project.root).status == 2)
        #expect(
            try CommandRunner.run(["thin", "Game.app", "out", "--resources-path", "../x"], in: project.root).status == 2
        )
        #expect(try appFiles(project) == before)
    }

    /// An app whose files are not where the packs put them (docs/commands.md#thin): a warning naming a pack and a path it looked
    /// for, exit 0; once the app holds this build's OnDemandResources.plist (thinned before), no warning.
    @Test func anAppWithNoneOfThePacksFilesGetsAWarning() throws {
        let project = try builtGame(subfolder: "Data/")
        let output = try thin(project)
        #expect(output.status == 0)
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { "\($0["severity"]!) \($0["code"]!)" } == ["warning pack-files-not-in-app"])
        #expect((diagnostics.first?["message"] as? String)?.contains("--resources-path") == true)
        #expect(try thin(project, ["--resources-path", "Data"]).json()["diagnostics"] as? [Any] != nil)
        let again = try thin(project, ["--resources-path", "Data"])
        #expect((try again.json()["diagnostics"] as? [Any])?.isEmpty == true)
    }

    /// thin only reads the build folder: a read-only one works, without a lock file.
    @Test(.enabled(if: getuid() != 0)) func aReadOnlyBuildFolderWorks() throws {
        let project = try builtGame()
        try? FileManager.default.removeItem(atPath: project.path("out/.odrpack.lock"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: project.path("out"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: project.path("out")) }
        let output = try thin(project)
        #expect(output.status == 0, "\(output.stderr)")
        #expect((try output.json()["removed"] as? [String])?.count == 6)
    }
}
