import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackPlatform

/// The racily-clean rule (docs/build-output.md#incremental): a file recorded by a build vouches for what was read from
/// it only when both its times lie at least one tick of its own file system's clock before the moment that build
/// started reading, a time taken on that file system.
@Suite struct ReadStartTests {
    static let second: Int64 = 1_000_000_000

    func stamp(modified: Int64, changed: Int64, device: UInt64 = 7) -> FileStamp {
        FileStamp(size: 4, modificationNanoseconds: modified, changeNanoseconds: changed, inode: 1, device: device)
    }

    /// The boundary is exactly one tick: at `time - tick` a file vouches, one nanosecond later it does not, by either
    /// time; another device, no time and an overflowing subtraction vouch for nothing.
    @Test func aFileVouchesOnlyAWholeTickBeforeReadingStarted() {
        let start = ReadStart(time: 100 * Self.second + 300_000_000, device: 7, tick: Self.second)
        let latest = 99 * Self.second + 300_000_000
        #expect(start.vouches(for: stamp(modified: latest, changed: latest)))
        #expect(!start.vouches(for: stamp(modified: latest + 1, changed: latest)))
        #expect(!start.vouches(for: stamp(modified: latest, changed: latest + 1)))
        // A one-second file system stamps a file read at 100.3 s and edited again at 100.9 s with 100 s both times.
        #expect(!start.vouches(for: stamp(modified: 100 * Self.second, changed: 100 * Self.second)))
        #expect(start.vouches(for: stamp(modified: 99 * Self.second, changed: 99 * Self.second)))
        #expect(!start.vouches(for: stamp(modified: 0, changed: 0, device: 8)))
        #expect(!ReadStart(time: nil, device: 7, tick: 1).vouches(for: stamp(modified: 0, changed: 0)))
        #expect(!ReadStart(time: .min, device: 7, tick: 2).vouches(for: stamp(modified: .min, changed: .min)))
        // A nanosecond clock: one nanosecond before is enough.
        let fine = ReadStart(time: 5_000, device: 7, tick: 1)
        #expect(fine.vouches(for: stamp(modified: 4_999, changed: 4_999)))
        #expect(!fine.vouches(for: stamp(modified: 5_000, changed: 4_999)))
    }

    /// The tick is what the files' times show: whole seconds give a second, FAT's even modification times two, a
    /// nanosecond clock a few nanoseconds; files on other devices and negative times count right.
    @Test func theTickIsTheClocksGranularityAsTheTimesShowIt() {
        let seconds = [3, 8, 13].map { stamp(modified: $0 * Self.second, changed: ($0 + 1) * Self.second) }
        #expect(ReadStart.tick(of: seconds, device: 7) == Self.second)
        let fat = [4, 8, 14].map { stamp(modified: $0 * Self.second, changed: $0 * Self.second + 10_000_000) }
        #expect(ReadStart.tick(of: fat, device: 7) == 2 * Self.second)
        let fine = [stamp(modified: 1_700_000_000_123_456_789, changed: 1_700_000_000_223_456_787)]
        #expect(ReadStart.tick(of: fine, device: 7) == 1)
        #expect(ReadStart.tick(of: fine, device: 8) == ReadStart.largestTick)
        #expect(
            ReadStart.tick(of: [stamp(modified: -3 * Self.second, changed: -Self.second)], device: 7) == Self.second)
        #expect(ReadStart.tick(of: [FileStamp](), device: 7) == ReadStart.largestTick)
    }

    /// The state keeps the moment, its device and tick, or that there was none.
    @Test func theStateKeepsWhenReadingStarted() {
        var state = BuildState()
        state.rootPath = "/r"
        for start in [nil, ReadStart(time: nil, device: 3, tick: 1), ReadStart(time: -5, device: .max, tick: 2)] {
            state.readStart = start
            #expect(BuildState.parse(state.serialized()) == state)
        }
        state.readStart = ReadStart(time: 1, device: 1, tick: 0)
        #expect(BuildState.parse(state.serialized()) == nil)
    }

    /// The local clock is the one that stamps a local file: a file written after the sample is never before it.
    @Test func aSampleIsNeverLaterThanAFileWrittenAfterIt() throws {
        let project = try TemporaryProject()
        let sample = ReadStart.Sample.take(output: FilePath(project.root.path))
        #expect(sample.probe == nil)
        try project.file("R/new.txt", "new")
        let written = try #require(SystemCall.status(FilePath(project.path("R/new.txt")))).stamp
        #expect(written.modificationNanoseconds >= sample.clock)
        let start = try #require(sample.start(rootPath: project.path("R"), stamps: [written]))
        #expect(start.time == sample.clock)
        #expect(!start.vouches(for: written))
        #expect(sample.start(rootPath: project.path("missing"), stamps: [written]) == nil)
    }

    /// On a network file system the local clock says nothing: the probe's time counts, and only when the probe was on
    /// resources-root's own device; without one, or on a file system that cannot be told, nothing vouches.
    @Test func aNetworkFileSystemTrustsOnlyAProbeOnItsOwnDevice() throws {
        let project = try TemporaryProject()
        try project.file("R/a.txt", "a")
        let device = try #require(SystemCall.status(FilePath(project.path("R")))).stamp.device
        let probe = ReadStart.Sample(clock: 5_000, probe: (time: 3_000, device: device))
        #expect(probe.start(rootPath: project.path("R"), stamps: [], remote: true)?.time == 3_000)
        #expect(probe.start(rootPath: project.path("R"), stamps: [], remote: false)?.time == 5_000)
        #expect(probe.start(rootPath: project.path("R"), stamps: [], remote: nil)?.time == nil)
        let elsewhere = ReadStart.Sample(clock: 5_000, probe: (time: 3_000, device: device &+ 1))
        #expect(elsewhere.start(rootPath: project.path("R"), stamps: [], remote: true)?.time == nil)
        let none = ReadStart.Sample(clock: 5_000, probe: nil)
        let start = try #require(none.start(rootPath: project.path("R"), stamps: [], remote: true))
        #expect(start.time == nil && start.device == device)
        #expect(!start.vouches(for: stamp(modified: 0, changed: 0, device: device)))
        // A probe writes nothing that stays: it is the build's own temporary, removed at once.
        let probed = try #require(ReadStart.Sample.probe(in: FilePath(project.root.path)))
        #expect(probed.device == device && probed.time > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.root.path) == ["R"])
    }
}

