import ODRPackCore
import ODRPackPlatform

/// On-Demand Resources as a build folder holds them (docs/build-output.md): one `.assetpack` (a zip or a folder) per
/// pack in `OnDemandResources/`, and Apple's three plists beside it.
package struct OnDemandResourcesKind: PackFormatKind {
    package init() {}

    package var format: PackFormat { .odr }
    package var name: String { "On-Demand Resources" }
    package var nameWithArticle: String { "an On-Demand Resources" }
    package var shortName: String { "ODR" }
    package var packsFolder: String { AppleManifests.packsFolder }
    package var folders: [String] { [packsFolder] }
    package var packsTravelInApp: Bool { true }
    package var hasAssetPackIDs: Bool { false }

    /// The plists a build writes beside the packs (docs/build-output.md).
    package static let documents = [
        AppleManifests.onDemandResourcesFile, AppleManifests.templateFile, AppleManifests.manifestFile,
    ]

    package func packFile(bundleID: String, tags: [String]) -> String {
        FilePath(packsFolder).joined(PackIdentity.fileName(bundleID: bundleID, tags: tags)).text
    }

    package func documents(of manifest: BuildManifest) -> [String] { Self.documents }
}
