import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// A build reads the last build's archive directory from its end to copy unchanged entries: it must agree with the
/// archive exactly, and refuse an end it does not expect rather than guess.
@Suite struct ZipCentralDirectoryTests {
    func read(_ path: String) throws -> ZipCentralDirectory {
        let descriptor: Int32
        switch SystemCall.openForReading(FilePath(path)) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw ODRPackError.io(.open, path: FilePath(path), error)
        }
        defer { _ = SystemCall.closeFile(descriptor) }
        return try ZipCentralDirectory(
            descriptor: descriptor, fileSize: UInt64(try #require(SystemCall.status(FilePath(path))).stamp.size))
    }

    func entries(_ directory: ZipDirectory) -> [ZipCentralDirectory.Entry] {
        directory.entries.map {
            .init(
                name: $0.name, method: UInt16($0.method), crc: $0.crc, compressedSize: $0.compressedSize, size: $0.size,
                headerOffset: $0.offset, flags: UInt16($0.flags), versionMadeBy: UInt16($0.versionMadeBy),
                mode: UInt32($0.mode))
        }
    }

    @Test func itReadsWhatTheWriterWrote() throws {
        let project = try TemporaryProject()
        _ = try ZipLimitsTests().smallArchive(in: project, names: ["a/", "a/b.txt", "ü.json"])
        let path = project.path("small.zip")
        let directory = try read(path)
        #expect(directory.entries.map(\.name) == ["a/", "a/b.txt", "ü.json"])
        #expect(directory.entries == entries(try ZipDirectory(path: path)))
        #expect(directory.entries[2].headerOffset > directory.entries[1].headerOffset && directory.entries[2].size == 5)
    }

    /// 65,535 entries or more need the zip64 end record, which the reader follows.
    @Test func manyEntriesAreFoundThroughTheZip64EndRecord() throws {
        let project = try TemporaryProject()
        let names = (0..<70_000).map { "f\($0)" }
        _ = try ZipLimitsTests().smallArchive(in: project, names: names)
        let path = project.path("small.zip")
        let directory = try read(path)
        #expect(directory.entries.count == 70_000 && directory.entries.last?.name == "f69999")
        #expect(directory.entries == entries(try ZipDirectory(path: path)))
    }

    @Test func anEndItDoesNotExpectIsAFormatError() throws {
        let project = try TemporaryProject()
        let bytes = try ZipLimitsTests().smallArchive(in: project, names: ["a/", "a/b.txt"])
        let path = project.path("small.zip")
        var commented = bytes
        commented[commented.count - 2] = 3
        commented += Array("abc".utf8)
        let endOffset = bytes.count - 22
        var misplaced = bytes
        misplaced[endOffset + 16] &+= 1
        var miscounted = bytes
        miscounted[endOffset + 10] = 9
        miscounted[endOffset + 8] = 9
        for damaged in [commented, Array(bytes.dropLast()), misplaced, miscounted, Array(bytes.prefix(21)), []] {
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            #expect(throws: ZipCentralDirectory.FormatError.self) { try read(path) }
        }
    }

    /// An IPA's file whose name is not UTF-8 (docs/store.md#ipa): the writer keeps the name's bytes and clears flag bit
    /// 11 for that entry alone (APPNOTE 4.4.4, appendix D), and the directory reads the bytes back, in local and
    /// central records alike; the entries after it are not taken for overlapping ones (a name's length is its bytes').
    @Test func aNameThatIsNotUTF8KeepsItsBytesWithoutTheUTF8Flag() throws {
        let project = try TemporaryProject()
        let path = project.path("names.zip")
        let names: [[UInt8]] = [
            RawNames.bytes("caf%.txt"), RawNames.bytes("d%/", 0xFF), RawNames.bytes("d%/x", 0xFF),
            Array("caf\u{E9}.txt".utf8), [0xC3], Array("z".utf8),
        ]
        do {
            let descriptor = try SystemCall.createFile(FilePath(path))
            defer { SystemCall.closeFile(descriptor) }
            let writer = try AssetPackZipWriter(
                descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: nil)
            for name in names {
                if name.last == UInt8(ascii: "/") {
                    try writer.add(nameBytes: name, .folder)
                    continue
                }
                try Array("hello".utf8).withUnsafeBytes {
                    try writer.add(nameBytes: name, .archived($0, deflated: false), size: 5, crc: CRC32.update(0, $0))
                }
            }
            _ = try writer.finish()
        }
        let directory = try read(path)
        #expect(directory.entries.map(\.nameBytes) == names)
        #expect(directory.entries.map { $0.flags & ZipFormat.utf8Flag } == [0, 0, 0, 0x0800, 0, 0x0800])
        #expect(
            directory.entries.map(\.name) == ["caf\\xe9.txt", "d\\xff/", "d\\xff/x", "caf\u{E9}.txt", "\\xc3", "z"])
        #expect(directory.overlappingEntry() == nil)
        // Each local header carries the same name and flags as its central record.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for entry in directory.entries {
            let at = Int(entry.headerOffset)
            let flags = UInt16(bytes[at + 6]) | UInt16(bytes[at + 7]) << 8
            let length = Int(bytes[at + 26]) | Int(bytes[at + 27]) << 8
            #expect(flags == entry.flags)
            #expect(Array(bytes[(at + 30)..<(at + 30 + length)]) == entry.nameBytes)
        }
        #expect(ZipFormat.flags(name: Array("plain".utf8)) == ZipFormat.utf8Flag)
        #expect(ZipFormat.flags(name: [0xE9]) == 0)
    }
}
