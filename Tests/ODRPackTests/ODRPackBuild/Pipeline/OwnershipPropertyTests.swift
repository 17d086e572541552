import Foundation
import Testing

@testable import ODRPackPlatform

/// docs/build-output.md#ownership and #atomic as properties: random sequences of builds of both formats (each into
/// its own folder, either layout), with the user's files placed around and inside the build folders, never change a
/// byte of the user's; and a build that fails, before or inside its commit, leaves its folder byte for byte as it was.
@Suite struct OwnershipPropertyTests {
    typealias Generator = SplitMix64

    /// Where a user may leave a file: beside, around and inside both build folders, with the names builds write.
    static let userPaths = [
        "user-outside.json", "odr/notes.json", "odr/OnDemandResources/mine.assetpack",
        "odr/OnDemandResources/mine.json",
        "odr/OnDemandResources/Mine.assetpack/Info.plist", "odr/BackgroundAssets/mine.aar",
        "odr/BackgroundAssets/AssetPackTags.json", "odr/mine.aar", "ba/notes.json", "ba/BackgroundAssets/mine.aar",
        "ba/BackgroundAssets/mine.json", "ba/BackgroundAssets/site/mine", "ba/BackgroundAssets/site/mine.json",
        "ba/OnDemandResources/mine.assetpack", "ba/OnDemandResources.plist", "ba/AssetPackManifestTemplate.plist",
    ]

    static let manifests = [
        "",
        "  - {path: Store/ünïcode skin.json, tags: [extra]}\n",
        "  - {path: UI, tags: [ui]}\n",
    ]

    func writeManifest(_ fixture: BackgroundAssetsFixture, variant: Int) throws {
        try fixture.project.manifest(
            """
            version: 1
            bundle-id: com.example.bamboo
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
              - {path: Level2, tags: [level 2]}
              - {path: Store, tags: [shared_ui]}
            \(Self.manifests[variant])background-assets: {hosting: self}
            """)
    }

    let urlPrefix = ["--url-prefix", "https://cdn.example.com/packs"]

