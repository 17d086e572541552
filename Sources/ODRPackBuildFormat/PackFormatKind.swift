import ODRPackCore

/// What every command asks a pack format instead of switching on `PackFormat` (docs/architecture.md#pack-formats):
/// where its packs and documents lie in a build folder, how messages name it, and what its packs are for. Each
/// format is one conformance (`OnDemandResourcesKind`, `BackgroundAssetsKind`), found by `PackFormat.kind`; build,
/// verify and thin add their own questions to the same types in their modules (`PackFormatBuilding`,
/// `PackFormatVerifying`, `PackFormatThinning`), since those modules may not import each other.
package protocol PackFormatKind: Sendable {
    /// The value `--format` and odrpack-manifest.json's `format` spell.
    var format: PackFormat { get }
    /// How messages name the format: "On-Demand Resources".
    var name: String { get }
    /// The name with its article, for "holds <it> build": "an On-Demand Resources".
    var nameWithArticle: String { get }
    /// The short name `diff` uses: "ODR".
    var shortName: String { get }
    /// The folder of the build folder its packs are in.
    var packsFolder: String { get }
    /// Every folder of the build folder it writes in, `packsFolder` first: none may be a symbolic link, whatever
    /// format a build writes (docs/build-output.md#ownership).
    var folders: [String] { get }
    /// Whether its packs ship inside the app (`odrpack ipa`) rather than on their own (`odrpack upload`).
    var packsTravelInApp: Bool { get }
    /// Whether each pack has an asset pack id and a download policy (odrpack-manifest.json's `assetPackId`,
    /// `downloadPolicy` and `version`), released pack by pack (docs/background-assets.md).
    var hasAssetPackIDs: Bool { get }

    /// A pack's file, relative to the build folder, as its tags name it in an app of `bundleID`.
    func packFile(bundleID: String, tags: [String]) -> String
    /// Every path besides the packs, relative to the build folder, that a build manifest of this format names: the
    /// documents written beside the packs.
    func documents(of manifest: BuildManifest) -> [String]
}

extension PackFormatKind {
    /// Every path relative to the build folder that `manifest` names: its packs' files, then its documents.
    package func names(of manifest: BuildManifest) -> [String] {
        manifest.packs.map(\.file) + documents(of: manifest)
    }
}
