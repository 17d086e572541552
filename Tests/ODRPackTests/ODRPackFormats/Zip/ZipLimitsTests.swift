import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// The zip format's own limits, met with an error rather than a trap, and a reader that checks every count it is given.
@Suite struct ZipLimitsTests {
    /// A small archive written by odrpack's writer: the bytes, and where its central directory starts and ends.
    func smallArchive(in project: TemporaryProject, names: [String] = ["a/", "a/b.txt"]) throws -> [UInt8] {
        let path = project.path("small.zip")
        let descriptor = try SystemCall.createFile(FilePath(path))
        defer { SystemCall.closeFile(descriptor) }
        let writer = try AssetPackZipWriter(
            descriptor: descriptor, path: FilePath(path), entryTime: 946_684_800, level: nil)
        for name in names {
            if name.hasSuffix("/") {
                try writer.add(name, .folder)
                continue
            }
            let bytes = Array("hello".utf8)
            try bytes.withUnsafeBytes {
                try writer.add(name, .archived($0, deflated: false), size: 5, crc: CRC32.update(0, $0))
            }
        }
        _ = try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aNameOverSixtyFiveThousandBytesIsAnErrorNotATrap() throws {
        let project = try TemporaryProject()
        let long = String(repeating: "n", count: 65_536)
        for name in [long + "/", long] {
            #expect(throws: ODRPackError.self) { _ = try smallArchive(in: project, names: [name]) }
        }
        let longest = String(repeating: "n", count: 65_535)
        #expect(try smallArchive(in: project, names: [longest]).count > 2 * 65_535)
    }

    /// A zip64 end record whose counts or size disagree with the central directory is a format error.
    @Test func theZip64EndRecordIsChecked() throws {
        let project = try TemporaryProject()
        let plain = try smallArchive(in: project)
        let end = plain.count - 22
        let size = UInt64(plain[end + 12..<end + 16].reversed().reduce(0) { $0 << 8 | UInt64($1) })
        let offset = UInt64(plain[end + 16..<end + 20].reversed().reduce(0) { $0 << 8 | UInt64($1) })
        func little(_ value: UInt64, _ bytes: Int) -> [UInt8] {
            (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        func withZip64End(count: UInt64, onDisk: UInt64, directorySize: UInt64) -> [UInt8] {
            var record =
                little(0x0606_4b50, 4) + little(44, 8) + little(45, 2) + little(45, 2) + little(0, 4) + little(0, 4)
            record += little(onDisk, 8) + little(count, 8) + little(directorySize, 8) + little(offset, 8)
            let locator = little(0x0706_4b50, 4) + little(0, 4) + little(UInt64(end), 8) + little(1, 4)
            return Array(plain[..<end]) + record + locator + Array(plain[end...])
        }
        func reads(_ bytes: [UInt8]) throws -> Bool {
            let path = project.path("edited.zip")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader = try StreamingZipReader(path: FilePath(path))
            do { return try reader.centralDirectory().count == 2 } catch { return false }
        }
        #expect(try reads(plain))
        #expect(try reads(withZip64End(count: 2, onDisk: 2, directorySize: size)))
        #expect(try !reads(withZip64End(count: 3, onDisk: 2, directorySize: size)))
        #expect(try !reads(withZip64End(count: 2, onDisk: 1, directorySize: size)))
        #expect(try !reads(withZip64End(count: 2, onDisk: 2, directorySize: size + 1)))
    }
}
