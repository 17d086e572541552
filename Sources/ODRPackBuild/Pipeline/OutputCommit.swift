import Foundation
import ODRPackBuildFormat
import ODRPackPlatform

/// The one commit of a build folder, whatever its format (docs/build-output.md#atomic and #durable). A format says
/// what its commit places, writes and removes; this does it in the one order that keeps the folder trustworthy when a
/// build is killed anywhere, so a manifest never names a pack that is not on stable storage:
/// 1. odrpack-manifest.json is retired, unless no pack was written and it already holds the new bytes;
/// 2. the written packs move into place, what no longer belongs goes, and the packs reach stable storage, while the
///    format makes its documents and the new manifest is written and flushed beside its final name;
/// 3. every other document is written where its bytes changed, and what the format retires is removed;
/// 4. the manifest is renamed into place, last.
struct OutputCommit {
    let outputPath: String

    /// What a format's commit writes besides its packs.
    struct Documents {
        /// odrpack-manifest.json's bytes.
        var manifest: [UInt8]
        /// Written after the packs are on stable storage, where their bytes changed (absolute paths).
        var files: [(path: String, bytes: Data)] = []
        /// Removed with them (absolute paths; a missing one is fine).
        var removals: [String] = []
    }

    /// What placing the packs did.
    struct Placement {
        /// The names of the stale packs removed, for the build's report.
        var removed: [String]
        /// What must reach stable storage before any document names it.
        var durable: [String]
        /// Removed once the packs are durable (old packs moved aside: freeing their blocks need not delay that).
        var discarded: [String] = []
    }

    /// - Parameters:
    ///   - place: moves the written packs into place and removes stale ones; runs after the manifest is retired.
    ///   - make: the documents, and whatever else the format wants from that work.
    ///   - finish: the last look at what `make` gave, with every pack and document in place and the manifest not yet:
    ///     a failure there still leaves no manifest.
    /// - Returns: the stale packs removed, and what `make` gave.
    func run<Made>(
        packsWritten: Bool, place: () throws -> Placement, make: () throws -> (Documents, Made),
        finish: (inout Made) throws -> Void
    ) throws -> (removed: [String], made: Made) {
        let manifestPath = outputPath + "/" + BuildManifest.fileName
        let staged = Locked<AtomicFile.StagedFile?>(nil)
        func stage(_ manifest: [UInt8]) throws {
            let file = try AtomicFile.stage(manifest, for: manifestPath, replacingAnything: true, durable: true)
            staged.withLock { $0 = file }
        }
        func placeDurably() throws -> [String] {
            let placement = try place()
            if !placement.durable.isEmpty {
                try SystemCall.makeDurable(folder: outputPath, written: placement.durable)
            }
            for path in placement.discarded { try OutputFolder.remove(path) }
            return placement.removed
        }
        do {
            // What interrupted builds left beside the manifest, before this one stages its own there.
            try OutputFolder.removeTemporaries(in: outputPath, except: TemporaryName.processPrefix)
            let removed: [String]
            let documents: Documents
            var made: Made
            if packsWritten {
                // Placing is mostly waiting for the disk: the documents are made and the manifest flushed meanwhile.
                let parts = try parallelMap([true, false], jobs: 2) { placing -> ([String]?, (Documents, Made)?) in
                    if placing {
                        _ = try OutputFolder.retireManifest(at: manifestPath, keepingIf: nil)
                        return (try placeDurably(), nil)
                    }
                    let made = try make()
                    try stage(made.0.manifest)
                    return (nil, made)
                }
                guard let placed = parts[0].0, let result = parts[1].1 else {
                    preconditionFailure("one part places, the other makes")
                }
                removed = placed
                (documents, made) = result
            } else {
                // The old manifest may stay, which only the new bytes can tell: nothing moves before they exist.
                (documents, made) = try make()
                if !(try OutputFolder.retireManifest(at: manifestPath, keepingIf: Data(documents.manifest))) {
                    try stage(documents.manifest)
                }
                removed = try placeDurably()
            }
            for (path, bytes) in documents.files { try OutputFolder.writeIfChanged(bytes, to: path) }
            for path in documents.removals { try OutputFolder.remove(path) }
            try finish(&made)
            try staged.withLock { $0 }?.moveIntoPlace()
            return (removed, made)
        } catch {
            staged.withLock { $0 }?.discard()
            throw error
        }
    }
}
