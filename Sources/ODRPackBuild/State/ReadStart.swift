import ODRPackPlatform

/// When a build started reading resources-root, on the clock that stamps the resources' files, and how coarse that
/// clock is (docs/build-output.md#incremental). A file the build recorded vouches for the content read from it only
/// when both its modification and change times lie at least one tick before that moment: a file stamped later may
/// have been written again after it was read with the same times (git's "racily clean" case), and a one-second clock
/// (HFS+, FAT, SMB, NFS, ext4 with 128-byte inodes) makes that a whole second. The cache's own file system and the
/// time the build ended say nothing about this: a state saved on a nanosecond file system at 12:00:00.7 once
/// vouched for a resource stamped 12:00:00 on a one-second one, edited again at 12:00:00.9.
struct ReadStart: Sendable, Equatable {
    /// Nanoseconds since 1970 on the resources' file-system clock, taken before the build scanned resources-root;
    /// nil when no trustworthy time could be had (a network file system with no probe): then nothing vouches.
    var time: Int64?
    /// resources-root's device: a file on another one (a mount inside resources-root) is read again.
    var device: UInt64
    /// The file system's clock tick in nanoseconds, at least 1 and at most `largestTick`.
    var tick: Int64

    /// FAT's two seconds, the coarsest clock of a file system a build may read.
    static let largestTick: Int64 = 2_000_000_000

    /// Whether a file recorded with `stamp` by the build that read from this moment is as it was read.
    func vouches(for stamp: FileStamp) -> Bool {
        guard let time, stamp.device == device else { return false }
        let (latest, overflow) = time.subtractingReportingOverflow(tick)
        return !overflow && stamp.modificationNanoseconds <= latest && stamp.changeNanoseconds <= latest
    }

    /// The tick a file system's times show: the greatest common divisor of the times (modulo two seconds) of files on
    /// `device`, taken for modification and change times apart, the coarser of the two. A one-second file system's
    /// times are whole seconds (FAT's modification times even ones); a nanosecond one's soon share no divisor but a
    /// few nanoseconds. Few files can only make it coarser than the clock is, which costs a re-read, never a miss.
    /// - Parameter modification: false looks at change times alone, for files whose modification times were set
    ///   (a pack folder's files carry the entry time).
    static func tick(of stamps: some Sequence<FileStamp>, device: UInt64, modification: Bool = true) -> Int64 {
        var modificationTick = modification ? largestTick : 1
        var change = largestTick
        for stamp in stamps where stamp.device == device {
            if modification { modificationTick = gcd(modificationTick, stamp.modificationNanoseconds) }
            change = gcd(change, stamp.changeNanoseconds)
        }
        return max(modificationTick, change)
    }

    /// gcd(divisor, value mod divisor) with `divisor` positive: a positive divisor of `divisor`.
    static func gcd(_ divisor: Int64, _ value: Int64) -> Int64 {
        var a = divisor
        var b = ((value % divisor) + divisor) % divisor
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// The times a build takes before it reads resources-root, while it does not yet know where resources-root is:
    /// the kernel's file clock, and, when the output folder is on a network file system (whose files the server
    /// stamps with its own clock), the time of a probe file written there as the build's own temporary and removed
    /// at once. Nothing is ever written in resources-root: it is the user's.
    struct Sample: Sendable {
        /// `SystemCall.fileClockNanoseconds`: the clock of every local file system.
        let clock: Int64
        /// The probe's modification time and device, when one was written.
        let probe: (time: Int64, device: UInt64)?

        /// - Parameter output: the output folder, which exists and which the build holds the lock of.
        static func take(output: FilePath) -> Sample {
            let clock = SystemCall.fileClockNanoseconds
            guard SystemCall.isRemoteFileSystem(output) == true else {
                return Sample(clock: clock, probe: nil)
            }
            return Sample(clock: clock, probe: probe(in: output))
        }

        /// The time and device of a probe file written in `folder` as the build's own temporary, removed at once:
        /// the file system's clock, whoever keeps it. Nil when it cannot be written.
        static func probe(in folder: FilePath) -> (time: Int64, device: UInt64)? {
            let path = folder.joined(TemporaryName.beside(".odrpack-clock-probe"))
            guard let descriptor = try? SystemCall.createFile(path) else { return nil }
            let wrote = [UInt8(ascii: "\n")].withUnsafeBytes { SystemCall.writeAll(descriptor, $0) } == 0
            let closed = SystemCall.closeFile(descriptor) == 0
            // The server stamps the file when it gets it: the close sends what was written.
            let status = SystemCall.status(path, followingLinks: false)
            _ = SystemCall.removeFile(path)
            guard wrote, closed, let stamp = status?.stamp else { return nil }
            return (stamp.modificationNanoseconds, stamp.device)
        }

        /// The moment the build started reading resources-root at `rootPath` (resolved), whose files' stamps the
        /// build recorded in `stamps`: the local clock when resources-root is on a local file system, else the probe's
        /// time when the probe was on resources-root's own file system, else none.
        func start(rootPath: String, stamps: some Sequence<FileStamp>) -> ReadStart? {
            start(
                rootPath: rootPath, stamps: stamps,
                remote: FilePath(checking: rootPath).flatMap { SystemCall.isRemoteFileSystem($0) })
        }

        /// - Parameter remote: whether resources-root's file system is a network one (nil: unknown).
        func start(rootPath: String, stamps: some Sequence<FileStamp>, remote: Bool?) -> ReadStart? {
            guard let root = FilePath(checking: rootPath).flatMap({ SystemCall.status($0) }) else { return nil }
            let device = root.stamp.device
            let time: Int64?
            switch remote {
            case false?: time = clock
            case true?: time = probe.flatMap { $0.device == device ? $0.time : nil }
            case nil: time = nil
            }
            return ReadStart(time: time, device: device, tick: ReadStart.tick(of: stamps, device: device))
        }
    }
}
