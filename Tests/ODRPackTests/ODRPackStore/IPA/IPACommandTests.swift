import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackFormats

/// `odrpack ipa` (docs/store.md#ipa) through the binary; every IPA is read back with libarchive, an independent reader.
@Suite struct IPACommandTests {
    let thinTests = ThinCommandTests()

    /// One entry of an IPA as libarchive reads it.
    struct Entry: Equatable {
        var mode: UInt32
        var data: Data
        var link: String?
    }

    static func read(_ path: String) throws -> (names: [String], entries: [String: Entry]) {
        let reader = try ZipArchiveReader(path: path)
        var names: [String] = []
        var entries: [String: Entry] = [:]
        while let name = try reader.nextEntry() {
            var data = Data()
            let mode = reader.mode
            let link = reader.symlinkTarget
            try reader.readData { data.append(contentsOf: $0) }
            names.append(name)
            entries[name] = Entry(mode: mode, data: data, link: link)
        }
        return (names, entries)
    }

    /// The game's app with an executable, a symbolic link, a signature and a nested framework.
    func signedGame() throws -> TemporaryProject {
        let project = try thinTests.builtGame()
        TestSystem.setMode(project.path("Game.app/Game"), 0o755)
        try project.file("Game.app/Frameworks/Kit.framework/Versions/A/Kit", "framework code")
        TestSystem.setMode(project.path("Game.app/Frameworks/Kit.framework/Versions/A/Kit"), 0o755)
        try project.symlink("Game.app/Frameworks/Kit.framework/Kit", to: "Versions/A/Kit")
        try project.file("Game.app/_CodeSignature/CodeResources", "signature of every file")
        return project
    }

    func ipa(_ project: TemporaryProject, _ arguments: [String], environment: [String: String] = [:]) throws
        -> CommandRunner.Output
    {
        try CommandRunner.run(["ipa"] + arguments, in: project.root, environment: environment)
    }

