import Foundation
import ODRPackCore
import ODRPackPlatform

package struct BuildOptions: Sendable {
    package var outputDirectory: String
    package var format: PackFormat = .odr
    /// `--ba-package CMD` (Background Assets only); nil finds ba-package or xcrun on PATH.
    package var backgroundAssetsPackager: String?
    package var layout: PackLayout = .zip
    /// Run on every written pack's folder form; what it adds is part of the pack.
    package var signCommand: String?
    package var compression: CompressionMode = .auto
    package var level: Int = 6
    package var jobs: Int = BuildOptions.defaultJobs
    package var urlPrefix: String?
    package var useCache = true
    /// Every entry's modification time, seconds since 1970.
    package var entryTime: Int64 = BuildOptions.defaultEntryTime

    /// More threads than this only cost memory (each pack writer holds buffers and zlib states).
    package static let maximumJobs = 256

    /// One job per core, up to `maximumJobs`: a plain build on a machine with more cores than that still runs.
    package static var defaultJobs: Int { min(max(1, ProcessInfo.processInfo.activeProcessorCount), maximumJobs) }

    /// 2000-01-01T00:00:00Z
    static let defaultEntryTime: Int64 = 946_684_800

    package init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }

    /// Reads `SOURCE_DATE_EPOCH`: a whole number of seconds; anything else is a bad invocation (exit 64).
    package static func entryTime(environment: [String: String]) throws -> Int64 {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return defaultEntryTime }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0, value < 4_102_444_800 else {
            throw ODRPackError.usage(
                "SOURCE_DATE_EPOCH='\(text)' is not a valid time: set it to whole seconds since 1970 (before 2100), or unset it")
        }
        return value
    }

    /// The output folder as an absolute, standardized path: what the cache and the up-to-date record are keyed by.
    var outputPath: String { URL(fileURLWithPath: outputDirectory).standardizedFileURL.path }

    /// The Apple plist a build writes and the one it removes: AssetPackManifest.plist only with a URL prefix.
    var applePlists: (kept: String, removed: String) {
        urlPrefix == nil ? (AppleManifests.templateFile, AppleManifests.manifestFile)
                         : (AppleManifests.manifestFile, AppleManifests.templateFile)
    }

    /// What, besides content, decides a pack archive's bytes: a change rebuilds the pack. The tool's version is
    /// part of it, so a new version rewrites every pack once (SPEC 7: a fix to the writer reaches every pack).
    func archiveKey(infoPlist: Data) -> String {
        "v2;\(ToolVersion.current);\(layout.rawValue);\(signCommand.map { "sign:" + $0 } ?? "-");\(compression.rawValue);"
            + "\(compression == .store ? 0 : level);\(entryTime);\(infoPlist.sha256Hex)"
    }
}

extension Data {
    var sha256Hex: String {
        var hasher = SHA256Hasher()
        withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }
}
