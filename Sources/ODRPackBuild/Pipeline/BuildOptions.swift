import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

package struct BuildOptions: Sendable {
    /// The output folder as the command line named it, bytes and all (docs/architecture.md#paths): what the system
    /// calls get.
    package let outputFolder: FilePath
    /// The output folder as the user wrote it, for messages (a byte that is not UTF-8 shown as `\xNN`).
    package let outputDirectory: String
    /// The format built: every caller names it (`--format`'s default is the front end's).
    package var format: PackFormat
    /// An ODR build's platform (`--platform`); nil for the profile's default (docs/commands.md#platform).
    package var platform: ApplePlatform?
    /// `--ba-package CMD` (Background Assets only); nil finds ba-package or xcrun on PATH.
    package var backgroundAssetsPackager: String?
    /// `--published FILE` (Background Assets, hosting self): the live download manifest, the source of versions.
    package var publishedPath: String?
    /// `--reset-versions`: every Background Assets pack starts at version 0, whatever the folder holds.
    package var resetVersions = false
    package var layout: PackLayout = .zip
    /// Run on every written pack's folder form; what it adds is part of the pack.
    package var signCommand: String?
    package var compression: CompressionMode = .auto
    package var level: Int = BuildOptions.defaultLevel
    package var jobs: Int = BuildOptions.defaultJobs
    package var urlPrefix: String?
    /// `--template-path ABSOLUTE_PATH`: AssetPackManifestTemplate.plist's URLs name the packs as if the build folder
    /// were this path, not the folder written, so the build's bytes do not depend on where it ran (Bazel).
    package var templatePath: String?
    /// `--input-root DIR`: the manifest and resources-root must lie inside DIR (a build system's declared inputs).
    package var inputRoot: InputRoot?
    package var useCache = true
    /// `--warnings-as-errors`: a warning stops the build before it writes, as an error does.
    package var warningsAsErrors = false
    /// Every entry's modification time, seconds since 1970.
    package var entryTime: Int64 = EntryTime.standard
    /// The command's environment: the state's cache folder (`ODRPACK_CACHE_DIR`, `XDG_CACHE_HOME`, `HOME`) and `PATH`
    /// for ba-package; never part of the settings a build's state compares. The run's, given by whoever makes the
    /// options: a command run in-process has its own.
    package var environment: [String: String]
    /// The writers make planning's executable-content check of each resource as they read it, planning having left
    /// it to them: set by `BuildPipeline` for a clean build whose writers read every resource
    /// (`PackFormatBuilding.writersReadEveryResource(_:)`).
    var checksContentWhileWriting = false

    /// More threads than this only cost memory (each pack writer holds buffers and zlib states).
    package static let maximumJobs = 256

    /// The deflate level without `--level`: libdeflate's 4 takes much less CPU than 6 for a few percent more bytes of
    /// text (docs/performance.md#where-the-time-goes).
    package static let defaultLevel = 4
    /// One job per core, up to `maximumJobs`: a plain build on a machine with more cores than that still runs.
    package static var defaultJobs: Int { min(max(1, SystemCall.processorCount), maximumJobs) }

    package init(outputFolder: FilePath, shownAs: String, format: PackFormat, environment: [String: String]) {
        self.outputFolder = outputFolder
        self.outputDirectory = shownAs
        self.format = format
        self.environment = environment
    }

    /// An output folder named by text (a test's folder).
    package init(outputDirectory: String, format: PackFormat, environment: [String: String]) {
        self.init(
            outputFolder: FilePath(outputDirectory), shownAs: outputDirectory, format: format, environment: environment)
    }

    /// Reads `SOURCE_DATE_EPOCH` (`EntryTime.read`, which ipa reads too): exit 64 for a value that is no time.
    package static func entryTime(environment: [String: String]) throws -> Int64 {
        try EntryTime.read(environment: environment)
    }

    /// The output folder as an absolute, standardized path, bytes and all: what the build writes in and what the
    /// cache and the up-to-date record are keyed by. Made from `getcwd`'s bytes, never Foundation's text, so a folder
    /// whose path is not UTF-8 keeps it (docs/architecture.md#paths); for a UTF-8 path it is the text Foundation's
    /// standardized URL gave, so the caches of existing folders keep their keys.
    var outputPath: FilePath {
        ((try? LocalFileSystem().absolute(outputFolder).get()) ?? outputFolder).normalized
    }

    /// Whether `outputPath` is UTF-8, so that text names it again: what the options that hand the folder to another
    /// program as text (`--sign-command`, the Background Assets packager) and the up-to-date check need.
    var outputPathIsText: Bool { String(validating: outputPath.bytes, as: UTF8.self) != nil }

    /// Refuses a build into a folder whose path is not UTF-8 where the build still hands that path to another program
    /// as text (docs/architecture.md#paths): `--sign-command`, and a Background Assets build's packager.
    /// - Throws: `ODRPackError.usage` (exit 64).
    package func refuseTextOnlyOutput() throws {
        guard !outputPathIsText else { return }
        let what: String
        if format.building.packagesByTextPath {
            what = "\(format.kind.nameWithArticle) build"
        } else if signCommand != nil {
            what = "--sign-command"
        } else {
            return
        }
        throw ODRPackError.usage(
            """
            --output '\(outputDirectory)' is in a folder whose path is not UTF-8, which \(what) cannot take yet \
            (docs/architecture.md#paths): rename it, or give a path to it through a link whose name is UTF-8
            """
        )
    }

    /// The folder the template's URLs name the packs in, ending in `/`: `OnDemandResources/` of `--template-path`
    /// when given, else the packs folder written.
    func templatePacksFolder(packsPath: String) -> String {
        guard let templatePath else { return packsPath + "/" }
        return (templatePath.hasSuffix("/") ? templatePath : templatePath + "/") + AppleManifests.packsFolder + "/"
    }

    /// Why a `--template-path` value cannot be used, if it cannot: it must be an absolute path.
    package static func templatePathProblem(_ path: String) -> String? {
        guard !path.hasPrefix("/") else { return nil }
        return "--template-path must be an absolute path (the build folder the template's URLs name), not '\(path)'"
    }

    /// The Apple plist a build writes and the one it removes: AssetPackManifest.plist only with a URL prefix.
    var applePlists: (kept: String, removed: String) {
        urlPrefix == nil
            ? (AppleManifests.templateFile, AppleManifests.manifestFile)
            : (AppleManifests.manifestFile, AppleManifests.templateFile)
    }

    /// One option that changes what a build writes.
    struct OutputSetting {
        var name: String
        var value: String
        /// Whether it changes a pack's bytes (else only the manifests and plists).
        var changesPacks: Bool
    }

    /// Every option that changes what a build writes, each named once: pack archive keys are made from those that
    /// change a pack's bytes, the output fingerprint and the up-to-date check's inputs from all of them. The tool's
    /// version keys the whole build state (`BuildState.magic`).
    /// - Parameter packager: the Background Assets packager command a build resolved, if any.
    func outputSettings(packager: String? = nil) -> [OutputSetting] {
        [
            OutputSetting(name: "output", value: outputPath.text, changesPacks: false),
            OutputSetting(name: "format", value: format.rawValue, changesPacks: true),
            // Which files are packed: a build for another platform is never up to date (the packs follow their files).
            OutputSetting(name: "platform", value: platform?.rawValue ?? "", changesPacks: false),
            OutputSetting(name: "layout", value: layout.rawValue, changesPacks: true),
            OutputSetting(name: "sign-command", value: signCommand ?? "", changesPacks: true),
            OutputSetting(name: "compression", value: compression.rawValue, changesPacks: true),
            OutputSetting(name: "level", value: compression == .store ? "" : "\(level)", changesPacks: true),
            OutputSetting(name: "entry-time", value: "\(entryTime)", changesPacks: true),
            OutputSetting(name: "ba-package", value: packager ?? "", changesPacks: true),
            OutputSetting(name: "url-prefix", value: urlPrefix ?? "", changesPacks: false),
            OutputSetting(name: "template-path", value: templatePath ?? "", changesPacks: false),
        ]
    }

    /// The settings as one string, `name=value` NUL-separated.
    func settingsKey(packager: String? = nil, packsOnly: Bool) -> String {
        outputSettings(packager: packager).filter { $0.changesPacks || !packsOnly }.map { $0.name + "=" + $0.value }
            .joined(separator: "\0")
    }

    /// What, besides content, decides a pack archive's bytes: a change rebuilds the pack.
    /// - Parameter pack: bytes generated for the pack itself (its Info.plist, or its ba-package manifest).
    func archiveKey(pack: Data, packager: String? = nil) -> String {
        archiveSettingsPrefix(packager: packager) + pack.sha256Hex
    }

    /// What every archive key of these settings starts with: archives whose keys share it archive a file alike.
    func archiveSettingsPrefix(packager: String? = nil) -> String {
        settingsKey(packager: packager, packsOnly: true) + "\0pack="
    }
}

extension Data {
    var sha256Hex: String { withUnsafeBytes(SHA256Hasher.hex) }
}