    @Test(arguments: TestLevel.sample([UInt64(1), 2, 3], small: 1))
    func randomBuildsNeverChangeAUsersByte(seed: UInt64) throws {
        var random = Generator(state: seed)
        let fixture = try BackgroundAssetsFixture()
        try writeManifest(fixture, variant: 0)
        var user: [String: Data] = [:]
        var failed = 0
        var built = 0
        let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
        // Decided once for the machine: where chattr works, a refused freeze below is a failure, not a quiet pass.
        let canFreeze = SystemAbilities.canMakeImmutable
        func expectUserBytes(_ step: String) throws {
            for (path, bytes) in user {
                #expect(
                    (try? Data(contentsOf: fixture.project.root.appendingPathComponent(path))) == bytes,
                    "seed \(seed), \(step): \(path)")
            }
        }
        for step in 0..<TestLevel.rounds(12, full: 24) {
            let action = Int.random(in: 0..<7, using: &random)
            let folder = Bool.random(using: &random) ? "odr" : "ba"
            func run(_ extra: [String], environment: [String: String] = [:]) throws -> CommandRunner.Output {
                folder == "odr"
                    ? try fixture.run(["build", "-o", "odr", "--json"] + extra, environment: environment)
                    : try fixture.build(urlPrefix + extra, output: "ba", environment: environment)
            }
            let layout = ["--layout", Bool.random(using: &random) ? "zip" : "folder"]
            switch action {
            case 0:
                let path = Self.userPaths.randomElement(using: &random)!
                if user[path] == nil && !FileManager.default.fileExists(atPath: fixture.project.path(path)) {
                    let bytes = Data(
                        (0..<Int.random(in: 0..<64, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        })
                    try fixture.project.file(path, bytes: bytes)
                    user[path] = bytes
                }
            case 1:
                try fixture.project.file("R/Level1/scene.json", "step \(step)")
            case 2:
                try writeManifest(fixture, variant: Int.random(in: 0..<Self.manifests.count, using: &random))
            case 3, 4:
                let output = try run(folder == "odr" ? layout : [])
                #expect(output.status == 0, "seed \(seed), step \(step): \(output.stderr)")
                built += 1
            default:
                // A build that fails: a signer or packager that fails (every pack is written again: the command is
                // part of what decides a pack's bytes), or a file the commit must replace that cannot be.
                guard FileManager.default.fileExists(atPath: fixture.project.path(folder + "/odrpack-manifest.json"))
                else { continue }
                try fixture.project.file("R/Level2/scene.json", "step \(step)")
                let before = try OwnershipTests.snapshot(fixture.project.path(folder))
                let verified = try fixture.run(["verify", folder]).status
                var frozen: String?
                var extra: [String]
                if action == 5 || !canFreeze {
                    extra =
                        folder == "odr"
                        ? layout + ["--sign-command", Bool.random(using: &random) ? "exit 3" : "rm {}/Info.plist"]
                        : ["--ba-package", "false {manifest} {output}"]
                } else {
                    extra = folder == "odr" ? layout : []
                    let owned = before.keys.filter {
                        !$0.hasPrefix(".") && !user.keys.contains(folder + "/" + $0) && before[$0] != Data("/".utf8)
                    }.sorted()
                    frozen = fixture.project.path(folder + "/" + owned.randomElement(using: &random)!)
                    try #require(
                        try CommandRunner.run(["+i", frozen!], executable: chattr).status == 0,
                        "seed \(seed), step \(step): chattr +i was refused")
                }
                let output = try run(extra)
                if let frozen { _ = try CommandRunner.run(["-i", frozen], executable: chattr) }
                if output.status != 0 {
                    failed += 1
                    #expect(output.status == 2, "seed \(seed), step \(step): \(output.stderr)")
                    #expect(
                        try OwnershipTests.snapshot(fixture.project.path(folder)) == before,
                        "seed \(seed), step \(step): \(extra) \(frozen ?? "")")
                    #expect(try fixture.run(["verify", folder]).status == verified, "seed \(seed), step \(step)")
                } else {
                    #expect(frozen != nil, "seed \(seed), step \(step): \(extra) did not fail")
                }
            }
            try expectUserBytes("step \(step)")
        }
        #expect(failed > 0 && built > 0, "seed \(seed): \(failed) failed, \(built) built")
        #expect(!user.isEmpty)
    }

    /// A full disk at every step of a build: a small file system (tmpfs, mounted as root; skipped elsewhere) grown a
    /// page at a time from what the previous build uses, so the disk fills while packs are written, while the commit
    /// records what it creates, writes the plists or stages the manifest. Each build either finishes or fails with
    /// exit 2 leaving the folder as it was, verifiable.
    @Test func aFullDiskAtAnyStepLeavesThePreviousBuild() throws {
        let project = try TemporaryProject()
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.full
            resources-root: R
            resources:
              - {path: A, tags: [a]}
              - {path: B, tags: [b]}
              - {path: C, tags: [c]}
            """)
        for name in ["A", "B", "C"] { try project.file("R/\(name)/data.bin", bytes: randomBytes(20_000, seed: 7)) }
        try project.folder("disk")
        let mount = URL(fileURLWithPath: "/bin/mount")
        guard
            FileManager.default.isExecutableFile(atPath: mount.path),
            try CommandRunner.run(["-t", "tmpfs", "-o", "size=4m", "tmpfs", project.path("disk")], executable: mount)
                .status == 0
        else { return }
        defer { _ = try? CommandRunner.run([project.path("disk")], executable: URL(fileURLWithPath: "/bin/umount")) }
        func used() throws -> Int {
            let attributes = try FileManager.default.attributesOfFileSystem(forPath: project.path("disk"))
            return (attributes[.systemSize] as! Int) - (attributes[.systemFreeSize] as! Int)
        }
        var failures = 0
        var successes = 0
        // Every page count from none to past the build's needs under make test-all; a spread of them by default.
        for pages in TestLevel.isFull ? Array(0...30) : [0, 1, 2, 4, 8, 16, 30] {
            _ = try CommandRunner.run(["-o", "remount,size=4m", project.path("disk")], executable: mount)
            try? FileManager.default.removeItem(atPath: project.path("disk/out"))
            for name in ["A", "B", "C"] {
                try project.file("R/\(name)/data.bin", bytes: randomBytes(20_000, seed: 7))
            }
            #expect(
                try CommandRunner.run(["build", "-o", "disk/out", "--compression", "store"], in: project.root).status
                    == 0)
            let before = try OwnershipTests.snapshot(project.path("disk/out"))
            let size = try used() + pages * 4096
            _ = try CommandRunner.run(["-o", "remount,size=\(size)", project.path("disk")], executable: mount)
            // Two packs change, and a URL prefix changes the Apple plists.
            try project.file("R/A/data.bin", bytes: randomBytes(20_000, seed: 8))
            try project.file("R/B/data.bin", bytes: randomBytes(20_000, seed: 9))
            let output = try CommandRunner.run(
                ["build", "-o", "disk/out", "--compression", "store", "--url-prefix", "https://cdn.example.com/p"],
                in: project.root)
            if output.status == 0 {
                successes += 1
            } else {
                failures += 1
                #expect(output.status == 2, "\(pages) pages: \(output.stderr)")
                #expect(
                    try OwnershipTests.snapshot(project.path("disk/out")) == before, "\(pages) pages: \(output.stderr)")
            }
            _ = try CommandRunner.run(["-o", "remount,size=4m", project.path("disk")], executable: mount)
            #expect(try CommandRunner.run(["verify", "disk/out"], in: project.root).status == 0, "\(pages) pages")
        }
        #expect(failures > 0 && successes > 0, "\(failures) failures, \(successes) successes")
    }

    /// A kill at every step of the commit (strace makes the Nth rename or unlink a SIGKILL): the folder holds the
    /// previous manifest, the new one, or the journal of an interrupted build, and a manifest in place always verifies;
    /// the next build recovers exactly what a clean build writes, and Background Assets versions go on as if nothing
    /// had happened.
    @Test(.enabled(if: DurabilityTests.strace != nil), arguments: ["odr", "background-assets"])
    func aKillAtAnyStepOfTheCommitIsRecovered(format: String) throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        let options =
            format == "odr"
            ? ["--url-prefix", "https://cdn.example.com/odr"]
            : [
                "--format", "background-assets", "--ba-package", BackgroundAssetsFixture.packagerCommand,
                "--url-prefix", "https://cdn.example.com/packs",
            ]
        func build(_ output: String, edit: Int) throws -> CommandRunner.Output {
            try fixture.project.file("R/Level1/scene.json", "edit \(edit)")
            return try fixture.run(["build", "-o", output] + options)
        }
        func comparable(_ folder: String) throws -> [String: Data] {
            var files = try OwnershipTests.snapshot(fixture.project.path(folder))
            // The template's URLs hold the folder's absolute path; the stand-in's archives are the same bytes.
            files["AssetPackManifestTemplate.plist"] = nil
            return files
        }
        #expect(try build("clean", edit: 1).status == 0)
        #expect(try build("clean", edit: 2).status == 0)
        var kills = 0
        // Every rename and unlink of the commit under make test-all; the first, middle and last ones by default.
        for step in TestLevel.isFull ? Array(1...16) : [1, 2, 3, 5, 8, 12, 16] {
            let folder = "killed\(step)"
            #expect(try build(folder, edit: 1).status == 0)
            try fixture.project.file("R/Level1/scene.json", "edit 2")
            let killed = try CommandRunner.run(
                [
                    "-f", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2,unlink,unlinkat", "-e",
                    "inject=rename,renameat,renameat2,unlink,unlinkat:signal=KILL:when=\(step)",
                    CommandRunner.executable.path, "build", "-o", folder,
                ] + options, in: fixture.project.root, executable: URL(fileURLWithPath: DurabilityTests.strace!))
            if killed.status != 0 { kills += 1 }
            let hasManifest = FileManager.default.fileExists(
                atPath: fixture.project.path(folder + "/odrpack-manifest.json"))
            let hasJournal = FileManager.default.fileExists(
                atPath: fixture.project.path(folder + "/.odrpack-tmp-previous-manifest.json"))
            #expect(hasManifest || hasJournal, "step \(step)")
            if hasManifest && !hasJournal {
                #expect(try fixture.run(["verify", folder]).status == 0, "step \(step)")
            }
            let rebuilt = try build(folder, edit: 2)
            #expect(rebuilt.status == 0, "step \(step): \(rebuilt.stderr)")
            #expect(try comparable(folder) == comparable("clean"), "step \(step)")
            #expect(try fixture.run(["verify", folder]).status == 0, "step \(step)")
        }
        #expect(kills > 3, "\(kills) kills")
    }
}
