import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// Which packs the last build into the folder already wrote (docs/build-output.md#incremental): a pack is reused when its
/// archive key and file name are as recorded, its archive or folder is exactly as that build left it, and its
/// content hash is unchanged. Files whose metadata is as recorded are never re-read. What the state knows of the
/// files is learned in one merge of its records (read a window at a time) with the plan's files, both in path order.
struct PackReuse {
    /// What is known of each pack's files; a reused pack's digests are in its `facts` instead (one copy, not two).
    var known: KnownDigests
    var facts: [String: PackArchiveFacts] = [:]
    /// Indices of the reused packs, and of the packs to write (biggest first).
    var reused: [Int] = []
    var toWrite: [Int] = []
    var bytesRead: Int64 = 0

    /// - Parameter fileNames: each pack's name in `packsFolder`, where its archive (or folder) is.
    init(
        plan: PackPlan, previous: BuildState, rootPath: String, archiveKeys: [String], fileNames: [String],
        packsFolder: FilePath,
        jobs: Int
    ) throws {
        let packs = plan.packs
        known = KnownDigests(packs: packs.count)
        let candidates = packs.indices.filter { index in
            guard let record = previous.packs[packs[index].id] else { return false }
            return record.fileName == fileNames[index] && record.archiveKey == archiveKeys[index]
                && BuildState.packStamp(at: packsFolder.joined(record.fileName)) == record.archiveStamp
        }
        var isCandidate = [Bool](repeating: false, count: packs.count)
        for index in candidates { isCandidate[index] = true }
        // Each pack's files whose record is as recorded, in the record of the same pack.
        var asRecorded = [Int](repeating: 0, count: packs.count)
        if previous.rootPath.hasSameBytes(as: rootPath), !previous.files.isEmpty {
            let numbers = Dictionary(uniqueKeysWithValues: previous.packs.keys.sorted().enumerated().map { ($1, $0) })
            let recordedNumbers = packs.map { numbers[$0.id] ?? -1 }
            let cursor = previous.files.cursor()
            var more = cursor.next()
            var order = PlanFileOrder(packs)
            while more, let (pack, index, file, path) = order.pop() {
                var path = path
                let found = path.withUTF8 { utf8 -> Bool in
                    let query = UnsafeRawBufferPointer(utf8)
                    while more {
                        let order = cursor.comparePath(with: query)
                        if order >= 0 { return order == 0 }
                        more = cursor.next()
                    }
                    return false
                }
                guard found else { continue }
                let vouched = cursor.stamp == file.stamp
                // A file of a pack that will be written anyway is not read again here: only what the state vouches for.
                guard vouched || isCandidate[pack] else { continue }
                known.record(
                    pack: pack, index: index, files: packs[pack].files.count, digest: cursor.digest,
                    holder: cursor.pack, vouched: vouched)
                if vouched && cursor.pack == recordedNumbers[pack] { asRecorded[pack] += 1 }
            }
        }
        // A touched file of a candidate pack is read to learn whether its bytes changed; it is not rewritten if not.
        let unknown = candidates.flatMap { pack in
            known.unknown(pack: pack, files: packs[pack].files.count).map { (pack, $0) }
        }
        if !unknown.isEmpty {
            let digests = try parallelMap(unknown, jobs: jobs, perWorker: { ReadBuffer(size: PackWriter.chunkSize) }) {
                buffer, pair in
                let file = packs[pair.0].files[pair.1]
                return try Self.digest(of: FilePath(rootPath).joined(file.source), file: file, buffer: buffer)
            }
            for (pair, digest) in zip(unknown, digests) {
                known.learned(pack: pair.0, index: pair.1, files: packs[pair.0].files.count, digest: digest)
            }
            bytesRead = [bytesRead, unknown.lazy.map { packs[$0.0].files[$0.1].size }.saturatingSum].saturatingSum
        }
        for index in candidates {
            let count = packs[index].files.count
            guard let record = previous.packs[packs[index].id], let digests = known.all(pack: index, files: count)
            else { continue }
            // Every file as the pack's record holds it: its content hash is the recorded one.
            let contentHash =
                asRecorded[index] == count && record.fileCount == count
                ? record.contentHash
                : PackArchiveFacts.contentHash(files: packs[index].files, digests: digests)
            if contentHash == record.contentHash {
                facts[packs[index].id] = PackArchiveFacts(
                    archiveSize: record.archiveSize, archiveSha256: record.archiveSha256,
                    contentHash: contentHash, files: known.take(pack: index),
                    uncompressedSize: record.uncompressedSize)
                reused.append(index)
            }
        }
        let reusedSet = Set(reused)
        toWrite = packs.indices.filter { !reusedSet.contains($0) }.sorted { packs[$0].size > packs[$1].size }
    }

    /// Reads a file once for its digest.
    static func digest(of path: FilePath, file: ResolvedResource, buffer: ReadBuffer) throws -> FileDigest {
        try SourceFile.digest(of: path, name: file.path, expected: file.stamp, size: file.size, buffer: buffer)
    }
}