/// A one-second file system (ext4 with 128-byte inodes), loop-mounted: only root can, and only where loop devices
/// exist; the test that needs it is skipped elsewhere.
struct OneSecondFileSystem {
    let image: URL
    let mountPoint: URL

    static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether one can be mounted here: tried once.
    static let possible: Bool = {
        guard getuid() == 0, let trial = OneSecondFileSystem() else { return false }
        trial.remove()
        return true
    }()

    init?() {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-ext4-\(UUID().uuidString)")
        image = base.appendingPathExtension("img")
        mountPoint = base
        guard FileManager.default.createFile(atPath: image.path, contents: nil),
            (try? FileHandle(forWritingTo: image))
                .map({ handle in
                    defer { try? handle.close() }
                    return (try? handle.truncate(atOffset: 32 << 20)) != nil
                }) == true,
            Self.run(["mkfs.ext4", "-q", "-F", "-I", "128", image.path]),
            (try? FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)) != nil,
            Self.run(["mount", "-o", "loop", image.path, mountPoint.path])
        else {
            try? FileManager.default.removeItem(at: mountPoint)
            try? FileManager.default.removeItem(at: image)
            return nil
        }
    }

    func remove() {
        _ = Self.run(["umount", mountPoint.path])
        try? FileManager.default.removeItem(at: mountPoint)
        try? FileManager.default.removeItem(at: image)
    }
}

