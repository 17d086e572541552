import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackFormats
@testable import ODRPackStore

/// docs/store.md#ipa: an input IPA whose entries share bytes (a zip bomb of overlapping entries), or whose declared
/// sizes pass what the disk may hold, is refused before anything is written.
extension IPACommandTests {
    /// A zip of one stored file at offset 0 whose bytes `entries` central records all point at (each under its own
    /// name), the records' offsets moved by `shift` each, each declaring `declared` bytes when given.
    static func overlappingZip(entries: Int, shift: UInt32, declared: UInt32? = nil) -> Data {
        let data = Array("0123456789abcdef".utf8)
        let crc = data.withUnsafeBytes { CRC32.update(0, $0) }
        var zip = Data()
        func u16(_ value: Int, _ into: inout Data) {
            into.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)])
        }
        func u32(_ value: UInt32, _ into: inout Data) {
            for shift in stride(from: 0, to: 32, by: 8) { into.append(UInt8(value >> UInt32(shift) & 0xFF)) }
        }
        let first = Array("Payload/Game.app/f0".utf8)
        u32(0x0403_4B50, &zip)
        u16(20, &zip)
        u16(0, &zip)
        u16(0, &zip)
        u16(0, &zip)
        u16(0, &zip)
        u32(crc, &zip)
        u32(UInt32(data.count), &zip)
        u32(UInt32(data.count), &zip)
        u16(first.count, &zip)
        u16(0, &zip)
        zip.append(contentsOf: first)
        zip.append(contentsOf: data)
        // Padding, so that shifted offsets still find bytes to read.
        zip.append(Data(repeating: 0, count: Int(shift) * entries))
        var central = Data()
        for index in 0..<entries {
            let name = Array("Payload/Game.app/f\(index)".utf8)
            u32(0x0201_4B50, &central)
            u16(0x031E, &central)
            u16(20, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u32(crc, &central)
            u32(UInt32(data.count), &central)
            u32(declared ?? UInt32(data.count), &central)
            u16(name.count, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u32(0o100644 << 16, &central)
            u32(shift * UInt32(index), &central)
            central.append(contentsOf: name)
        }
        let offset = UInt32(zip.count)
        zip.append(central)
        u32(0x0605_4B50, &zip)
        u16(0, &zip)
        u16(0, &zip)
        u16(entries, &zip)
        u16(entries, &zip)
        u32(UInt32(central.count), &zip)
        u32(offset, &zip)
        u16(0, &zip)
        return zip
    }

    /// 100 entries on the same bytes, and entries 10 bytes apart (each overlapping the next): refused, naming the
    /// first, with nothing written and no work folder left.
    @Test(arguments: [(100, UInt32(0)), (3, UInt32(10))])
    func overlappingEntriesAreRefused(entries: Int, shift: UInt32) throws {
        let project = try thinTests.builtGame()
        try Self.overlappingZip(entries: entries, shift: shift).write(
            to: project.root.appendingPathComponent("bomb.ipa"))
        let output = try ipa(project, ["bomb.ipa", "out", "-o", "Game.ipa"])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(
            output.stderr
                == "odrpack: error: 'bomb.ipa' holds 'Payload/Game.app/f0' whose data overlaps another entry's: it is no IPA to trust; rebuild it\n"
        )
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        #expect(try temporaries(project) == [])
    }

    /// The unpacker itself refuses with the facts the message above is made of (IPAFailure): the IPA as given and
    /// the first entry that overlaps, before anything is written.
    @Test func theUnpackerNamesTheOverlappingEntry() throws {
        let project = try TemporaryProject()
        let bomb = project.path("bomb.ipa")
        try Self.overlappingZip(entries: 3, shift: 10).write(to: URL(fileURLWithPath: bomb))
        try project.folder("work")
        #expect(throws: ODRPackError.ipa(.overlappingEntry(bomb, entry: "Payload/Game.app/f0"))) {
            _ = try AppCopy.unpack(FilePath(bomb), into: FilePath(project.path("work")))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("work")) == [])
    }

    /// One entry declaring more than the disk has free (4 GiB - 1 on a 1 MiB tmpfs) is refused before it is written.
    @Test(.enabled(if: SystemAbilities.canMountTmpfs, "needs root and a tmpfs mount"))
    func declaredSizesPastTheFreeSpaceAreRefused() throws {
        let project = try thinTests.builtGame()
        let disk = project.path("disk")
        try project.folder("disk")
        try #require(ThinSafetyTests.shell("mount -t tmpfs -o size=1m tmpfs '\(disk)'"), "mount was refused")
        defer { _ = ThinSafetyTests.shell("umount '\(disk)'") }
        try Self.overlappingZip(entries: 1, shift: 0, declared: UInt32.max).write(
            to: project.root.appendingPathComponent("big.ipa"))
        let output = try ipa(project, ["big.ipa", "out", "-o", "disk/Game.ipa"])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(
            output.stderr.contains("'big.ipa' declares 4294967295 bytes of content, more than the "), "\(output.stderr)"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == [])
    }
}
