import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// Which packs the last build into the folder already wrote (docs/build-output.md#incremental): a pack is reused when its
/// archive key and file name are as recorded, its archive or folder is exactly as that build left it, and its
/// content hash is unchanged. Files whose metadata is as recorded are never re-read.
struct PackReuse {
    /// Each pack to write's files' digests where the cache vouches for them (or they were re-hashed), nil elsewhere.
    /// Empty where none is known (every pack of a clean build: 40 bytes a file that would all be nil) and for a
    /// reused pack, whose digests are in its `facts` (one copy, not two); readers take a missing one as nil.
    var fileDigests: [[FileDigest?]]
    var facts: [String: PackArchiveFacts] = [:]
    /// Indices of the reused packs, and of the packs to write (biggest first).
    var reused: [Int] = []
    var toWrite: [Int] = []
    var bytesRead: Int64 = 0

    /// - Parameter fileNames: each pack's name in `packsPath`, where its archive (or folder) is.
    init(
        plan: PackPlan, previous: BuildState, rootPath: String, archiveKeys: [String], fileNames: [String],
        packsPath: String,
        jobs: Int
    ) throws {
        let packs = plan.packs
        let sameRoot = previous.rootPath == rootPath
        var unchangedPacks = Set<Int>()
        fileDigests = packs.indices.map { index in
            let pack = packs[index]
            guard sameRoot, !previous.files.isEmpty else { return [] }
            if let record = previous.packs[pack.id], record.files.count == pack.files.count,
                zip(record.files, pack.files).allSatisfy({ known, file in
                    previous.files.stamp(at: Int(known)) == file.stamp
                        && previous.files.pathHasSameBytes(at: Int(known), as: file.path)
                })
            {
                unchangedPacks.insert(index)
                return record.files.map { previous.files.digest(at: Int($0)) }
            }
            let known = pack.files.map { file in
                previous.index(ofFileAtPath: file.path).flatMap {
                    previous.files.stamp(at: $0) == file.stamp ? previous.files.digest(at: $0) : nil
                }
            }
            return known.allSatisfy { $0 == nil } ? [] : known
        }
        let candidates = packs.indices.filter { index in
            guard let record = previous.packs[packs[index].id] else { return false }
            return record.fileName == fileNames[index] && record.archiveKey == archiveKeys[index]
                && BuildState.packStamp(atPath: packsPath + "/" + record.fileName) == record.archiveStamp
        }
        // A touched file of a candidate pack is read to learn whether its bytes changed; it is not rewritten if not.
        for pack in candidates where fileDigests[pack].isEmpty {
            fileDigests[pack] = Array(repeating: nil, count: packs[pack].files.count)
        }
        let unknown = candidates.flatMap { pack in
            fileDigests[pack].indices.filter { fileDigests[pack][$0] == nil }.map { (pack, $0) }
        }
        if !unknown.isEmpty {
            let digests = try parallelMap(unknown, jobs: jobs, perWorker: { ReadBuffer(size: PackWriter.chunkSize) }) {
                buffer, pair in
                let file = packs[pair.0].files[pair.1]
                return try Self.digest(of: rootPath + "/" + file.source, file: file, buffer: buffer)
            }
            for (pair, digest) in zip(unknown, digests) { fileDigests[pair.0][pair.1] = digest }
            bytesRead = [bytesRead, unknown.lazy.map { packs[$0.0].files[$0.1].size }.saturatingSum].saturatingSum
        }
        for index in candidates {
            let digests = fileDigests[index].compactMap { $0 }
            guard digests.count == packs[index].files.count, let record = previous.packs[packs[index].id] else {
                continue
            }
            let contentHash =
                unchangedPacks.contains(index)
                ? record.contentHash
                : PackArchiveFacts.contentHash(files: packs[index].files, digests: digests)
            if contentHash == record.contentHash {
                facts[packs[index].id] = PackArchiveFacts(
                    archiveSize: record.archiveSize, archiveSha256: record.archiveSha256,
                    contentHash: contentHash, files: digests,
                    uncompressedSize: record.uncompressedSize)
                reused.append(index)
            }
        }
        for index in reused { fileDigests[index] = [] }
        let reusedSet = Set(reused)
        toWrite = packs.indices.filter { !reusedSet.contains($0) }.sorted { packs[$0].size > packs[$1].size }
    }

    /// Reads a file once for its digest.
    static func digest(of path: String, file: ResolvedResource, buffer: ReadBuffer) throws
        -> FileDigest
    {
        try SourceFile.digest(of: path, name: file.path, expected: file.stamp, size: file.size, buffer: buffer)
    }
}
