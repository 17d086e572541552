import Foundation
import ODRPackBuildFormat
import ODRPackFormats
import ODRPackPlatform

/// Reads a small entry whole, digests it and compresses it as the build's compression mode says: the part of
/// writing a pack that can run on several cores at once for one pack of many small files. Owns its buffers and
/// zlib states; one per thread.
/// `@unchecked Sendable` because: its mutable buffers and zlib states are used by one thread at a time, the one
/// whose writer owns it or that borrowed it from `CompressorPool` (behind the pool's lock) until it gives it back.
final class EntryCompressor: @unchecked Sendable {
    /// Bytes sampled (at the start, middle and end) to judge whether deflate is worthwhile.
    static let sampleSize = 16 * 1024
    /// Deflate only when a trial saves at least this fraction of the sample.
    static let worthwhileSaving = 0.05

    /// A small entry ready to be written: its CRC-32 and SHA-256, and its bytes as they go into the archive.
    struct Prepared {
        var crc32: UInt32
        /// nil for a stored entry whose SHA-256 the cache does not know: the writer hashes it together with the
        /// archive (`AssetPackZipWriter.add(_:_:size:crc:hashingContent:pieces:)`), a third of the cost of a second pass.
        var sha256: String?
        var size: Int64
        var deflated: Bool
        var payload: [UInt8]
    }

    let options: BuildOptions
    let buffer = ReadBuffer(size: PackWriter.wholeEntryLimit)
    private let sample = ReadBuffer(size: sampleSize * 3)
    /// The level of `auto`'s trial of an entry no larger than its samples: the default level, so that at the default
    /// the trial's output is the entry's deflated bytes and the entry is deflated once.
    static let wholeTrialLevel = BuildOptions.defaultLevel

    /// Level 1, for the trial of `auto` on samples; `wholeTrialLevel`, for its trial of a whole small entry; the build's
    /// level for whole entries: libdeflate, one of each reused.
    private let trial: WholeDeflater?
    private let wholeTrial: WholeDeflater?
    private let deflater: WholeDeflater?

    /// Compressors that could not be set up (no memory) fail the first entry that needs them.
    init(options: BuildOptions) {
        self.options = options
        let auto = options.compression == .auto
        trial = auto ? try? WholeDeflater(level: 1) : nil
        deflater = options.compression == .store ? nil : try? WholeDeflater(level: options.level)
        wholeTrial =
            !auto
            ? nil : options.level == Self.wholeTrialLevel ? deflater : try? WholeDeflater(level: Self.wholeTrialLevel)
    }

    private static let noZlib = ODRPackError.library(.compressorUnavailable(level: nil))

    /// Where a small entry's bytes are: a pack entry's content but a folder, which the writer adds as it comes and
    /// never prepares.
    enum Source {
        case bytes([UInt8])
        case file(location: PackEntry.Location, size: Int64, stamp: FileStamp?, known: FileDigest?)
    }

    /// Prepares the entry `name`: in-memory bytes, or a file of at most one chunk.
    func prepare(_ name: String, _ source: Source, onBytes: ((Int64) -> Void)?) throws -> Prepared {
        switch source {
        case .bytes(let bytes):
            return try bytes.withUnsafeBytes { try prepare($0, known: nil) }
        case .file(let location, let size, let stamp, let known):
            let source = try SourceFile(path: location.file, name: name, expected: stamp, size: size)
            defer { source.close() }
            let bytes = try source.readWhole(into: buffer.bytes)
            if options.checksContentWhileWriting { try source.checkNotExecutable(start: bytes) }
            onBytes?(size)
            let prepared = try prepare(bytes, known: known)
            try source.checkUnchanged()
            return prepared
        }
    }

