import Foundation
import Testing

@testable import ODRPackCore

/// docs/commands.md#init (SPEC 6.1, "Start from nothing"): `odrpack init [FOLDER]` and `plan --list-untagged`.
@Suite struct InitCommandTests {
    func game() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.file("Resources/Levels/World1/scene.json", "{\"w\": 1}")
        try project.file("Resources/Levels/World2/scene.json", "{\"w\": 22}")
        try project.file("Resources/Music Tracks/theme.caf", bytes: Data(repeating: 7, count: 2500))
        try project.file("Resources/Über_Art (HD)/hero.png", "PNG")
        try project.file("Resources/.git/HEAD", "ref")
        try project.file("Resources/icon.png", "icon")
        try project.file("Resources/Levels/.DS_Store", "x")
        try project.folder("Resources/Empty")
        return project
    }

    @Test func writesOneLiveEntryPerTopLevelFolder() throws {
        let project = try game()
        let output = try CommandRunner.run(["init", "Resources"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout
                == "Wrote odrpack.yml: 4 tagged folders of 'Resources' (4 files, 2.5 KB).\nNext: set bundle-id to your app's bundle identifier, then run `odrpack plan`.\n"
        )
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        #expect(
            text == """
                # odrpack.yml, written by `odrpack init`: one entry per top-level folder of the resources, tagged with its
                # name. Edit the tags (a file with several tags goes in a pack of its own), then run `odrpack plan`.
                # Reference: the tag manifest section of odrpack's docs (docs/manifest.md).
                version: 1
                bundle-id: "REPLACE-ME: your app's bundle id, e.g. com.example.game"  # replace with your app's bundle identifier
                resources-root: Resources
                resources:
                  - path: Empty  # 0 files, 0 bytes
                    tags: [empty]
                  - path: Levels  # 2 files, 17 bytes
                    tags: [levels]
                  - path: "Music Tracks"  # 1 file, 2,500 bytes (2.5 KB)
                    tags: [music-tracks]
                  - path: "Über_Art (HD)"  # 1 file, 3 bytes
                    tags: ["-ber-art--hd-"]
                initial-install: []  # tags downloaded with the app

                """)
        // The placeholder is refused until it is replaced; then plan accepts the manifest as it is.
        let before = try CommandRunner.run(["plan"], in: project.root)
        #expect(before.status == 1)
        #expect(before.stderr.contains("[manifest-invalid-value]"))
        try project.manifest(
            text.replacingOccurrences(
                of: "\"REPLACE-ME: your app's bundle id, e.g. com.example.game\"", with: "com.example.game"))
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stdout)")
        let document = try plan.json()
        #expect(
            (document["tags"] as? [[String: Any]])?.map { $0["name"] as? String } == [
                "-ber-art--hd-", "levels", "music-tracks",
            ])  // the empty folder's tag is on no file
        #expect((document["appBundle"] as? [String: Any])?["files"] as? Int == 1)  // icon.png stays in the app
        let warnings = (document["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String }
        #expect(warnings == ["entry-matches-nothing"])  // the empty folder
    }

    /// What init writes plans: a folder named like a home path (`~backup`) is a name like any other, and a link gets
    /// no entry (one leaving resources-root would be an error for the entry that names it).
    @Test func whatInitWritesPlansWithOddNamesAndLinks() throws {
        let project = try TemporaryProject()
        try project.file("Resources/~backup/old.json", "{}")
        try project.file("Outside/secret.txt", "x")
        try FileManager.default.createSymbolicLink(
            atPath: project.path("Resources/linkout"), withDestinationPath: project.path("Outside"))
        #expect(try CommandRunner.run(["init", "Resources"], in: project.root).status == 0)
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        #expect(text.contains("  - path: \"~backup\"  # 1 file, 2 bytes\n    tags: [\"-backup\"]\n"))
        #expect(!text.contains("linkout"))
        try project.manifest(
            text.replacingOccurrences(
                of: "\"REPLACE-ME: your app's bundle id, e.g. com.example.game\"", with: "com.example.game"))
        let plan = try CommandRunner.run(["plan"], in: project.root)
        #expect(plan.status == 0, "\(plan.stderr)")
        // `~` alone or `~/…` still reads as a home folder, which nothing expands.
        try project.manifest(
            "version: 1\nbundle-id: com.example.game\nresources-root: Resources\nresources:\n  - path: ~/x\n    tags: [a]\n"
        )
        let home = try CommandRunner.run(["validate"], in: project.root)
        #expect(home.status == 1)
        #expect(home.stderr.contains("starts with '~', which is not expanded to a home folder"))
    }

    @Test func tagsAreFolderNamesLowercasedWithOtherCharactersMadeDashes() {
        #expect(ManifestTemplate.tag(forFolderName: "Levels") == "levels")
        #expect(ManifestTemplate.tag(forFolderName: "World 1_HD") == "world-1-hd")
        #expect(ManifestTemplate.tag(forFolderName: "a-b.c") == "a-b-c")
        #expect(ManifestTemplate.tag(forFolderName: "音楽") == "--")
        #expect(ManifestTemplate.tag(forFolderName: "2024") == "2024")
        #expect(ManifestTemplate.scalar("2024") == "\"2024\"")  // read back as a string, not a number
        #expect(ManifestTemplate.scalar("yes") == "\"yes\"")
        #expect(ManifestTemplate.scalar("level-1") == "level-1")
        #expect(YAMLScalar.doubleQuoted("a\"b\\c\nd\u{1}") == "\"a\\\"b\\\\c\\nd\\u0001\"")
    }

    @Test func theCurrentFolderByDefaultAndNeverOverwritingWithoutForce() throws {
        let project = try TemporaryProject()
        try project.file("Art/a.png", "a")
        let first = try CommandRunner.run(["init"], in: project.root)
        #expect(first.status == 0)
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        #expect(text.contains("resources-root: .\n"))
        #expect(text.contains("  - path: Art  # 1 file, 1 byte\n    tags: [art]\n"))
        try project.manifest("version: 1\n")
        let refused = try CommandRunner.run(["init"], in: project.root)
        #expect(refused.status == 2)
        #expect(refused.stderr == "odrpack: error: 'odrpack.yml' exists: pass --force to overwrite it\n")
        #expect(try String(contentsOfFile: project.manifestPath, encoding: .utf8) == "version: 1\n")
        #expect(try CommandRunner.run(["init", "--force"], in: project.root).status == 0)
        #expect(try String(contentsOfFile: project.manifestPath, encoding: .utf8) == text)
        let missing = try CommandRunner.run(["init", "Nowhere"], in: project.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("odrpack: error: no folder 'Nowhere'"))
    }

    @Test func listUntaggedListsTheFilesThatStayInTheApp() throws {
        let project = try TemporaryProject()
        try project.manifest(
            "version: 1\nbundle-id: com.example.x\nresources-root: R\nresources:\n  - {path: Levels, tags: [levels]}\n")
        try project.file("R/Levels/one.json", "1")
        try project.file("R/icon.png", "i")
        try project.file("R/UI/menu.json", "m")
        try project.file("R/UI/Über.json", "u")
        let output = try CommandRunner.run(["plan", "--list-untagged"], in: project.root)
        #expect(output.status == 0)
        #expect(output.stdout == "UI/menu.json\nUI/Über.json\nicon.png\n")
        let json = try CommandRunner.run(["plan", "--list-untagged", "--json"], in: project.root)
        #expect(try json.json()["untaggedFiles"] as? [String] == ["UI/menu.json", "UI/Über.json", "icon.png"])
        #expect(try CommandRunner.run(["plan", "--json"], in: project.root).json()["untaggedFiles"] == nil)
    }
}
