import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// An ODR build (docs/build-output.md): planned only when the fast path cannot vouch for the folder, its packs
/// written by `OnDemandResourcesOutput`.
extension OnDemandResourcesKind: PackFormatBuilding {
    var checksUpToDate: Bool { true }
    var packagesByTextPath: Bool { false }

    /// Zips only: a pack folder's own metadata does not change when a file inside it does.
    func recordsReplay(_ options: BuildOptions) -> Bool { options.layout == .zip }

    /// Zips without a signer: `EntryCompressor` and `PackWriter.addFile` read each file from its start. (A folder's
    /// writer copies files, and a signer's tree is zipped after it ran.)
    func writersReadEveryResource(_ options: BuildOptions) -> Bool {
        options.layout == .zip && options.signCommand == nil
    }

    var ownershipReadsManifest: Bool { false }

    func claims(packFileName: String) -> Bool { packFileName.hasSuffix(".assetpack") }

    /// The plists (all of them when the folder holds this format's build, else those still as the state recorded
    /// them) and, without a manifest, the pack archives still as the state recorded them.
    func ownedByState(_ state: BuildState, outputPath: String, held: Bool) -> Set<PathKey> {
        let output = FilePath(outputPath)
        var owned: Set<PathKey> = []
        for name in Self.documents
        where held
            || (state.outputs[name] != nil
                && state.outputs[name] == BuildState.stamp(at: output.joined(name)))
        {
            owned.insert(PathKey(name))
        }
        guard !held else { return owned }
        let folder = FilePath(packsFolder)
        for record in state.packs.values where !record.archiveStamp.isEmpty && claims(packFileName: record.fileName) {
            let relative = folder.joined(record.fileName)
            guard BuildState.packStamp(at: output.joined(relative.string)) == record.archiveStamp else {
                continue
            }
            owned.insert(relative.key)
        }
        return owned
    }

    func prepare(_ options: BuildOptions) throws -> any FormatBuild { OnDemandResourcesBuild() }
}