    /// The CRC always comes from the bytes that go into the archive; the SHA-256 the cache knows is trusted only
    /// while that CRC agrees with it (else the file changed under the same metadata: it is computed anew).
    private func prepare(_ bytes: UnsafeRawBufferPointer, known: FileDigest?) throws -> Prepared {
        let crc = CRC32.update(0, bytes)
        let sha256 = known.flatMap { $0.crc32 == crc ? $0.sha256 : nil }
        guard let deflated = try deflatedIfWorthwhile(bytes) else {
            return Prepared(
                crc32: crc, sha256: sha256, size: Int64(bytes.count), deflated: false, payload: Array(bytes))
        }
        return Prepared(
            crc32: crc, sha256: sha256 ?? SHA256Hasher.hex(bytes), size: Int64(bytes.count), deflated: true,
            payload: deflated)
    }

    /// The entry's deflated bytes, or nil to store it. `auto` judges an entry no larger than its three samples by
    /// deflating it whole at `wholeTrialLevel`, whatever `--level` says (the choice depends only on the bytes); at
    /// that level, the default, the trial is the result: one compression instead of a trial and then the real one,
    /// a sixth of a media build's CPU. A larger entry is judged by `shouldDeflate`'s trial of samples.
    private func deflatedIfWorthwhile(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8]? {
        if options.compression == .store { return nil }
        guard let deflater else { throw Self.noZlib }
        if options.compression == .auto && bytes.count <= 3 * Self.sampleSize {
            if bytes.isEmpty
                || CompressedFormat.matches(
                    UnsafeRawBufferPointer(rebasing: bytes.prefix(CompressedFormat.prefixLength)))
            {
                return nil
            }
            guard let wholeTrial else { throw Self.noZlib }
            let tried = wholeTrial.compress(bytes)
            guard Self.isWorthwhile(tried.count, of: bytes.count) else { return nil }
            return Self.smaller(options.level == Self.wholeTrialLevel ? tried : deflater.compress(bytes), than: bytes)
        }
        let deflate = try shouldDeflate(size: Int64(bytes.count)) { offset, count, into in
            into.copyMemory(from: bytes.baseAddress! + Int(offset), byteCount: count)
            return count
        }
        return deflate ? Self.smaller(deflater.compress(bytes), than: bytes) : nil
    }

    /// The deflated bytes when they are fewer than the entry's own, else nil: an entry is never stored deflated when
    /// deflating did not make it smaller, whatever its samples or `--compression deflate` said (docs/build-output.md).
    static func smaller(_ deflated: [UInt8], than bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        deflated.count < bytes.count ? deflated : nil
    }

    /// Whether deflating `count` bytes to `compressed` saves `worthwhileSaving`.
    static func isWorthwhile(_ compressed: Int, of count: Int) -> Bool {
        Double(compressed) <= Double(count) * (1 - worthwhileSaving)
    }

    /// `auto`: stores a file whose first bytes name an already-compressed format (`CompressedFormat`); else
    /// trial-deflates samples of the bytes (fast level 1) and deflates only when that saves enough. Entries of at
    /// most three samples are judged by `deflatedIfWorthwhile` instead.
    /// Depends only on the bytes, so the choice is deterministic.
    func shouldDeflate(size: Int64, read: (Int64, Int, UnsafeMutableRawPointer) throws -> Int) throws -> Bool {
        switch options.compression {
        case .store: return false
        case .deflate: return true
        case .auto: break
        }
        if size == 0 { return false }
        let piece = Int64(Self.sampleSize)
        let offsets: [Int64] = size <= piece * 3 ? [0] : [0, (size - piece) / 2, size - piece]
        let length = size <= piece * 3 ? Int(size) : Self.sampleSize
        var sampled = 0
        for offset in offsets {
            sampled += try read(offset, length, sample.bytes.baseAddress! + sampled)
            // The first sample starts the file: a compressed format's signature settles it before more is read.
            if offset == 0,
                CompressedFormat.matches(
                    UnsafeRawBufferPointer(rebasing: sample.bytes[..<min(sampled, CompressedFormat.prefixLength)]))
            {
                return false
            }
        }
        guard sampled > 0 else { return false }
        guard let trial else { throw Self.noZlib }
        let compressedLength = trial.compressedCount(UnsafeRawBufferPointer(rebasing: sample.bytes[..<sampled]))
        return Self.isWorthwhile(compressedLength, of: sampled)
    }
}
