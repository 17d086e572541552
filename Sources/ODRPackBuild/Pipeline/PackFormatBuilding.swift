import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// What `build` asks a pack format (docs/architecture.md#pack-formats), beside what every command asks
/// (`PackFormatKind`): whether the up-to-date fast path applies, what the folder's ownership must read, and the
/// format's own build (`FormatBuild`). `OnDemandResourcesKind` and `BackgroundAssetsKind` conform in this module.
protocol PackFormatBuilding: PackFormatKind {
    /// Whether a build of this format tries the up-to-date fast path before planning (Background Assets builds always
    /// plan: their commit compares what it writes).
    var checksUpToDate: Bool { get }
    /// Whether a build with `options` records what the fast path needs to replay it: only where nothing but what the
    /// check fingerprints decides the output (not pack folders, whose metadata does not change with a file inside).
    func recordsReplay(_ options: BuildOptions) -> Bool
    /// Whether a clean build with `options` reads every resource from its start in this module's writers, which can
    /// then make planning's executable-content check as they read (`BuildOptions.checksContentWhileWriting`).
    func writersReadEveryResource(_ options: BuildOptions) -> Bool
    /// Whether the folder's ownership reads the previous build manifest even where the state vouches for it
    /// (Background Assets: the packs' versions are only there).
    var ownershipReadsManifest: Bool { get }
    /// Whether a pack file name the state records is one of this format's packs.
    func claims(packFileName: String) -> Bool
    /// What the folder's state alone says the last build of this format wrote there, where each file is still exactly
    /// what it recorded: for a folder whose manifest could not be read (`held` false), or one whose manifest is
    /// this format's but was not read (`held`: the state vouches for it).
    func ownedByState(_ state: BuildState, outputPath: String, held: Bool) -> Set<PathKey>
    /// Resolves what the format's build needs from the options before the lock is taken, so that a build that
    /// cannot run writes nothing, not even the lock file (Background Assets: its packager).
    func prepare(_ options: BuildOptions) throws -> any FormatBuild
}

/// One build of one format, from its options to its output: made by `PackFormatBuilding.prepare` before the lock,
/// it checks the plan against the options, then makes the `PackOutput` the packs are written through.
protocol FormatBuild {
    /// The format's own checks of a valid plan against the options, and what they learn for the output.
    /// - Throws: `ODRPackError.usage` (exit 64) for options that do not fit the plan; exit 2 for an unreadable file.
    mutating func check(_ plan: PackPlan, options: BuildOptions) throws -> [Diagnostic]
    /// The output of `plan`, written through `transaction`.
    func output(plan: PackPlan, options: BuildOptions, rootPath: String, transaction: BuildFolderTransaction) throws
        -> any PackOutput
}

extension PackFormat {
    /// This format's build side: build's one switch on the format (docs/architecture.md#pack-formats). It is
    /// exhaustive, so a format added to `PackFormat` does not compile until build handles it, and each case is a type
    /// the compiler checks conforms.
    var building: any PackFormatBuilding {
        switch self {
        case .odr: OnDemandResourcesKind()
        case .backgroundAssets: BackgroundAssetsKind()
        }
    }
}
