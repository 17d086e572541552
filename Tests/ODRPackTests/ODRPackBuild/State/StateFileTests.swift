import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// The state file's format 5 (`BuildState+Encoding`): a record per file with its path and pack, written as a stream,
/// read back a window at a time, and never trusted unless whole and undamaged.
@Suite struct StateFileTests {
    static let stamp = FileStamp(
        size: 12, modificationNanoseconds: 1_700_000_000_123_456_789, changeNanoseconds: 1_700_000_000_000_000_001,
        inode: 77, device: 2049)

    /// A state of `count` files named `R/file<n>.json` in two packs, with a replay.
    static func state(files count: Int) -> BuildState {
        var state = BuildState()
        state.rootPath = "/project/R"
        state.readStart = ReadStart(time: 1_800_000_000_000_000_000, device: 2049, tick: 1)
        let paths = (0..<count).map { "R/file\($0).json" }.sorted { $0.precedesByCodePoint($1) }
        state.files = FileRecords(
            paths.enumerated().map { index, path in
                var sha = [UInt8](repeating: UInt8(index & 0xFF), count: 32)
                sha[31] = 0xA5
                return .init(
                    path: path, stamp: stamp,
                    digest: sha.withUnsafeBytes { FileDigest(sha256Bytes: $0, crc32: UInt32(index)) }, pack: index % 2)
            })
        state.packs = [
            "com.example.a": .init(
                fileName: "a.assetpack", archiveKey: "k", archiveSize: 1, archiveSha256: "s", contentHash: "c",
                uncompressedSize: 2, archiveStamp: "f1", fileCount: (count + 1) / 2),
            "com.example.b": .init(
                fileName: "b.assetpack", archiveKey: "k", archiveSize: 1, archiveSha256: "s", contentHash: "c",
                uncompressedSize: 2, archiveStamp: "f2", fileCount: count / 2),
        ]
        var replay = BuildState.Replay()
        replay.inputs = "i"
        replay.treeFingerprint = "t"
        state.replay = replay
        return state
    }

