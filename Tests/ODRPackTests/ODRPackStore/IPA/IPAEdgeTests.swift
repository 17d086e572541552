import Foundation
import Testing

@testable import ODRPackFormats

/// `ipa` at its edges (docs/store.md#ipa): what the sign command leaves, the umask, Ctrl-C and a killed run, and
/// hostile input IPAs that would cost memory.
extension IPACommandTests {
    /// The names beside FILE that ipa works under.
    func temporaries(_ project: TemporaryProject) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: project.root.path).filter { $0.hasPrefix(".odrpack-tmp") }
            .sorted()
    }

    /// A sign command that deletes the app, its Info.plist or its executable, or puts back a packed file: exit 2
    /// naming what it did, no FILE, nothing left beside it.
    @Test(arguments: [
        ("rm -rf {}", "removed the app itself"),
        ("rm {}/Info.plist", "removed Info.plist"),
        ("rm {}/Game", "left no executable file 'Game' (CFBundleExecutable) inside the app"),
        ("rm {}/Game && ln -s /bin/sh {}/Game", "left no executable file 'Game' (CFBundleExecutable) inside the app"),
        (
            "rm {}/Game && printf '<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.build</string><key>CFBundleExecutable</key><string>../../../../../bin/sh</string></dict></plist>' > {}/Info.plist",
            "left no executable file '../../../../../bin/sh' (CFBundleExecutable) inside the app"
        ),
        (
            "mkdir -p {}/Level1 && cp R/Level1/scene.json {}/Level1/",
            "put back 'Level1/scene.json', which ships in its pack"
        ),
    ])
    func aSignCommandThatBreaksTheAppWritesNothing(command: String, said: String) throws {
        let project = try thinTests.builtGame()
        let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--sign-command", command])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(
            output.stderr
                == "odrpack: error: the sign command \(said) in 'Game.app': it must only sign the app; no IPA written (fix the command given to --sign-command)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        #expect(try temporaries(project) == [])
    }

    /// The same inputs give the same IPA whatever the umask: the plists thinning installs are 0644 (they were 0600
    /// under umask 077), folders 0755.
    @Test func theUmaskDoesNotShowInTheIPA() throws {
        let project = try thinTests.builtGame()
        for (mask, name) in [("022", "open.ipa"), ("077", "closed.ipa")] {
            let output = try CommandRunner.run(
                [
                    "-c", "umask \(mask) && exec \"$0\" \"$@\"", CommandRunner.executable.path, "ipa", "Game.app",
                    "out",
                    "-o", name,
                ],
                in: project.root, executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(output.status == 0, "\(output.stderr)")
        }
        let open = try Data(contentsOf: project.root.appendingPathComponent("open.ipa"))
        let closed = try Data(contentsOf: project.root.appendingPathComponent("closed.ipa"))
        #expect(open == closed)
        let (_, entries) = try Self.read(project.path("closed.ipa"))
        #expect(entries["Payload/Game.app/OnDemandResources.plist"]?.mode == 0o100644)
        #expect(entries["Payload/Game.app/AssetPackManifestTemplate.plist"]?.mode == 0o100644)
    }

    /// Ctrl-C (here sent by the sign command to ipa) stops ipa with exit 130, after it removed its work folder and
    /// wrote no FILE.
    @Test func ctrlCRemovesTheWorkFolder() throws {
        let project = try thinTests.builtGame()
        let output = try ipa(
            project, ["Game.app", "out", "-o", "Game.ipa", "--sign-command", "kill -INT $PPID; sleep 1"])
        #expect(output.status == 130, "\(output.stderr)")
        #expect(
            output.stderr.hasSuffix(
                "odrpack: error: interrupted: the .ipa is as it was, or written whole; the app and the build are unchanged\n"
            ), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        #expect(try temporaries(project) == [])
    }

    /// What a killed ipa left beside FILE (its lock freed with its process) is removed by the next ipa writing there,
    /// whatever FILE that one writes; a live one's (its lock held) stays: aWorkFolderIsAbandonedWhenItsLockIsFree.
    @Test func aKilledIPAsWorkFolderIsRemovedByTheNext() throws {
        let project = try thinTests.builtGame()
        let killed = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--sign-command", "kill -KILL $PPID"])
        #expect(killed.status == 9)
        let left = try temporaries(project)
        #expect(left.count == 1 && left.allSatisfy { $0.hasSuffix("-work") }, "\(left)")
        let next = try ipa(project, ["Game.app", "out", "-o", "Other.ipa"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try temporaries(project) == [])
    }

    /// An input IPA whose symbolic link `Payload/Game.app/Link` holds `data` (deflated, `size` bytes inflated)
    /// while its headers declare `declared` bytes.
    func hostileIPA(_ path: String, inflatedSize size: Int, declared: UInt32) throws {
        var deflated = Data()
        let deflater = try Deflater(level: 1)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        var left = size
        var crc: UInt32 = 0
        while left > 0 {
            let count = min(left, chunk.count)
            left -= count
            try chunk.withUnsafeBytes { raw in
                let piece = UnsafeRawBufferPointer(rebasing: raw[..<count])
                crc = CRC32.update(crc, piece)
                try deflater.compress(piece, finish: left == 0) { deflated.append(contentsOf: $0) }
            }
        }
        var zip = Data()
        var central = Data()
        func u16(_ value: Int, _ into: inout Data) {
            into.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)])
        }
        func u32(_ value: UInt32, _ into: inout Data) {
            for shift in [0, 8, 16, 24] { into.append(UInt8(value >> UInt32(shift) & 0xFF)) }
        }
        let items: [(name: String, mode: UInt32, method: Int, data: Data, crc: UInt32, size: UInt32)] = [
            ("Payload/", 0o040755, 0, Data(), 0, 0), ("Payload/Game.app/", 0o040755, 0, Data(), 0, 0),
            ("Payload/Game.app/Link", 0o120755, 8, deflated, crc, declared),
        ]
        for item in items {
            let name = Data(item.name.utf8)
            let offset = UInt32(zip.count)
            u32(0x0403_4b50, &zip)
            for value in [20, 0x0800, item.method, 0, 0x21] { u16(value, &zip) }
            for value in [item.crc, UInt32(item.data.count), item.size] { u32(value, &zip) }
            u16(name.count, &zip)
            u16(0, &zip)
            zip.append(name)
            zip.append(item.data)
            u32(0x0201_4b50, &central)
            for value in [0x031E, 20, 0x0800, item.method, 0, 0x21] { u16(value, &central) }
            for value in [item.crc, UInt32(item.data.count), item.size] { u32(value, &central) }
            for value in [name.count, 0, 0, 0, 0] { u16(value, &central) }
            u32(item.mode << 16, &central)
            u32(offset, &central)
            central.append(name)
        }
        let directoryOffset = UInt32(zip.count)
        zip.append(central)
        u32(0x0605_4b50, &zip)
        for value in [0, 0, items.count, items.count] { u16(value, &zip) }
        u32(UInt32(central.count), &zip)
        u32(directoryOffset, &zip)
        u16(0, &zip)
        try zip.write(to: URL(fileURLWithPath: path))
    }

    /// A link whose target is over 4096 bytes, or whose data is more than it declares, is exit 2 naming it.
    @Test func aHostileLinkEntryIsRefusedByName() throws {
        let project = try thinTests.builtGame()
        try hostileIPA(project.path("Long.ipa"), inflatedSize: 5000, declared: 5000)
        let long = try ipa(project, ["Long.ipa", "out", "-o", "Game.ipa"])
        #expect(long.status == 2)
        #expect(
            long.stderr
                == "odrpack: error: 'Long.ipa' holds the symbolic link 'Payload/Game.app/Link' whose target is 5000 bytes, over the 4096 a path may have: it is no IPA to trust; rebuild it\n"
        )
        try hostileIPA(project.path("Liar.ipa"), inflatedSize: 1 << 20, declared: 10)
        let liar = try ipa(project, ["Liar.ipa", "out", "-o", "Game.ipa"])
        #expect(liar.status == 2)
        #expect(
            liar.stderr
                == "odrpack: error: 'Payload/Game.app/Link' in 'Liar.ipa' declares 10 bytes but holds more: it is no IPA to trust; rebuild it\n"
        )
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        #expect(try temporaries(project) == [])
    }

    /// The case: a small IPA whose link entry inflates to far more than it declares. ipa's peak memory is the
    /// same for 64 MiB and 512 MiB of inflated data (it held all of it, twice: 2.1 GB for 1 GiB).
    @Test func aLinkThatInflatesCostsNoMemory() throws {
        let project = try thinTests.builtGame()
        var peaks: [Int] = []
        for (name, size) in [("Small.ipa", 64 << 20), ("Large.ipa", 512 << 20)] {
            try hostileIPA(project.path(name), inflatedSize: size, declared: 10)
            let (status, peak) = try Self.peakMemory(
                ["ipa", project.path(name), project.path("out"), "-o", project.path("Game.ipa")])
            #expect(status == 2)
            peaks.append(peak)
        }
        #expect(peaks[1] < peaks[0] + 8 << 20, "\(peaks)")
    }

    /// odrpack's exit status and peak resident memory (PeakMemory, as BoundedMemoryTests).
    static func peakMemory(_ arguments: [String]) throws -> (status: Int, bytes: Int) {
        try PeakMemory.run(arguments)
    }
}