extension BuildCommandTests {
    /// The racily-clean bug on a one-second file system, with the state on another (nanosecond) one as it usually
    /// is: a same-size edit within the second of the build's own reading was never seen again ("0 written", the pack
    /// kept the old bytes forever). The next build reads the file again and packs its new bytes.
    /// The output is on a nanosecond file system, so that the build's wait for its own packs' tick (below) does not
    /// carry it into the next second.
    @Test(.enabled(if: OneSecondFileSystem.possible)) func aSameSizeEditWithinTheBuildsSecondIsSeen() throws {
        let disk = try #require(OneSecondFileSystem())
        defer { disk.remove() }
        let project = try TemporaryProject(in: disk.mountPoint)
        let elsewhere = try TemporaryProject()
        let out = elsewhere.path("out")
        try project.manifest("version: 1\nbundle-id: com.example.racy\nresources:\n  - {path: R, tags: [a]}\n")
        try project.file("R/other.json", "{}")
        #expect(try build(project, out).status == 0)
        func packedSHA256() throws -> String? {
            let data = try Data(contentsOf: URL(fileURLWithPath: out + "/odrpack-manifest.json"))
            let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let files = (manifest?["packs"] as? [[String: Any]])?.flatMap { $0["files"] as? [[String: Any]] ?? [] }
            return files?.first { $0["path"] as? String == "R/level.json" }?["sha256"] as? String
        }
        var reproduced = false
        for attempt in 0..<12 where !reproduced {
            // Start at the beginning of a second, so the build and the edit after it share that second.
            let now = Date().timeIntervalSince1970
            Thread.sleep(forTimeInterval: now.rounded(.up) - now + 0.01)
            let old = "{\"level\": \(attempt)}"
            let new = "{\"level\": \(attempt + 1)}"
            try project.file("R/level.json", old)
            let before = try #require(SystemCall.status(FilePath(project.path("R/level.json")))).stamp
            #expect(try build(project, out).status == 0)
            #expect(try packedSHA256() == sha256Hex(Data(old.utf8)))
            try project.file("R/level.json", new)
            let after = try #require(SystemCall.status(FilePath(project.path("R/level.json")))).stamp
            // Too slow for the second: try again.
            guard after.modificationNanoseconds == before.modificationNanoseconds,
                after.changeNanoseconds == before.changeNanoseconds, after.size == before.size
            else { continue }
            reproduced = true
            #expect(before.modificationNanoseconds % 1_000_000_000 == 0)
            let again = try build(project, out)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try buildInfo(again)["written"]?.count == 1)
            #expect(try packedSHA256() == sha256Hex(Data(new.utf8)))
            #expect(try CommandRunner.run(["verify", out], in: project.root).status == 0)
        }
        #expect(reproduced, "no build finished within the second it started in")
    }

    /// A pack archive on a one-second file system, changed (same size, same modification time) right after the
    /// build that wrote it: the build waited for its packs' tick before taking their stamps, so the change shows in
    /// the change time, and the next build writes the pack again instead of trusting a stamp that still matches.
    @Test(.enabled(if: OneSecondFileSystem.possible)) func aPackChangedRightAfterItsBuildIsWrittenAgain() throws {
        let disk = try #require(OneSecondFileSystem())
        defer { disk.remove() }
        let project = try TemporaryProject(in: disk.mountPoint)
        try project.manifest("version: 1\nbundle-id: com.example.racy\nresources:\n  - {path: R, tags: [a]}\n")
        try project.file("R/level.json", String(repeating: "{\"level\": 1}\n", count: 100))
        let first = try build(project, "out", ["--compression", "store"])
        #expect(first.status == 0, "\(first.stderr)")
        let packs = project.path("out/OnDemandResources")
        let archive = packs + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: packs).first))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        let at = try #require(bytes.range(of: Data("\"level\": 1".utf8))).upperBound - 1
        bytes[at] = UInt8(ascii: "2")
        try TestSystem.keepingTimes(of: archive) { try bytes.write(to: URL(fileURLWithPath: archive)) }
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 1)
        let again = try build(project, "out", ["--compression", "store"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try buildInfo(again)["written"]?.count == 1)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// The same for the build's documents: odrpack-manifest.json, renamed into place after the packs' wait, changed
    /// right after its build (same size, same modification time) is written again, not taken for what the build
    /// wrote by the fast path or the commit.
    @Test(.enabled(if: OneSecondFileSystem.possible)) func aDocumentChangedRightAfterItsBuildIsWrittenAgain() throws {
        let disk = try #require(OneSecondFileSystem())
        defer { disk.remove() }
        let project = try TemporaryProject(in: disk.mountPoint)
        try project.manifest("version: 1\nbundle-id: com.example.racy\nresources:\n  - {path: R, tags: [a]}\n")
        try project.file("R/level.json", "{}")
        #expect(try build(project).status == 0)
        let manifest = project.path("out/odrpack-manifest.json")
        let written = try Data(contentsOf: URL(fileURLWithPath: manifest))
        try TestSystem.keepingTimes(of: manifest) {
            try Data(repeating: 0x20, count: written.count).write(to: URL(fileURLWithPath: manifest))
        }
        #expect(try build(project).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifest)) == written)
        #expect(try CommandRunner.run(["verify", "out"], in: project.root).status == 0)
    }

    /// The wait for the output's clock: none for a time already a tick past, until then for one just ahead, and a
    /// bounded give-up for one far ahead.
    @Test func theWaitForThePacksTickIsBounded() throws {
        let folder = try TemporaryProject()
        let now = SystemCall.fileClockNanoseconds
        #expect(ArchiveClock.wait(past: now - 2_000_000_000, tick: 1_000_000_000, in: FilePath(folder.root.path)))
        #expect(ArchiveClock.wait(past: now, tick: 50_000_000, in: FilePath(folder.root.path)))
        #expect(SystemCall.fileClockNanoseconds >= now + 50_000_000)
        let started = Date()
        #expect(!ArchiveClock.wait(past: now + 60_000_000_000, tick: 1, in: FilePath(folder.root.path)))
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(!ArchiveClock.wait(past: .max, tick: 1, in: FilePath(folder.root.path)))
    }
}