    /// The digest keeps its 32 bytes inline and still reads and parses as hex, as the manifest spells it.
    @Test func aDigestHoldsItsBytesAndSpellsThemAsHex() {
        let hex = "00ff10a5" + String(repeating: "0123456789abcdef", count: 3) + "fedcba98"
        var digest = FileDigest(sha256: hex, crc32: 7)
        #expect(digest.sha256 == hex && digest.crc32 == 7)
        #expect(MemoryLayout<FileDigest>.size == 36)
        #expect(
            MemoryLayout<FileDigest>.stride == 36, "an array of digests, one a file of every pack, holds no padding")
        digest.withSHA256Bytes { bytes in
            #expect(Array(bytes.prefix(4)) == [0x00, 0xFF, 0x10, 0xA5])
            #expect(FileDigest(sha256Bytes: bytes, crc32: 7) == digest)
        }
        #expect(FileDigest(sha256: hex, crc32: 8) != digest)
        #expect(FileDigest(sha256: "f" + hex.dropFirst(), crc32: 7) != digest)
        digest.sha256 = String(repeating: "e", count: 64)
        #expect(digest.sha256 == String(repeating: "e", count: 64) && digest.crc32 == 7)
        // Not a digest: never equal to one.
        #expect(FileDigest(sha256: "xyz", crc32: 7).sha256 == String(repeating: "f", count: 64))
    }

    /// A file costs exactly its 84-byte record and its path's bytes.
    @Test func aStateHoldsEachFileInEightyFourBytesAndItsPath() {
        let empty = Self.state(files: 0).serialized()
        for count in [1, 2, 1000] {
            let state = Self.state(files: count)
            let pathBytes = state.files.reduce(0) { $0 + $1.path.utf8.count }
            #expect(state.serialized().count == empty.count + count * 84 + pathBytes)
        }
        // 1000 files named like these (13,890 bytes of paths): format 4 took 101,890 bytes, format 3 149,890.
        #expect(Self.state(files: 1000).serialized().count - empty.count == 97_890)
    }

    @Test func aStateReadsBackExactlyFromItsOwnBytes() throws {
        let state = Self.state(files: 300)
        let data = state.serialized()
        let read = try #require(BuildState.parse(data))
        #expect(read == state)
        guard case .stored = read.files.storage else {
            Issue.record("the records are read where they lie")
            return
        }
        let records = Array(state.files)
        for index in [0, 17, 299] {
            #expect(read.file(atPath: records[index].path) == records[index])
        }
        #expect(read.file(atPath: "R/file1.jso") == nil && read.file(atPath: "R/file99.json!") == nil)
        #expect(read.file(atPath: "") == nil && read.file(atPath: "\u{10FFFF}") == nil)
        // Serialized again from its table, it is the same bytes.
        #expect(read.serialized() == data)
        // Written through the file stream, it is the same bytes too.
        let project = try TemporaryProject()
        try state.write(to: FilePath(project.path("x.state")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: project.path("x.state"))) == Data(data))
        let fromFile = try #require(BuildState.read(FilePath(project.path("x.state")), fileRecords: true))
        #expect(fromFile == state)
        // Read from the file, a window at a time, the records are the same again (the descriptor stays open).
        #expect(Array(fromFile.files) == records && fromFile.serialized() == data)
        var head = state
        head.files = []
        #expect(BuildState.read(FilePath(project.path("x.state")), fileRecords: false) == head)
    }

    /// Cut anywhere, or with any one byte changed, a state is not read: the build then reads every file again.
    @Test func aTruncatedOrDamagedStateIsNeverRead() {
        let data = Self.state(files: 12).serialized()
        for cut in 0..<data.count { #expect(BuildState.parse(data.prefix(cut)) == nil, "cut at \(cut)") }
        #expect(BuildState.parse(data + [0]) == nil)
        for index in data.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = data
                damaged[index] ^= flip
                #expect(BuildState.parse(damaged) == nil, "byte \(index) ^ \(flip)")
            }
        }
        // The head alone is damaged only where the head is.
        let headLength = data.withUnsafeBytes {
            Int($0.loadUnaligned(fromByteOffset: BuildState.magic.count, as: Int64.self).littleEndian)
        }
        let headEnd = BuildState.magic.count + 8 + headLength
        for cut in 0..<headEnd { #expect(BuildState.parse(data.prefix(cut), fileRecords: false) == nil) }
        #expect(BuildState.parse(data.prefix(headEnd + 8), fileRecords: false) != nil)
        // Foreign bytes of every short length.
        for length in 0..<200 {
            let noise = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
            #expect(BuildState.parse(BuildState.magic + noise) == nil)
            #expect(BuildState.parse(noise) == nil)
        }
    }

    /// Records whose paths are not strictly in code-point order are damage, even with a right CRC: binary search and
    /// the merge with the plan rely on the order.
    @Test func recordsOutOfOrderAreNotRead() {
        var state = Self.state(files: 3)
        var records = Array(state.files)
        records.swapAt(0, 2)
        state.files = FileRecords(records)
        #expect(BuildState.parse(state.serialized()) == nil)
        records = Array(Self.state(files: 3).files)
        records[1].path = records[0].path
        state.files = FileRecords(records)
        #expect(BuildState.parse(state.serialized()) == nil)
    }

    /// A state made at the commit is a view of the plan and its facts; written, it reads back as the same records.
    @Test func aBuildsStateIsItsPlanWrittenAsAStream() throws {
        let reuse = EntryReuseTests()
        let project = try reuse.project()
        let built = try reuse.build(project, after: nil)
        let state = built.state
        guard case .plan = state.files.storage else {
            Issue.record("a build's state is a view of its plan")
            return
        }
        #expect(state.files.count == built.plan.resourceFiles)
        let read = try #require(BuildState.parse(state.serialized()))
        #expect(read.files == state.files && read.packs == state.packs)
        for pack in built.plan.packs {
            for (index, file) in pack.files.enumerated() {
                #expect(read.file(atPath: file.path)?.digest == built.facts[pack.id]?.files[index])
                #expect(read.file(atPath: file.path)?.stamp == file.stamp)
            }
        }
        // Built again on what it read, nothing is read or written.
        let again = try reuse.build(project, after: read)
        #expect(again.written.isEmpty && again.bytesRead == 0)
    }

    /// A state whose CRCs are right but one record's path length reaches past the records (a forged or foreign file)
    /// is damage, not a trap or a huge allocation: 2^31 and 2^32 - 1, in the first and a later record, and one byte
    /// too many in the last.
    @Test(arguments: [(UInt32(1) << 31, 0), (UInt32.max, 1), (UInt32.max, 2), (UInt32(13), 2)])
    func aPathLengthOutOfRangeIsDamage(length: UInt32, record: Int) {
        var data = Self.state(files: 3).serialized()
        let headLength = data.withUnsafeBytes {
            Int($0.loadUnaligned(fromByteOffset: BuildState.magic.count, as: Int64.self).littleEndian)
        }
        let filesStart = BuildState.magic.count + 8 + headLength + 8
        // R/file0.json, R/file1.json, R/file2.json: 12 bytes each.
        let offset = filesStart + 8 + record * (StateRecordReader.fixedSize + 12)
        data.withUnsafeMutableBytes { raw in
            #expect(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self) == UInt32(12).littleEndian)
            raw.storeBytes(of: length.littleEndian, toByteOffset: offset, as: UInt32.self)
            let crc = CRC32.update(0, UnsafeRawBufferPointer(rebasing: raw[filesStart..<(raw.count - 8)]))
            raw.storeBytes(of: Int64(crc).littleEndian, toByteOffset: raw.count - 8, as: Int64.self)
        }
        #expect(BuildState.parse(data) == nil)
    }

    /// The reader gives every record whatever its window: smaller than a record (the window moves for each one) or
    /// than a path (it grows for that one), from a file or from memory.
    @Test(arguments: [1, 100, 97, 1 << 18])
    func theReaderReadsEveryRecordThroughAnyWindow(window: Int) throws {
        var state = Self.state(files: 40)
        var records = Array(state.files)
        records[7].path = "R/file14" + String(repeating: "x", count: 700)
        records.sort { $0.path.precedesByCodePoint($1.path) }
        state.files = FileRecords(records)
        let data = state.serialized()
        let project = try TemporaryProject()
        try state.write(to: FilePath(project.path("x.state")))
        for read in [BuildState.parse(data), BuildState.read(FilePath(project.path("x.state")), fileRecords: true)] {
            guard case .stored(let stored) = try #require(read).files.storage else {
                Issue.record("the records are read where they lie")
                return
            }
            let reader = StateRecordReader(stored, windowSize: window)
            var got: [BuildState.FileRecord] = []
            while reader.next() {
                got.append(
                    .init(
                        path: String(decoding: reader.path, as: UTF8.self), stamp: reader.stamp, digest: reader.digest,
                        pack: reader.pack))
            }
            #expect(reader.atEnd && !reader.damaged && got == records)
        }
    }

    /// Records are checked when the state is read and read again later: a state written over in place meanwhile (by a
    /// sync tool, not odrpack, which only renames) gives no record read after the change, never an unchecked one.
    @Test func aStateChangedInPlaceAfterItWasCheckedGivesNoRecords() throws {
        let state = Self.state(files: 40)
        let project = try TemporaryProject()
        let path = FilePath(project.path("x.state"))
        try state.write(to: path)
        guard case .stored(let stored) = try #require(BuildState.read(path, fileRecords: true)).files.storage else {
            Issue.record("the records are read where they lie")
            return
        }
        let untouched = StateRecordReader(stored)
        #expect(untouched.next())
        // The same size, one record's digest byte changed, written through another descriptor (in place).
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path.string)))
        bytes[bytes.count - 100] ^= 0xFF
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path.string))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        let reader = StateRecordReader(stored)
        #expect(!reader.next() && reader.damaged)
    }

    /// A build's state, read back from its file, gives the next build exactly the digests it recorded for the files
    /// whose stamps are as recorded, and reads nothing; a file whose stamp changed is read again, and only that one.
    @Test func aStateWhoseStampsMatchGivesBackTheSameDigests() throws {
        let reuse = EntryReuseTests()
        let project = try reuse.project()
        let built = try reuse.build(project, after: nil)
        try built.state.write(to: FilePath(project.path("x.state")))
        var read = try #require(BuildState.read(FilePath(project.path("x.state")), fileRecords: true))
        read.files.gate(by: ReadStart(time: .max, device: built.plan.packs[0].files[0].stamp.device, tick: 1))
        let options = reuse.options(project, "out")
        let folder = try BuildFolderSession.open(forWriting: options.outputPath, shownAs: "out", wait: false)
        let output = OnDemandResourcesOutput(
            plan: built.plan, options: options, rootPath: built.state.rootPath,
            transaction: try BuildFolderTransaction(folder: folder, state: read, needsManifest: false))
        let again = try PackReuse(
            plan: built.plan, previous: read, rootPath: built.state.rootPath, archiveKeys: output.archiveKeys,
            fileNames: output.fileNames, packsFolder: output.packsFolder, jobs: 2)
        #expect(again.bytesRead == 0 && again.toWrite.isEmpty && again.reused.count == built.plan.packs.count)
        for pack in built.plan.packs { #expect(again.facts[pack.id] == built.facts[pack.id], "\(pack.id)") }

        // One record's stamp no longer vouches: that file alone is read again, to the same digest.
        var records = Array(read.files)
        let touched = try #require(records.firstIndex { $0.path == "Level/Text/part3.json" })
        records[touched].stamp = FileRecords.unknownStamp
        read.files = FileRecords(records)
        let touchedAgain = try PackReuse(
            plan: built.plan, previous: read, rootPath: built.state.rootPath, archiveKeys: output.archiveKeys,
            fileNames: output.fileNames, packsFolder: output.packsFolder, jobs: 2)
        let size = try #require(built.plan.packs.lazy.flatMap { $0.files }.first { $0.path == records[touched].path })
            .size
        #expect(touchedAgain.bytesRead == size && size > 0)
        #expect(touchedAgain.reused.count == built.plan.packs.count)
        for pack in built.plan.packs { #expect(touchedAgain.facts[pack.id] == built.facts[pack.id], "\(pack.id)") }
    }
}

extension BuildCommandTests {
    /// Whatever is wrong with the state, the build reads and writes every pack again, to the same bytes.
    @Test func aDamagedStateRebuildsTheSameBytes() throws {
        let project = try gameProject()
        let first = try build(project)
        #expect(first.status == 0, "\(first.stderr)")
        let packs = try written(first)
        #expect(packs.count == 4)
        let built = try contents(project.root.appendingPathComponent("out"))
        let path = recordPath(project)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let damages: [(String, (Data) -> Data)] = [
            ("truncated", { $0.prefix($0.count / 2) }),
            ("its last byte lost", { $0.dropLast() }),
            (
                "a record's byte changed",
                {
                    var data = $0
                    data[data.count - 200] ^= 0x10
                    return data
                }
            ),
            ("format 5", { Data("odrpack-state 5".utf8) + $0.dropFirst("odrpack-state 6".utf8.count) }),
            ("foreign", { _ in Data("{\"not\": \"a state\"}\n".utf8) }),
            ("empty", { _ in Data() }),
        ]
        for (name, damage) in damages {
            try damage(good).write(to: URL(fileURLWithPath: path))
            let again = try build(project)
            #expect(again.status == 0, "\(name): \(again.stderr)")
            #expect(try written(again) == packs, "\(name)")
            #expect(try contents(project.root.appendingPathComponent("out")) == built, "\(name)")
            // The build saved a good state again: the next one writes nothing.
            #expect(try written(try build(project)) == [], "\(name)")
        }
    }
}
