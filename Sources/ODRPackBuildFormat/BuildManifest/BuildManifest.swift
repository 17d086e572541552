import ODRPackCore

/// odrpack-manifest.json (docs/build-output.md): the one document `build` writes and `verify`, `diff` and `thin` read back.
/// Without archive facts (`totals.archiveSize == nil`) it is the `plan --json` form.
package struct BuildManifest: Sendable, Equatable {
    static let schemaVersion = 1
    package static let fileName = "odrpack-manifest.json"

    package struct File: Sendable, Equatable {
        /// The file's destination inside the pack and the app (docs/manifest.md#destinations).
        package let path: String
        /// Its path relative to resources-root, only where it differs from `path`.
        package var source: String?
        package var size: Int64
        /// Nil in a plan (no contents read).
        package var sha256: String?
    }

    package struct Pack: Sendable, Equatable {
        package var id: String
        /// Relative to the build folder: `OnDemandResources/<pack file name>`.
        package let file: String
        package var tags: [String]
        package let category: DownloadCategory
        package var priority: Double?
        package var size: Int64
        package var archiveSize: Int64?
        package var archiveSha256: String?
        package var contentHash: String?
        /// Compact: a million files take their paths' bytes and about 50 bytes each (docs/build-output.md#bounded).
        package var files: Files
        /// Background Assets builds only (docs/background-assets.md): the asset pack id, its download policy, and its version
        /// (nil in a plan, which knows no previous build).
        package var assetPackId: String?
        package var downloadPolicy: DownloadPolicy?
        package var version: Int64?
        /// Background Assets builds only (docs/background-assets.md#languages): the pack's BCP 47 language in canonical
        /// case, nil when the pack is not localized.
        package var language: String? = nil
        /// Background Assets builds only (docs/background-assets.md#platforms): the platforms the pack is for, in the order
        /// iOS, macOS, tvOS, visionOS (manifest spellings); nil in a manifest written before packs had platforms, where
        /// every pack is for every platform of `backgroundAssets.platforms`.
        package var platforms: [String]? = nil
    }

    /// What `thin` needs of a Background Assets build, since it reads only the build folder (docs/background-assets.md).
    package struct BackgroundAssets: Sendable, Equatable {
        package let hosting: BackgroundAssetsSettings.Hosting
        package let platforms: [String]
        package let events: [String]
        package var appGroup: String?
        package var urlPrefix: String?
        /// The packager command template as run, and the first line of its `--version` (nil for `--ba-package`):
        /// the release record of which ba-package made the archives.
        package var packagerCommand: String?
        package var packagerVersion: String?
    }

    package struct Tag: Sendable, Equatable {
        package let name: String
        package let category: DownloadCategory
        package var size: Int64
        package var packs: [String]
    }

    package struct Totals: Sendable, Equatable {
        package var packs: Int64
        package var size: Int64
        /// Nil in a plan.
        package var archiveSize: Int64?
        package let initialInstallSize: Int64
        package let initialPrefetchSize: Int64
    }

    var schemaVersion: Int
    /// A manifest without `format` is an ODR build's (`init(reading:)`).
    package var format: PackFormat
    /// Present in a Background Assets build's manifest only.
    package var backgroundAssets: BackgroundAssets?
    /// An ODR build's platform (docs/build-output.md): its packs hold the files for it alone. Nil in a Background Assets
    /// build, whose packs name their platforms, and in a manifest written before builds had one.
    package var platform: String?
    package let bundleId: String
    package let profile: String
    /// Every limit key of docs/manifest.md#limits in table order; nil where the profile has no limit.
    package let limits: [(key: LimitProfile.Key, value: Int64?)]
    package let initialInstallTags: [String]
    package let prefetchOrder: [String]
    package let appBundleFiles: Int64
    package let appBundleSize: Int64
    /// False when the manifest says `untagged: ignore` (`"appBundle": null`).
    package var countsAppBundle = true
    package let totals: Totals
    package var tags: [Tag]
    package var packs: [Pack]

    /// Whether the archive fields are present: a build's manifest, not a plan's.
    var hasArchives: Bool { totals.archiveSize != nil }

    package static func == (lhs: BuildManifest, rhs: BuildManifest) -> Bool {
        lhs.schemaVersion == rhs.schemaVersion && lhs.format == rhs.format
            && lhs.backgroundAssets == rhs.backgroundAssets && lhs.platform == rhs.platform
            && lhs.bundleId == rhs.bundleId && lhs.profile == rhs.profile
            && lhs.limits.elementsEqual(rhs.limits, by: { $0.key == $1.key && $0.value == $1.value })
            && lhs.initialInstallTags == rhs.initialInstallTags && lhs.prefetchOrder == rhs.prefetchOrder
            && lhs.appBundleFiles == rhs.appBundleFiles && lhs.appBundleSize == rhs.appBundleSize
            && lhs.countsAppBundle == rhs.countsAppBundle
            && lhs.totals == rhs.totals && lhs.tags == rhs.tags && lhs.packs == rhs.packs
    }
}