    func packNames(_ project: TemporaryProject) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).sorted()
    }

    /// app-signature-stale names what broke the signature: removing the packed files, or, when the app held none of
    /// them, installing the On-Demand Resources plists (issue 45).
    @Test func aStaleSignatureSaysWhatBrokeIt() throws {
        let project = try signedGame()
        for path in [
            "Level1/scene.json", "Level1/music.caf", "Level2/scene.json", "Level2/Deep/texture.png",
            "Shared/paddle.png", "Tutorial/ünïcode name.json",
        ] {
            try FileManager.default.removeItem(atPath: project.path("Game.app/" + path))
        }
        let output = try ipa(project, ["Game.app", "out", "--output", "Game.ipa", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let diagnostics = try #require(try output.json()["diagnostics"] as? [[String: Any]])
        let stale = try #require(diagnostics.first { $0["code"] as? String == "app-signature-stale" })
        let message = try #require(stale["message"] as? String)
        #expect(
            message.hasPrefix(
                "'Game.app' is signed, and installing the On-Demand Resources plists broke its signature: "))
        #expect(!message.contains("removing"))
    }

    @Test func layoutLinksModesAndTheSameBytesTwice() throws {
        let project = try signedGame()
        let app = try AppBundleFixture.snapshot(project.path("Game.app"))
        let build = try AppBundleFixture.snapshot(project.path("out"))
        let output = try ipa(project, ["Game.app", "out", "--output", "Game.ipa", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        // The inputs never change.
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == app)
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)

        let document = try output.json()
        let size = try FileManager.default.attributesOfItem(atPath: project.path("Game.ipa"))[.size] as? Int
        #expect(document["ipa"] as? String == "Game.ipa")
        #expect(document["size"] as? Int == size)
        let appDocument = try #require(document["app"] as? [String: Any])
        #expect(appDocument["name"] as? String == "Game.app")
        #expect(appDocument["bundleId"] as? String == "com.example.build")
        #expect(appDocument["removedFiles"] as? Int == 6)
        #expect(document["packs"] as? [String] == (try packNames(project)))
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["app-signature-stale"])
        #expect(diagnostics.first?["severity"] as? String == "warning")

        let (names, entries) = try Self.read(project.path("Game.ipa"))
        // Sorted by path, each folder before its contents.
        #expect(names == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        for name in names {
            var parts = name.split(separator: "/").dropLast()
            while !parts.isEmpty {
                #expect(entries[parts.joined(separator: "/") + "/"] != nil, "\(name)'s folder")
                parts = parts.dropLast()
            }
        }
        let appFiles = names.filter { $0.hasPrefix("Payload/Game.app/") && !$0.hasSuffix("/") }.map {
            String($0.dropFirst("Payload/Game.app/".count))
        }
        #expect(
            appFiles.sorted() == [
                "AssetPackManifestTemplate.plist", "Frameworks/Kit.framework/Kit",
                "Frameworks/Kit.framework/Versions/A/Kit", "Game", "Info.plist", "OnDemandResources.plist",
                "UI/menu.json", "_CodeSignature/CodeResources",
            ])
        #expect(entries["Payload/Game.app/Game"]?.mode == 0o100755)
        #expect(entries["Payload/Game.app/Frameworks/Kit.framework/Versions/A/Kit"]?.mode == 0o100755)
        #expect(entries["Payload/Game.app/UI/menu.json"]?.mode == 0o100644)
        #expect(names.filter { $0.hasSuffix("/") }.allSatisfy { entries[$0]?.mode == 0o040755 })
        #expect(entries["Payload/Game.app/UI/menu.json"]?.data == Data("{}".utf8))
        let link = try #require(entries["Payload/Game.app/Frameworks/Kit.framework/Kit"])
        #expect(link.mode & 0o170000 == 0o120000)
        #expect(link.link == "Versions/A/Kit")
        #expect(
            entries["Payload/Game.app/OnDemandResources.plist"]?.data
                == FileManager.default.contents(atPath: project.path("out/OnDemandResources.plist")))

        // Every pack as a folder beside the app, without META-INF, with its files' bytes.
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json")))
            as! [String: Any]
        for pack in manifest["packs"] as! [[String: Any]] {
            let folder = "Payload/" + (pack["file"] as! String) + "/"
            #expect(entries[folder] != nil, "\(folder)")
            #expect(entries[folder + "Info.plist"] != nil)
            #expect(!names.contains { $0.hasPrefix(folder + "META-INF") })
            for file in pack["files"] as! [[String: Any]] {
                let data = try #require(entries[folder + (file["path"] as! String)]?.data)
                #expect(sha256Hex(data) == file["sha256"] as? String)
            }
        }
        #expect(names.filter { $0.hasPrefix("Payload/") && $0.split(separator: "/").count == 2 }.count == 2)

        // The same inputs give the same bytes; SOURCE_DATE_EPOCH sets the entries' time.
        #expect(try ipa(project, ["Game.app", "out", "-o", "Again.ipa"]).status == 0)
        #expect(
            FileManager.default.contents(atPath: project.path("Game.ipa"))
                == FileManager.default.contents(atPath: project.path("Again.ipa")))
        #expect(
            try ipa(project, ["Game.app", "out", "-o", "Later.ipa"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
                .status == 0)
        #expect(
            FileManager.default.contents(atPath: project.path("Game.ipa"))
                != FileManager.default.contents(atPath: project.path("Later.ipa")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
                $0.hasPrefix(".odrpack-tmp")
            }.isEmpty)
    }

    /// Signed packs keep their signatures in the IPA, from either layout.
    @Test(arguments: ["zip", "folder"]) func signedPacksKeepTheirSignatures(layout: String) throws {
        let project = try thinTests.builtGame([
            "--layout", layout, "--sign-command",
            "mkdir {}/_CodeSignature && echo sig > {}/_CodeSignature/CodeResources",
        ])
        let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa"])
        #expect(output.status == 0, "\(output.stderr)")
        let (_, entries) = try Self.read(project.path("Game.ipa"))
        let packs = try packNames(project)
        #expect(packs.count == 4)
        for pack in packs {
            let signature = "Payload/OnDemandResources/\(pack)/_CodeSignature/CodeResources"
            #expect(entries[signature]?.data == Data("sig\n".utf8), "\(signature)")
            #expect(entries[signature]?.mode == 0o100644)
        }
    }

    /// The zip's form (SPEC 13.1): no data descriptors, compressible files deflated, incompressible ones stored.
    @Test func entriesAreDeflatedOnlyWhereThatSaves() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/Data/text.json", String(repeating: "{\"tile\": 1}\n", count: 500))
        try project.file("Game.app/Data/noise.bin", bytes: randomBytes(5_000, seed: 9))
        try project.file("Game.app/Data/large.bin", bytes: randomBytes(3 << 20, seed: 10))
        let largeText = String(repeating: "{\"tile\": 2, \"row\": 7}\n", count: 120_000)
        try project.file("Game.app/Data/large.json", largeText)
        #expect(try ipa(project, ["Game.app", "out", "-o", "Game.ipa"]).status == 0)
        let reader = try StreamingZipReader(path: FilePath(project.path("Game.ipa")))
        var methods: [String: UInt16] = [:]
        while let entry = try reader.nextEntry() {
            #expect(entry.flags & ZipFormat.dataDescriptorFlag == 0)
            methods[entry.name] = entry.method
            let (crc, size) = try reader.readData { _ in }
            #expect(crc == entry.crc && size == entry.size)
        }
        #expect(methods["Payload/Game.app/Data/text.json"] == ZipFormat.deflated)
        #expect(methods["Payload/Game.app/Data/noise.bin"] == ZipFormat.stored)
        #expect(methods["Payload/Game.app/Data/large.bin"] == ZipFormat.stored)
        #expect(methods["Payload/Game.app/Data/large.json"] == ZipFormat.deflated)
        #expect(
            try Self.read(project.path("Game.ipa")).entries["Payload/Game.app/Data/large.json"]?.data
                == Data(largeText.utf8))
        #expect(
            try Self.read(project.path("Game.ipa")).entries["Payload/Game.app/Data/large.bin"]?.data.count == 3 << 20)
    }

    /// An .ipa in: the app inside is thinned, and everything beside Payload/NAME.app is kept byte for byte.
    @Test func anIPAInKeepsWhatItHeldBesideTheApp() throws {
        let project = try signedGame()
        let first = try ipa(project, ["Game.app", "out", "-o", "Plain.ipa"])
        #expect(first.status == 0, "\(first.stderr)")
        // An IPA as Xcode exports it: the unthinned app, with SwiftSupport/ and Symbols/ beside Payload/.
        try writeIPA(
            from: project.path("Game.app"),
            extra: [
                ("SwiftSupport/iphoneos/libswiftCore.dylib", Data("swift runtime".utf8)),
                ("Symbols/ABCD.symbols", Data(randomBytes(2_000, seed: 4))),
            ], to: project.path("Exported.ipa"))
        let output = try ipa(project, ["Exported.ipa", "out", "-o", "Store.ipa", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect((try output.json()["app"] as? [String: Any])?["removedFiles"] as? Int == 6)
        let (names, entries) = try Self.read(project.path("Store.ipa"))
        #expect(entries["SwiftSupport/iphoneos/libswiftCore.dylib"]?.data == Data("swift runtime".utf8))
        #expect(entries["Symbols/ABCD.symbols"]?.data == Data(randomBytes(2_000, seed: 4)))
        #expect(entries["Payload/Game.app/Game"]?.mode == 0o100755)
        #expect(entries["Payload/Game.app/Frameworks/Kit.framework/Kit"]?.link == "Versions/A/Kit")
        let plain = try Self.read(project.path("Plain.ipa"))
        #expect(names.filter { $0.hasPrefix("Payload/") } == plain.names)
        for name in plain.names { #expect(entries[name] == plain.entries[name], "\(name)") }
    }

    /// Writes an IPA of the app folder (plus `extra` files) with the project's zip writer and Unix modes.
    func writeIPA(from app: String, extra: [(String, Data)], to path: String) throws {
        var items: [(name: String, mode: UInt32, data: Data)] = []
        let prefix = "Payload/" + (app as NSString).lastPathComponent
        items.append(("Payload/", 0o040755, Data()))
        items.append((prefix + "/", 0o040755, Data()))
        for sub in try FileManager.default.subpathsOfDirectory(atPath: app) {
            let full = app + "/" + sub
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            let permissions = UInt32(attributes[.posixPermissions] as? Int ?? 0o644)
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?: items.append((prefix + "/" + sub + "/", 0o040000 | permissions, Data()))
            case .typeSymbolicLink?:
                items.append(
                    (
                        prefix + "/" + sub, 0o120755,
                        Data(try FileManager.default.destinationOfSymbolicLink(atPath: full).utf8)
                    ))
            default:
                items.append(
                    (prefix + "/" + sub, 0o100000 | permissions, try Data(contentsOf: URL(fileURLWithPath: full))))
            }
        }
        for (name, data) in extra {
            var parts = name.split(separator: "/").dropLast()
            var folders: [String] = []
            while !parts.isEmpty {
                folders.append(parts.joined(separator: "/") + "/")
                parts = parts.dropLast()
            }
            for folder in folders.reversed() where !items.contains(where: { $0.name == folder }) {
                items.append((folder, 0o040755, Data()))
            }
            items.append((name, 0o100644, data))
        }
        let descriptor = open(path, O_CREAT | O_TRUNC | O_RDWR, 0o644)
        defer { close(descriptor) }
        let writer = try AssetPackZipWriter(descriptor: descriptor, path: FilePath(path), entryTime: 0, level: 6)
        for item in items {
            if item.name.hasSuffix("/") {
                try writer.add(item.name, .folder, mode: item.mode)
                continue
            }
            try item.data.withUnsafeBytes { raw in
                // Files deflated (the reader inflates them), links stored.
                try writer.add(
                    item.name, .streamed(deflate: item.mode & 0o170000 == 0o100000), size: Int64(raw.count),
                    crc: CRC32.update(0, raw), mode: item.mode
                ) { try $0(raw) }
            }
        }
        _ = try writer.finish()
    }

    /// An IPA as zip tools that stream write it (`ditto`): every local header with flag bit 3 and zero sizes, the
    /// CRC and sizes in a data descriptor after the data, the modes in the central directory.
    func writeIPAWithDataDescriptors(_ items: [(name: String, mode: UInt32, data: Data)], to path: String) throws {
        var zip = Data()
        var central = Data()
        func u16(_ value: Int, _ into: inout Data) {
            into.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)])
        }
        func u32(_ value: UInt32, _ into: inout Data) {
            for shift in [0, 8, 16, 24] { into.append(UInt8(value >> UInt32(shift) & 0xFF)) }
        }
        for item in items {
            let name = Data(item.name.utf8)
            let crc = item.data.withUnsafeBytes { CRC32.update(0, $0) }
            let offset = UInt32(zip.count)
            u32(0x0403_4b50, &zip)
            u16(20, &zip)
            u16(0x0808, &zip)
            u16(0, &zip)
            u16(0, &zip)
            u16(0x21, &zip)
            u32(0, &zip)
            u32(0, &zip)
            u32(0, &zip)
            u16(name.count, &zip)
            u16(0, &zip)
            zip.append(name)
            zip.append(item.data)
            u32(0x0807_4b50, &zip)
            u32(crc, &zip)
            u32(UInt32(item.data.count), &zip)
            u32(UInt32(item.data.count), &zip)
            u32(0x0201_4b50, &central)
            u16(0x031E, &central)
            u16(20, &central)
            u16(0x0808, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0x21, &central)
            u32(crc, &central)
            u32(UInt32(item.data.count), &central)
            u32(UInt32(item.data.count), &central)
            u16(name.count, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u32(item.mode << 16, &central)
            u32(offset, &central)
            central.append(name)
        }
        let directoryOffset = UInt32(zip.count)
        zip.append(central)
        u32(0x0605_4b50, &zip)
        u16(0, &zip)
        u16(0, &zip)
        u16(items.count, &zip)
        u16(items.count, &zip)
        u32(UInt32(central.count), &zip)
        u32(directoryOffset, &zip)
        u16(0, &zip)
        try zip.write(to: URL(fileURLWithPath: path))
    }

    @Test func anIPAWithDataDescriptorsIsRead() throws {
        let project = try thinTests.builtGame()
        let scene = try Data(contentsOf: project.root.appendingPathComponent("R/Level1/scene.json"))
        try writeIPAWithDataDescriptors(
            [
                ("Payload/", 0o040755, Data()), ("Payload/Game.app/", 0o040755, Data()),
                ("Payload/Game.app/Game", 0o100755, Data("executable".utf8)),
                ("Payload/Game.app/Info.plist", 0o100644, AppBundleFixture.infoPlist(bundleId: "com.example.build")),
                ("Payload/Game.app/Level1/", 0o040755, Data()),
                ("Payload/Game.app/Level1/scene.json", 0o100644, scene),
                ("Payload/Game.app/Current", 0o120755, Data("Game".utf8)),
                ("SwiftSupport/", 0o040755, Data()), ("SwiftSupport/lib.dylib", 0o100644, Data("swift".utf8)),
            ], to: project.path("Streamed.ipa"))
        let output = try ipa(project, ["Streamed.ipa", "out", "-o", "Store.ipa", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect((try output.json()["app"] as? [String: Any])?["removedFiles"] as? Int == 1)
        let (names, entries) = try Self.read(project.path("Store.ipa"))
        #expect(!names.contains("Payload/Game.app/Level1/scene.json") && !names.contains("Payload/Game.app/Level1/"))
        #expect(entries["Payload/Game.app/Game"]?.mode == 0o100755)
        #expect(entries["Payload/Game.app/Current"]?.link == "Game")
        #expect(entries["SwiftSupport/lib.dylib"]?.data == Data("swift".utf8))
        // A damaged entry (its CRC no longer matches) is exit 2, and no IPA.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: project.path("Streamed.ipa")))
        let at = try #require(bytes.range(of: Data("executable".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "E")
        try bytes.write(to: URL(fileURLWithPath: project.path("Streamed.ipa")))
        let damaged = try ipa(project, ["Streamed.ipa", "out", "-o", "Damaged.ipa"])
        #expect(damaged.status == 2 && damaged.stderr.contains("damaged"), "\(damaged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Damaged.ipa")))
    }

    /// A full disk beside FILE (a small tmpfs, as root), whichever step it stops (the working copy, the packs, the
    /// zip): exit 2, the previous IPA as it was, nothing else left there; with room enough, a whole IPA.
    @Test(.enabled(if: SystemAbilities.canMountTmpfs, "needs root and tmpfs mounts"))
    func aFullDiskKeepsThePreviousIPA() throws {
        let project = try thinTests.builtGame()
        let disk = project.path("Disk")
        try project.folder("Disk")
        try #require(ThinSafetyTests.shell("mount -t tmpfs -o size=2m tmpfs '\(disk)'"), "mount was refused")
        defer { _ = ThinSafetyTests.shell("umount '\(disk)'") }
        var outcomes: Set<Int32> = []
        // Every 32 KiB of room under make test-all, every 128 KiB (six sizes, both outcomes) by default.
        for room in stride(from: 16, through: 656, by: TestLevel.rounds(128, full: 32)) {
            try project.file("Disk/Game.ipa", "the previous IPA")
            try? FileManager.default.removeItem(atPath: disk + "/filler")
            let free = try #require(
                try FileManager.default.attributesOfFileSystem(forPath: disk)[.systemFreeSize] as? Int)
            try project.file("Disk/filler", bytes: Data(count: max(0, free - room * 1024)))
            let output = try ipa(project, ["Game.app", "out", "-o", "Disk/Game.ipa"])
            outcomes.insert(output.status)
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk).sorted() == ["Game.ipa", "filler"])
            if output.status == 0 {
                #expect(try Self.read(disk + "/Game.ipa").names.contains("Payload/Game.app/Info.plist"))
            } else {
                #expect(output.status == 2 && output.stderr.contains("No space left on device"), "\(output.stderr)")
                #expect(try String(contentsOfFile: disk + "/Game.ipa", encoding: .utf8) == "the previous IPA")
            }
        }
        #expect(outcomes == [0, 2])
    }

    /// An IPA that cannot be renamed over (immutable) is kept as it was, with no temporary left beside it.
    @Test(.enabled(if: SystemAbilities.canMakeImmutable, "needs root and chattr"))
    func anExistingIPAIsKeptWhenTheWriteFails() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.ipa", "the previous IPA")
        try AppBundleFixture.withImmutable(project.path("Game.ipa")) {
            let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa"])
            #expect(output.status == 2, "\(output.stderr)")
        }
        #expect(try String(contentsOfFile: project.path("Game.ipa"), encoding: .utf8) == "the previous IPA")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
                $0.hasPrefix(".odrpack-tmp")
            }.isEmpty)
    }

    /// The sign command runs once on the thinned app; what it adds is in the IPA, and the signature is not stale.
    /// A failing one is exit 2, with no IPA written and an existing one kept.
    @Test func theSignCommandSignsTheThinnedApp() throws {
        let project = try signedGame()
        let sign =
            "test ! -e {}/Level1/scene.json && test -e {}/OnDemandResources.plist && echo signed > {}/_CodeSignature/CodeResources && echo once >> calls"
        let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--sign-command", sign, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect((try output.json()["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(try String(contentsOfFile: project.path("calls"), encoding: .utf8) == "once\n")
        let (_, entries) = try Self.read(project.path("Game.ipa"))
        #expect(entries["Payload/Game.app/_CodeSignature/CodeResources"]?.data == Data("signed\n".utf8))
        #expect(
            try String(contentsOfFile: project.path("Game.app/_CodeSignature/CodeResources"), encoding: .utf8)
                == "signature of every file")

        let before = FileManager.default.contents(atPath: project.path("Game.ipa"))
        let failing = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--sign-command", "exit 3"])
        #expect(failing.status == 2 && failing.stderr.contains("exited with 3"), "\(failing.stderr)")
        #expect(FileManager.default.contents(atPath: project.path("Game.ipa")) == before)
        let fresh = try ipa(project, ["Game.app", "out", "-o", "New.ipa", "--sign-command", "false"])
        #expect(fresh.status == 2)
        #expect(!FileManager.default.fileExists(atPath: project.path("New.ipa")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter {
                $0.hasPrefix(".odrpack-tmp")
            }.isEmpty)
    }

    /// Everything is checked before anything is written: thin's checks (here: another app, a file from other sources),
    /// packs that do not verify, and a Background Assets build (exit 64).
    @Test func checksComeFirstAndWriteNothing() throws {
        let project = try thinTests.builtGame()
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.other"))
        let other = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--json"])
        #expect(other.status == 1)
        #expect(
            (try other.json()["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String } == [
                "app-bundle-id-mismatch"
            ])
        #expect(try other.json()["ipa"] is NSNull)
        try project.file("Game.app/Info.plist", bytes: AppBundleFixture.infoPlist(bundleId: "com.example.build"))
        try project.file("Game.app/Level1/scene.json", "other bytes")
        let differs = try ipa(project, ["Game.app", "out", "-o", "Game.ipa"])
        #expect(differs.status == 1 && differs.stderr.contains("[app-file-differs]"), "\(differs.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))

        // A pack that no longer matches its manifest.
        try project.file(
            "Game.app/Level1/scene.json",
            bytes: try Data(contentsOf: project.root.appendingPathComponent("R/Level1/scene.json")))
        let pack = project.path("out/OnDemandResources/" + (try packNames(project))[0])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: pack))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: pack))
        let corrupt = try ipa(project, ["Game.app", "out", "-o", "Game.ipa"])
        #expect(corrupt.status == 1, "\(corrupt.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))

        let same = try ipa(project, ["out", "out", "-o", "Game.ipa"])
        #expect(same.status == 2)
        #expect(try ipa(project, ["Game.app", "out", "-o", ""]).status == 64)
        // A missing folder of FILE is made only once every check passed: not for a pack that does not match.
        #expect(try ipa(project, ["Game.app", "out", "-o", "Missing/Game.ipa"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: project.path("Missing")))
        #expect(try ipa(project, ["Game.app", "out", "-o", "out"]).status == 2)
        // FILE inside an input: the app, the build folder, or the input IPA itself.
        let app = try AppBundleFixture.snapshot(project.path("Game.app"))
        let build = try AppBundleFixture.snapshot(project.path("out"))
        let inApp = try ipa(project, ["Game.app", "out", "-o", "Game.app/Game.ipa"])
        #expect(inApp.status == 2 && inApp.stderr.contains("never changes"), "\(inApp.stderr)")
        #expect(try ipa(project, ["Game.app", "out", "-o", "out/Game.ipa"]).status == 2)
        #expect(try AppBundleFixture.snapshot(project.path("Game.app")) == app)
        #expect(try AppBundleFixture.snapshot(project.path("out")) == build)
        try project.file("Input.ipa", "an ipa")
        #expect(try ipa(project, ["Input.ipa", "out", "-o", "./Input.ipa"]).status == 2)
        #expect(try String(contentsOfFile: project.path("Input.ipa"), encoding: .utf8) == "an ipa")
    }

    /// `--output` makes its missing folders, as every other command's does (docs/store.md#ipa); never inside an input.
    @Test func missingFoldersOfTheOutputAreMade() throws {
        let project = try thinTests.builtGame()
        let inside = try ipa(project, ["Game.app", "out", "-o", "out/New/Game.ipa"])
        #expect(inside.status == 2 && inside.stderr.contains("never changes"), "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("out/New")))
        let made = try ipa(project, ["Game.app", "out", "-o", "dist/ipa/Game.ipa"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try Self.read(project.path("dist/ipa/Game.ipa")).names.contains("Payload/Game.app/Info.plist"))
        try project.file("file", "not a folder")
        let file = try ipa(project, ["Game.app", "out", "-o", "file/Game.ipa"])
        #expect(file.status == 2 && file.stderr.contains("is not a folder"), "\(file.stderr)")
    }

    @Test func aBackgroundAssetsBuildIsUploadedNotZipped() throws {
        let fixture = try BackgroundAssetsThinTests().thinnable(
            background: "background-assets: {app-group: group.com.example.bamboo}")
        let output = try fixture.run(["ipa", "Game.app", "out", "-o", "Game.ipa"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("Background Assets packs are uploaded on their own: odrpack upload"))
        #expect(!FileManager.default.fileExists(atPath: fixture.project.path("Game.ipa")))
    }
}
