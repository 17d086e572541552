import Foundation
import ODRPackCore
import ODRPackPlatform

/// The state a commit leaves for the next build into the same folder.
extension BuildState {
    /// The state for this build's packs: files sorted by path, packs pointing at them, each pack's archive stamp
    /// taken at `packsPath/<its file name>`.
    static func make(_ plan: PackPlan, rootPath: String, facts: [String: PackArchiveFacts], fileNames: [String],
                     archiveKeys: [String], packsPath: String) throws -> BuildState {
        let packs = plan.packs
        var state = BuildState()
        state.rootPath = rootPath
        var order = packs.indices.flatMap { pack in packs[pack].files.indices.map { (pack: pack, file: $0) } }
        order.sort { packs[$0.pack].files[$0.file].path.precedesByCodePoint(packs[$1.pack].files[$1.file].path) }
        var positions = packs.map { Array(repeating: 0, count: $0.files.count) }
        state.files.reserveCapacity(order.count)
        for (position, item) in order.enumerated() {
            let file = packs[item.pack].files[item.file]
            positions[item.pack][item.file] = position
            state.files.append(.init(path: file.path, stamp: file.stamp, digest: facts[packs[item.pack].id]!.files[item.file]))
        }
        for (index, pack) in packs.enumerated() {
            let fact = facts[pack.id]!
            guard let archiveStamp = BuildState.packStamp(atPath: packsPath + "/" + fileNames[index]) else {
                throw ODRPackError.fileChanged("pack '\(fileNames[index])' vanished while the build was finishing: run the build again")
            }
            state.packs[pack.id] = .init(fileName: fileNames[index], archiveKey: archiveKeys[index], archiveSize: fact.archiveSize,
                                         archiveSha256: fact.archiveSha256, contentHash: fact.contentHash,
                                         uncompressedSize: fact.uncompressedSize, archiveStamp: archiveStamp, files: positions[index])
        }
        return state
    }
}
