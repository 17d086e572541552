import Foundation
import Testing

@testable import ODRPackCore
@testable import ODRPackPlatform

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
                == "Wrote odrpack.yml: 4 tagged folders of 'Resources' (4 files, 2.5 KB).\nNext: set bundle-id to your app's bundle identifier, move the tags the first launch needs to initial-install, then run `odrpack plan`.\n"
        )
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        #expect(
            text == """
                # odrpack.yml, written by `odrpack init`: one entry per top-level folder of the resources, tagged with its
                # name. Edit the tags (a file with several tags goes in a pack of its own), then run `odrpack plan`.
                # Reference: the tag manifest section of odrpack's docs (docs/manifest.md).
                version: 1
                bundle-id: "REPLACE-ME: your app's bundle id, e.g. com.example.game"  # replace with your app's bundle identifier
                profile: ios  # the store limits checked: default, ios, ios18, tvos, background-assets
                resources-root: Resources
                resources:
                  - path: Empty  # 0 files, 0 bytes
                    tags: [empty]
                  - path: Levels  # 2 files, 17 bytes
                    tags: [levels]
                  - path: "Music Tracks"  # 1 file, 2,500 bytes (2.5 KB)
                    tags: [music-tracks]
                  - path: "Über_Art (HD)"  # 1 file, 3 bytes
                    tags: ["über-art--hd-"]
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
                "levels", "music-tracks", "über-art--hd-",
            ])  // the empty folder's tag is on no file
        #expect((document["appBundle"] as? [String: Any])?["files"] as? Int == 1)  // icon.png stays in the app
        let warnings = (document["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String }
        #expect(warnings == ["entry-matches-nothing"])  // the empty folder
    }

    /// Names YAML cannot hold as they are (a C1 control U+009B, the noncharacter U+FFFE) are written escaped, and plan
    /// reads them back to the folders on disk; a folder whose name starts with a byte-order mark (U+FEFF), which YAML
    /// readers drop, is skipped with a warning, as a name that is not UTF-8 is.
    @Test func namesYAMLCannotHoldAreEscapedOrSkipped() throws {
        let project = try TemporaryProject()
        for name in ["a\u{9B}b", "c\u{FFFE}d", "\u{FEFF}e"] { try project.file("Resources/\(name)/f.txt", "x") }
        let output = try CommandRunner.run(["init", "Resources"], in: project.root)
        #expect(output.status == 0)
        #expect(
            output.stderr.contains(
                "odrpack: warning: skipped 'Resources/\u{FEFF}e': its name starts with a byte-order mark (U+FEFF), which YAML readers drop; rename it to tag it"
            ), "\(output.stderr)")
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        for escaped in ["\"a\\u009Bb\"", "\"c\\uFFFEd\""] {
            #expect(text.contains("  - path: \(escaped)  # 1 file, 1 byte\n"), "\(text)")
        }
        #expect(!text.contains("\u{FEFF}"))
        #expect(
            text.hasSuffix(
                "# Skipped: names that start with U+FEFF, which a manifest cannot name (rename them to tag them):\n#   \\uFEFFe\n"
            ), "\(text)")
        try project.manifest(
            text.replacingOccurrences(
                of: "\"REPLACE-ME: your app's bundle id, e.g. com.example.game\"", with: "com.example.game"))
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stderr)")
        let packs = try #require(try plan.json()["packs"] as? [[String: Any]])
        #expect(packs.count == 2)
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
        #expect(ManifestTemplate.tag(forFolderName: "音楽") == "音楽")  // every letter kept (docs/commands.md#init)
        #expect(ManifestTemplate.tag(forFolderName: "2024") == "2024")
        #expect(ManifestTemplate.scalar("2024") == "\"2024\"")  // read back as a string, not a number
        #expect(ManifestTemplate.scalar("yes") == "\"yes\"")
        // Every spelling YAML reads as null or a boolean is quoted, so it stays a file or tag name.
        for spelling in [
            "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no",
            "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
        ] {
            #expect(ManifestTemplate.scalar(spelling) == "\"\(spelling)\"", "\(spelling)")
        }
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

    /// `ManifestTemplate` throws the facts of what init refuses: the resources-root and the manifest as given.
    @Test func theTemplateThrowsItsFacts() throws {
        let project = try TemporaryProject()
        try project.file("Art/a.png", "a")
        #expect(throws: ODRPackError.manifest(.noResourcesFolder("Nowhere"))) {
            try ManifestTemplate.scan(resourcesRoot: "Nowhere", from: project.root.path)
        }
        #expect(throws: ODRPackError.manifest(.resourcesRootIsFile("Art/a.png"))) {
            try ManifestTemplate.scan(resourcesRoot: "Art/a.png", from: project.root.path)
        }
        let template = try ManifestTemplate.scan(resourcesRoot: "Art", from: project.root.path)
        let existing = project.path("Art/a.png")
        #expect(throws: ODRPackError.manifest(.exists(existing))) { try template.write(to: existing, force: false) }
    }

    /// docs/commands.md#init (SPEC 6.2, "init writes what works"): every letter kept, case twins two tags, values
    /// YAML would misread quoted, and what init writes plans once the bundle id is set.
    @Test func initWritesWhatWorks() throws {
        let project = try TemporaryProject()
        for folder in ["Musique Thème", "Levels", "levels", "~", "yes", "1.0", "*stars"] {
            try project.file("R/\(folder)/a.json", "{}")
        }
        let output = try CommandRunner.run(["init", "R", "--profile", "tvos"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        #expect(
            text.contains("profile: tvos  # the store limits checked: default, ios, ios18, tvos, background-assets\n"))
        for entry in [
            "  - path: \"*stars\"  # 1 file, 2 bytes\n    tags: [\"-stars\"]\n",
            "  - path: \"1.0\"  # 1 file, 2 bytes\n    tags: [\"1-0\"]\n",
            "  - path: Levels  # 1 file, 2 bytes\n    tags: [levels]\n",
            "  - path: \"Musique Thème\"  # 1 file, 2 bytes\n    tags: [\"musique-thème\"]\n",
            "  - path: levels  # 1 file, 2 bytes\n    tags: [levels-2]\n",
            "  - path: \"yes\"  # 1 file, 2 bytes\n    tags: [\"yes\"]\n",
            "  - path: \"./~\"  # 1 file, 2 bytes\n    tags: [\"-\"]\n",
        ] {
            #expect(text.contains(entry), "\(entry)")
        }
        try project.manifest(
            text.replacingOccurrences(
                of: "\"REPLACE-ME: your app's bundle id, e.g. com.example.game\"", with: "com.example.game"))
        let plan = try CommandRunner.run(["plan", "--json"], in: project.root)
        #expect(plan.status == 0, "\(plan.stdout)")
        let document = try plan.json()
        #expect(document["profile"] as? String == "tvos")
        #expect((document["diagnostics"] as? [Any])?.isEmpty == true, "\(document["diagnostics"] ?? "")")
        #expect((document["packs"] as? [Any])?.count == 7)
        let unknown = try CommandRunner.run(["init", "R", "--profile", "watchos", "--force"], in: project.root)
        #expect(unknown.status == 64)
    }

    /// A name that is not UTF-8 is listed as skipped, one warning with its bytes escaped, instead of failing.
    @Test func aNonUTF8NameIsSkipped() throws {
        let project = try TemporaryProject()
        try project.file("R/Art/a.png", "png")
        var bytes = Array(project.path("R/Art").utf8) + Array("/caf".utf8) + [0xE9, 0]
        let descriptor = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                open($0, O_CREAT | O_WRONLY, 0o644)
            }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let output = try CommandRunner.run(["init", "R"], in: project.root)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr
                == "odrpack: warning: skipped 'R/Art/caf\\xe9': its name is not valid UTF-8, which a manifest cannot name; rename it to tag it\n"
        )
        let text = try String(contentsOfFile: project.manifestPath, encoding: .utf8)
        #expect(text.contains("  - path: Art  # 1 file, 3 bytes\n"))
        #expect(
            text.hasSuffix(
                "# Skipped: names that are not valid UTF-8, which a manifest cannot name (rename them to tag them):\n#   Art/caf\\xe9\n"
            ))
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
