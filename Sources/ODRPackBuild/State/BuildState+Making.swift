import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// The state a commit leaves for the next build into the same folder.
extension BuildState {
    /// The state for this build's packs, files sorted by path and packs pointing at them, but without the archive
    /// stamps (`takeArchiveStamps`), so that it can be made while the packs move into place. The file records are a
    /// view of the plan and the facts (`FileRecords.PlanView`): beyond them, the state holds 8 bytes a file.
    static func make(
        _ plan: PackPlan, rootPath: String, facts: [String: PackArchiveFacts], fileNames: [String],
        archiveKeys: [String]
    ) -> BuildState {
        let packs = plan.packs
        var state = BuildState()
        state.rootPath = rootPath
        var order: [UInt64] = []
        order.reserveCapacity(packs.reduce(0) { $0 + $1.files.count })
        for (pack, assetPack) in packs.enumerated() {
            for file in assetPack.files.indices { order.append(UInt64(pack) << 32 | UInt64(file)) }
        }
        // Each pack's files are in code-point order already (`AssetPack.files`): a stable sort keeps runs cheap.
        order.sort { first, second in
            let a = packs[Int(first >> 32)].files[Int(first & 0xFFFF_FFFF)].path
            let b = packs[Int(second >> 32)].files[Int(second & 0xFFFF_FFFF)].path
            return a.precedesByCodePoint(b)
        }
        let digests = packs.map { facts[$0.id]!.files }
        // Each record names its pack by its position among the packs in id order, as the head lists them.
        var numbers = [Int](repeating: 0, count: packs.count)
        for (number, index) in packs.indices.sorted(by: { packs[$0].id < packs[$1].id }).enumerated() {
            numbers[index] = number
        }
        state.files = FileRecords(
            storage: .plan(.init(packs: packs, digests: digests, order: order, numbers: numbers)))
        for (index, pack) in packs.enumerated() {
            let fact = facts[pack.id]!
            state.packs[pack.id] = .init(
                fileName: fileNames[index], archiveKey: archiveKeys[index], archiveSize: fact.archiveSize,
                archiveSha256: fact.archiveSha256, contentHash: fact.contentHash,
                uncompressedSize: fact.uncompressedSize, archiveStamp: "", fileCount: pack.files.count)
        }
        return state
    }

    /// Takes each pack's archive stamp at `packsPath/<its file name>`, once every pack is in place. A stamp vouches
    /// for a pack only if no later write can leave it as it is (docs/build-output.md#incremental): an archive changed
    /// within a tick of the output file system's clock could be written again with the same times (the racily-clean
    /// case; a second on HFS+, FAT or a network share), so the build waits until that tick has passed: any change
    /// after that shows in the change time. Change times alone tell: every write sets them, and no one can set them
    /// back (a pack folder's files carry the entry time as their modification time). When the clock cannot be read,
    /// the packs get no stamp: the next build writes them again rather than trust them.
    mutating func takeArchiveStamps(packsPath: FilePath) throws {
        var latest = Int64.min
        var tick = ReadStart.largestTick
        var taken: [String: String] = [:]
        for id in packs.keys.sorted() {
            let fileName = packs[id]!.fileName
            guard let pack = BuildState.packStampAndTimes(at: packsPath.joined(fileName)) else {
                throw ODRPackError.changed(.packVanished(fileName))
            }
            taken[id] = pack.stamp
            latest = max(latest, pack.latestChange)
            tick = ReadStart.gcd(tick, pack.tick)
        }
        let settled = ArchiveClock.wait(past: latest, tick: tick, in: packsPath)
        for (id, stamp) in taken { packs[id]!.archiveStamp = settled ? stamp : "" }
    }

    /// Keeps the output files' stamps (the plists, the manifests, a Background Assets site's copies) only once the
    /// output's clock is a tick past their change times, as `takeArchiveStamps` does for the packs: one changed later
    /// with the same size and times would otherwise pass for what the build wrote, and be neither rewritten nor
    /// noticed by the fast path. When the clock cannot be read, every stamp is one no file has, so the next build
    /// writes those files again.
    mutating func settleOutputs(in output: FilePath) {
        let stamps = Array(outputs.values)
        guard let device = stamps.first?.device, let latest = stamps.lazy.map(\.changeNanoseconds).max() else { return }
        let tick = ReadStart.tick(of: stamps, device: device, modification: false)
        guard !ArchiveClock.wait(past: latest, tick: tick, in: output) else { return }
        for name in outputs.keys {
            outputs[name] = FileStamp(size: -1, modificationNanoseconds: 0, changeNanoseconds: 0, inode: 0, device: 0)
        }
    }
}

extension BuildState {
    /// Gives each file record whose digest this build confirmed the metadata this build saw: a record that could not
    /// vouch when it was loaded (`load`) and whose file was read again with the same content. A build that writes
    /// nothing keeps the last state's records (`PackBuilder`); without this, such a file would be read again by
    /// every build after it. Such a build reused every pack of the plan, so its facts hold every file's confirmed
    /// digest: the records become a view of the plan (as `make` makes them), the packs keeping what the last build
    /// recorded of their archives. A state made from this plan already holds its stamps. Each pack was reused, so its
    /// content hash, which covers its files' paths, is the recorded one: the records hold the same files.
    mutating func confirm(_ plan: PackPlan, facts: [String: PackArchiveFacts]) {
        if case .plan = files.storage { return }
        var records: [String: PackRecord] = [:]
        for pack in plan.packs {
            guard let record = packs[pack.id], let digests = facts[pack.id]?.files,
                record.fileCount == pack.files.count, digests.count == pack.files.count,
                record.contentHash == facts[pack.id]?.contentHash
            else { return }
            records[pack.id] = record
        }
        guard records.count == packs.count else { return }
        var made = BuildState.make(
            plan, rootPath: rootPath, facts: facts, fileNames: plan.packs.map { records[$0.id]!.fileName },
            archiveKeys: plan.packs.map { records[$0.id]!.archiveKey })
        for (id, record) in records {
            made.packs[id]!.archiveStamp = record.archiveStamp
            made.packs[id]!.manifestPart = record.manifestPart
        }
        files = made.files
        packs = made.packs
    }
}