extension BuildManifest {
    /// The manifest of a plan; with `archives` (every pack's facts, as a build learns them), a build's manifest.
    /// A Background Assets build also gives each pack's `versions` (by pack id) and its `urlPrefix`.
    package init(
        plan: PackPlan, archives: [String: PackArchiveFacts]? = nil, versions: [String: Int64]? = nil,
        urlPrefix: String? = nil, packager: (command: String, version: String?)? = nil
    ) {
        schemaVersion = Self.schemaVersion
        format = plan.format
        // A format whose packs have asset pack ids carries the settings they are published with.
        if plan.format.kind.hasAssetPackIDs {
            let settings = plan.backgroundAssets
            backgroundAssets = BackgroundAssets(
                hosting: settings.hosting, platforms: settings.platforms ?? [],
                events: settings.events, appGroup: settings.appGroup, urlPrefix: urlPrefix,
                packagerCommand: packager?.command, packagerVersion: packager?.version)
        }
        platform = plan.platform
        bundleId = plan.bundleID
        profile = plan.profileName
        limits = LimitProfile.Key.allCases.map { ($0, plan.limits[$0]) }
        initialInstallTags = plan.initialInstallTags
        prefetchOrder = plan.prefetchOrder
        appBundleFiles = Int64(plan.appBundleFiles)
        appBundleSize = plan.appBundleSize
        countsAppBundle = plan.countsAppBundle
        totals = Totals(
            packs: Int64(plan.packs.count), size: plan.totalSize,
            archiveSize: archives.map { facts in plan.packs.lazy.map { facts[$0.id]?.archiveSize ?? 0 }.saturatingSum },
            initialInstallSize: plan.initialInstallSize, initialPrefetchSize: plan.initialPrefetchSize)
        tags = plan.tags.map { Tag(name: $0.name, category: $0.category, size: $0.size, packs: $0.packs) }
        packs = plan.packs.map { pack in
            let facts = archives?[pack.id]
            let backgroundAssets = plan.format.kind.hasAssetPackIDs
            return Pack(
                id: pack.id,
                file: backgroundAssets
                    ? BackgroundAssetsLayout.archivePath(of: pack.assetPackID)
                    : AppleManifests.packsFolder.slashJoined(pack.fileName),
                tags: pack.tags,
                category: pack.category, priority: pack.priority, size: pack.size,
                archiveSize: facts?.archiveSize, archiveSha256: facts?.archiveSha256, contentHash: facts?.contentHash,
                files: Self.files(of: pack, digests: facts?.files),
                assetPackId: backgroundAssets ? pack.assetPackID : nil,
                downloadPolicy: backgroundAssets ? plan.downloadPolicy(of: pack) : nil,
                version: backgroundAssets ? versions?[pack.id] : nil,
                language: backgroundAssets ? pack.language : nil,
                platforms: backgroundAssets ? pack.platforms : nil)
        }
    }

    /// A pack's files for its manifest entry: each digest goes in as its 32 bytes (a million files, no hex text
    /// each way).
    static func files(of pack: AssetPack, digests: [FileDigest]?) -> Files {
        var files = Files()
        files.reserveCapacity(pack.files.count)
        for index in pack.files.indices {
            let file = pack.files[index]
            var path = file.path
            let source = file.isPlaced ? file.source : nil
            path.withUTF8 { path in
                guard let digest = digests?[index] else {
                    return files.append(path: path, source: source, size: file.size, sha256: nil)
                }
                digest.withSHA256Bytes { files.append(path: path, source: source, size: file.size, sha256: $0) }
            }
        }
        files.shrinkToFit()
        return files
    }
}
