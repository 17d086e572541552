import Foundation
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// Reading odrpack-manifest.json back, strictly: every member a build writes must be there with its type (docs/commands.md#verify),
/// hashes and sizes included and never `null` (only the members a build itself writes as `null` may be: a limit the
/// profile lacks, `appBundle` with `untagged: ignore`, a pack without priority, the Background Assets settings not
/// given), numbers in range, sizes not negative and adding up inside Int64. A `plan --json` document (no archive facts)
/// is not a build manifest. Unknown members are skipped. diff, verify and thin read through this one reader, so a
/// manifest that passes here has every fact they use.
extension BuildManifest {
    /// Thrown while reading a manifest of another schema version.
    struct SchemaMismatch: Error {
        var version: Int
    }

    /// Where the manifest of `path` (a build folder, or its manifest file) is, and the build folder its paths are
    /// relative to ("." for a bare `odrpack-manifest.json`).
    /// - Throws: `ODRPackError.buildManifest(.missing)` when `path` does not exist (exit 2).
    package static func location(of path: FilePath) throws -> (file: FilePath, folder: FilePath, isFolder: Bool) {
        guard let status = SystemCall.status(path) else {
            throw ODRPackError.buildManifest(.missing(path))
        }
        if status.kind == .directory { return (path.joined(fileName), path, true) }
        return (path, path.parent, false)
    }

    /// Reads a build folder's manifest, or the manifest file itself, as a stream: the document is never held whole
    /// (docs/build-output.md#bounded).
    /// - Parameter chunkSize: the bytes read at a time (tests read a few at a time, so every token crosses a chunk).
    /// - Parameter keepingSources: false leaves out the files' sources, for a reader that never asks for them (`diff`):
    ///   a build that moved every file with `into` has one a file.
    /// - Throws: `ODRPackError.buildManifest` when it is missing or corrupt, `io` (its path and errno) when it cannot
    ///   be read (exit 2).
    package static func load(_ path: FilePath, chunkSize: Int = 1 << 20, keepingSources: Bool = true) throws -> (
        manifest: BuildManifest, folder: FilePath
    ) {
        let (file, folder, isFolder) = try location(of: path)
        return (
            try load(file: file, chunkSize: chunkSize, keepingSources: keepingSources, shownAs: isFolder ? path : nil),
            folder
        )
    }

    /// Reads the manifest in the file `file` itself, whatever its name (a build's journal): a folder there is
    /// EISDIR, never a build folder to look into.
    /// - Parameter shownAs: the build folder `file` is in, when the user named the folder: a missing file is then "no
    ///   manifest in that folder".
    /// - Throws: `ODRPackError.buildManifest` when it is corrupt (or, with `shownAs`, missing), `io` (its path and
    ///   errno) when it cannot be read (exit 2).
    package static func load(
        file: FilePath, chunkSize: Int = 1 << 20, keepingSources: Bool = true, shownAs folder: FilePath? = nil
    ) throws -> BuildManifest {
        // A failed call keeps its path and errno apart (a build's ownership throws it rather than read "absent").
        func unreadable(_ error: SystemError) -> ODRPackError {
            if let folder, error.isMissing { return .buildManifest(.notABuildFolder(folder)) }
            return .io(.read, path: file, error)
        }
        let descriptor: Int32
        switch SystemCall.openForReading(file) {
        case .success(let opened): descriptor = opened
        case .failure(let error): throw unreadable(error)
        }
        defer { SystemCall.closeFile(descriptor) }
        var offset: Int64 = 0
        var reader = JSONReader(chunkSize: chunkSize) { buffer in
            let count = SystemCall.readFully(descriptor, into: buffer.baseAddress!, count: buffer.count, at: offset)
            guard count >= 0 else { throw SystemError.last }
            offset += Int64(count)
            return count
        }
        do {
            return try BuildManifest(reading: &reader, keepingSources: keepingSources)
        } catch {
            if let failure = reader.readFailure as? SystemError { throw unreadable(failure) }
            throw Self.loadFailure(error, file: file.text)
        }
    }

    /// The exit-2 error for what reading the manifest at `file` (its path as text, for the message) threw.
    static func loadFailure(_ error: any Error, file: String) -> any Error {
        switch error {
        case JSONReader.Failure.syntax: return ODRPackError.buildManifest(.invalidJSON(file))
        case JSONReader.Failure.shape(let problem):
            return ODRPackError.buildManifest(.incomplete(file, problem: problem))
        case let mismatch as SchemaMismatch:
            return ODRPackError.buildManifest(.schemaVersion(file, found: mismatch.version, reads: schemaVersion))
        default: return error
        }
    }

    /// Reads the manifest from memory.
    package init(json bytes: UnsafeBufferPointer<UInt8>) throws {
        var reader = JSONReader(bytes)
        try self.init(reading: &reader)
    }

    /// Reads the manifest with `JSONReader`, from memory or a stream; the schema version must come before anything it
    /// decides.
    package init(reading reader: inout JSONReader, keepingSources: Bool = true) throws {
        let members = try Members(reading: &reader, keepingSources: keepingSources)
        guard reader.peek() == nil else { throw JSONReader.Failure.syntax(reader.position) }
        guard let version = members.version else { throw JSONReader.Failure.shape("it has no schemaVersion") }
        schemaVersion = version
        format = members.format
        platform = members.platform
        bundleId = try required(members.bundle, "bundleId")
        profile = try required(members.profile, "profile")
        let limitValues = try required(members.limits, "limits")
        limits = LimitProfile.Key.allCases.map { ($0, limitValues[$0] ?? nil) }
        initialInstallTags = try required(members.initial, "initialInstallTags")
        prefetchOrder = try required(members.prefetch, "prefetchOrder")
        let counted = try required(members.appBundle, "appBundle")
        appBundleFiles = counted?.files ?? 0
        appBundleSize = counted?.size ?? 0
        countsAppBundle = counted != nil
        totals = try required(members.totals, "totals")
        tags = try required(members.tags, "tags")
        packs = try required(members.packs, "packs")
        if format.kind.hasAssetPackIDs {
            backgroundAssets = try required(members.backgroundAssets, "backgroundAssets")
            for pack in packs {
                _ = try required(pack.assetPackId, "assetPackId")
                _ = try required(pack.downloadPolicy, "downloadPolicy")
                _ = try required(pack.version, "version")
            }
        }
        try Self.checkSizesAddUp(packs, tags)
        try checkTotalsInRange()
    }

    /// The manifest's top-level members as read, each nil until seen. Reading them and requiring them are two steps:
    /// the document may hold its members in any order, and a missing one is reported after all were read, in the
    /// order `init(reading:)` requires them.
    private struct Members {
        var version: Int?
        var bundle: String?
        var profile: String?
        var limits: [LimitProfile.Key: Int64?]?
        var initial: [String]?
        var prefetch: [String]?
        var appBundle: (files: Int64, size: Int64)??
        var totals: Totals?
        var tags: [Tag]?
        var packs: [Pack]?
        var format = PackFormat.odr
        var backgroundAssets: BackgroundAssets?
        var platform: String?

        init(reading reader: inout JSONReader, keepingSources: Bool) throws {
            try reader.object("the manifest") { reader, key in
                try read(key, from: &reader, keepingSources: keepingSources)
            }
        }

        /// One member's value; a member this reader does not know is skipped.
        private mutating func read(_ key: String, from reader: inout JSONReader, keepingSources: Bool) throws {
            switch key {
            case "schemaVersion":
                let number = try reader.integer("schemaVersion")
                guard number == Int64(BuildManifest.schemaVersion) else {
                    throw SchemaMismatch(version: Int(clamping: number))
                }
                version = Int(number)
            case "format":
                let text = try reader.string("format")
                guard let value = PackFormat(rawValue: text) else {
                    throw JSONReader.Failure.shape("unknown format '\(text)'")
                }
                format = value
            case "backgroundAssets": backgroundAssets = try BackgroundAssets(&reader)
            case "platform": platform = try reader.string("platform")
            case "bundleId": bundle = try reader.string("bundleId")
            case "profile": profile = try reader.string("profile")
            case "limits": limits = try Self.limits(&reader)
            case "initialInstallTags": initial = try reader.strings("initialInstallTags")
            case "prefetchOrder": prefetch = try reader.strings("prefetchOrder")
            case "appBundle" where reader.isNull(): appBundle = .some(nil)
            case "appBundle": appBundle = try Self.appBundle(&reader)
            case "totals": totals = try Totals(&reader)
            case "tags":
                var list: [Tag] = []
                try reader.array("tags") { list.append(try Tag(&$0)) }
                tags = list
            case "packs":
                var list: [Pack] = []
                try reader.array("packs") { list.append(try Pack(&$0, keepingSources: keepingSources)) }
                packs = list
            default: try reader.skip()
            }
        }

        /// `limits`: every limit a profile has, each a count or `null` (the profile lacks it); unknown ones skipped.
        private static func limits(_ reader: inout JSONReader) throws -> [LimitProfile.Key: Int64?] {
            var values: [LimitProfile.Key: Int64?] = [:]
            try reader.object("limits") { reader, name in
                guard let limit = LimitProfile.Key(rawValue: name) else { return try reader.skip() }
                values[limit] = reader.isNull() ? .some(nil) : try reader.count("limit '\(name)'")
            }
            for key in LimitProfile.Key.allCases where values[key] == nil {
                throw JSONReader.Failure.shape("missing 'limits.\(key.rawValue)'")
            }
            return values
        }

        /// `appBundle` when it is not `null`: its file count and size, both required.
        private static func appBundle(_ reader: inout JSONReader) throws -> (files: Int64, size: Int64) {
            var files: Int64?
            var size: Int64?
            try reader.object("appBundle") { reader, name in
                switch name {
                case "files": files = try reader.count("appBundle.files")
                case "size": size = try reader.count("appBundle.size")
                default: try reader.skip()
                }
            }
            return (try required(files, "appBundle.files"), try required(size, "appBundle.size"))
        }
    }

    /// The totals and the app bundle's size stay below `maximumTotal`, as `checkSizesAddUp` keeps the sums.
    private func checkTotalsInRange() throws {
        for (value, what) in [
            (totals.size, "totals.size"), (totals.archiveSize ?? 0, "totals.archiveSize"),
            (totals.initialInstallSize, "totals.initialInstallSize"),
            (totals.initialPrefetchSize, "totals.initialPrefetchSize"), (appBundleSize, "appBundle.size"),
        ]
        where value > Self.maximumTotal {
            throw JSONReader.Failure.shape("\(what) is more than \(Self.maximumTotal) bytes")
        }
    }

    /// Every sum diff and verify make of one manifest's sizes stays far inside Int64: a manifest whose files, packs,
    /// archives or tags add up to more than `maximumTotal` is corrupt (no store takes an exabyte of packs).
    static let maximumTotal: Int64 = 1 << 60

    private static func checkSizesAddUp(_ packs: [Pack], _ tags: [Tag]) throws {
        var files: Int64 = 0
        var sizes: Int64 = 0
        var archives: Int64 = 0
        var tagSizes: Int64 = 0
        func add(_ value: Int64, to total: inout Int64, _ what: String) throws {
            total += min(value, maximumTotal + 1)
            guard total <= maximumTotal else {
                throw JSONReader.Failure.shape("its \(what) add up to more than \(maximumTotal) bytes")
            }
        }
        for pack in packs {
            try add(pack.size, to: &sizes, "pack sizes")
            try add(pack.archiveSize ?? 0, to: &archives, "archive sizes")
            for index in pack.files.indices { try add(pack.files.size(at: index), to: &files, "file sizes") }
        }
        for tag in tags { try add(tag.size, to: &tagSizes, "tag sizes") }
    }
}

/// A member the writer always writes, or a shape failure naming it.
private func required<T>(_ value: T?, _ key: String) throws -> T {
    guard let value else { throw JSONReader.Failure.shape("missing '\(key)'") }
    return value
}

extension JSONReader {
    /// A lowercase hex SHA-256, as every hash of the manifest is written (never `null`).
    mutating func sha256(_ what: String) throws -> String {
        let text = try string(what)
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { throw JSONReader.Failure.shape("\(what) '\(text.prefix(80))' is not a lowercase hex SHA-256") }
        return text
    }

    /// `sha256(_:)` as its 32 bytes, written into `digest`, without making a `String` of it.
    mutating func sha256(_ what: String, into digest: UnsafeMutableRawBufferPointer) throws {
        try stringBytes(what) { text, _ in
            guard LowercaseHex.parse(text, into: UnsafeMutableRawBufferPointer(rebasing: digest[..<32])) else {
                let shown = String(decoding: text, as: UTF8.self)
                throw JSONReader.Failure.shape("\(what) '\(shown.prefix(80))' is not a lowercase hex SHA-256")
            }
        }
    }
}

extension BuildManifest.Files {
    /// Reads one file object and appends it, its path and hash straight from the reader's bytes.
    mutating func append(_ reader: inout JSONReader, scratch: inout [UInt8], keepingSource: Bool) throws {
        var hasPath = false
        var source: String?
        var size: Int64?
        var hasHash = false
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        scratch.removeAll(keepingCapacity: true)
        try reader.object("a file") { reader, key in
            switch key {
            case "path":
                try reader.stringBytes("a file's path") { bytes, _ in
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: bytes)
                }
                hasPath = true
            case "source":
                let read = try reader.string("a file's source")
                if keepingSource { source = read }
            case "size": size = try reader.count("a file's size")
            case "sha256":
                try withUnsafeMutableBytes(of: &digest) { try reader.sha256("a file's sha256", into: $0) }
                hasHash = true
            default: try reader.skip()
            }
        }
        guard hasPath else { throw JSONReader.Failure.shape("missing 'path'") }
        try scratch.withUnsafeBufferPointer { path in
            guard RelativePath.isPlain(bytes: path) else {
                throw JSONReader.Failure.shape(
                    "the file path '\(String(decoding: path, as: UTF8.self))' is not a plain relative path")
            }
        }
        let bytes = try required(size, "size")
        guard hasHash else { throw JSONReader.Failure.shape("missing 'sha256'") }
        scratch.withUnsafeBufferPointer { path in
            withUnsafeBytes(of: &digest) { append(path: path, source: source, size: bytes, sha256: $0) }
        }
    }
}

extension BuildManifest.Pack {
    init(_ reader: inout JSONReader, keepingSources: Bool = true) throws {
        var id: String?
        var file: String?
        var tags: [String]?
        var category: DownloadCategory?
        var size: Int64?
        var files: BuildManifest.Files?
        var priority: Double??
        var archiveSize: Int64?
        var archiveSha256: String?
        var contentHash: String?
        var assetPackId: String?
        var downloadPolicy: DownloadPolicy?
        var version: Int64?
        var language: String?
        var platforms: [String]?
        try reader.object("a pack") { reader, key in
            switch key {
            case "id": id = try reader.string("a pack's id")
            case "file": file = try reader.string("a pack's file")
            case "tags": tags = try reader.strings("a pack's tags")
            case "category": category = try DownloadCategory(&reader, "a pack's category")
            case "priority" where reader.isNull(): priority = .some(nil)
            case "priority":
                let value = try reader.double("a pack's priority")
                // Xcode's rule gives 0.05 ... 1.0 (docs/manifest.md#categories-and-priority).
                guard (0...1).contains(value) else {
                    throw JSONReader.Failure.shape("a pack's priority \(value) is not between 0 and 1")
                }
                priority = value
            case "size": size = try reader.count("a pack's size")
            case "archiveSize": archiveSize = try reader.count("archiveSize")
            case "archiveSha256": archiveSha256 = try reader.sha256("archiveSha256")
            case "contentHash": contentHash = try reader.sha256("contentHash")
            case "assetPackId": assetPackId = try reader.string("assetPackId")
            case "downloadPolicy": downloadPolicy = try DownloadPolicy(&reader)
            case "version": version = try reader.count("a pack's version")
            // isNull() has consumed the null.
            case "language" where reader.isNull(): language = nil
            case "language": language = try reader.string("a pack's language")
            case "platforms": platforms = try reader.strings("a pack's platforms")
            case "files":
                var list = BuildManifest.Files()
                var scratch: [UInt8] = []
                try reader.array("a pack's files") {
                    try list.append(&$0, scratch: &scratch, keepingSource: keepingSources)
                }
                list.shrinkToFit()
                files = list
            default: try reader.skip()
            }
        }
        let packFile = try required(file, "file")
        guard RelativePath.isPlain(packFile) else {
            throw JSONReader.Failure.shape("the pack file '\(packFile)' is not a plain relative path")
        }
        self.init(
            id: try required(id, "id"), file: packFile, tags: try required(tags, "tags"),
            category: try required(category, "category"), priority: try required(priority, "priority"),
            size: try required(size, "size"), archiveSize: try required(archiveSize, "archiveSize"),
            archiveSha256: try required(archiveSha256, "archiveSha256"),
            contentHash: try required(contentHash, "contentHash"),
            files: try required(files, "files"), assetPackId: assetPackId, downloadPolicy: downloadPolicy,
            version: version, language: language, platforms: platforms)
    }
}

extension BuildManifest.BackgroundAssets {
    init(_ reader: inout JSONReader) throws {
        var hosting: BackgroundAssetsSettings.Hosting?
        var platforms: [String]?
        var events: [String]?
        var appGroup: String??
        var urlPrefix: String??
        var packager: (command: String, version: String?)??
        try reader.object("backgroundAssets") { reader, key in
            switch key {
            case "hosting":
                let text = try reader.string("backgroundAssets.hosting")
                guard let value = BackgroundAssetsSettings.Hosting(rawValue: text) else {
                    throw JSONReader.Failure.shape("unknown hosting '\(text)'")
                }
                hosting = value
            case "platforms": platforms = try reader.strings("backgroundAssets.platforms")
            case "events": events = try reader.strings("backgroundAssets.events")
            case "appGroup": appGroup = reader.isNull() ? .some(nil) : try reader.string("backgroundAssets.appGroup")
            case "urlPrefix": urlPrefix = reader.isNull() ? .some(nil) : try reader.string("backgroundAssets.urlPrefix")
            case "packager" where reader.isNull(): packager = .some(nil)
            case "packager":
                var command: String?
                var version: String??
                try reader.object("backgroundAssets.packager") { reader, key in
                    switch key {
                    case "command": command = try reader.string("backgroundAssets.packager.command")
                    case "version":
                        version = reader.isNull() ? .some(nil) : try reader.string("backgroundAssets.packager.version")
                    default: try reader.skip()
                    }
                }
                packager = (
                    try required(command, "backgroundAssets.packager.command"),
                    try required(version, "backgroundAssets.packager.version")
                )
            default: try reader.skip()
            }
        }
        self.init(
            hosting: try required(hosting, "backgroundAssets.hosting"),
            platforms: try required(platforms, "backgroundAssets.platforms"),
            events: try required(events, "backgroundAssets.events"),
            appGroup: try required(appGroup, "backgroundAssets.appGroup"),
            urlPrefix: try required(urlPrefix, "backgroundAssets.urlPrefix"),
            // The one member that builds of 0.5.0 did not write yet (the packager's release record, which no command
            // reads back): required, it would make the next build restart every self-hosted version at 0.
            packagerCommand: (packager ?? nil)?.command, packagerVersion: (packager ?? nil)?.version)
    }
}

extension DownloadPolicy {
    /// `{"essential": {"installationEventTypes": [...]}}`, `{"prefetch": {...}}` or `{"onDemand": {}}`.
    init(_ reader: inout JSONReader) throws {
        var policy: DownloadPolicy?
        try reader.object("downloadPolicy") { reader, key in
            guard policy == nil else { throw JSONReader.Failure.shape("a downloadPolicy has more than one kind") }
            switch key {
            case "essential", "prefetch":
                var events: [String]?
                try reader.object("downloadPolicy.\(key)") { reader, name in
                    if name == "installationEventTypes" {
                        events = try reader.strings("installationEventTypes")
                    } else {
                        try reader.skip()
                    }
                }
                let list = try required(events, "installationEventTypes")
                policy = key == "essential" ? .essential(events: list) : .prefetch(events: list)
            case "onDemand":
                try reader.object("downloadPolicy.onDemand") { reader, _ in try reader.skip() }
                policy = .onDemand
            default:
                throw JSONReader.Failure.shape("unknown download policy '\(key)'")
            }
        }
        self = try required(policy, "downloadPolicy")
    }
}

extension BuildManifest.Tag {
    init(_ reader: inout JSONReader) throws {
        var name: String?
        var category: DownloadCategory?
        var size: Int64?
        var packs: [String]?
        try reader.object("a tag") { reader, key in
            switch key {
            case "name": name = try reader.string("a tag's name")
            case "category": category = try DownloadCategory(&reader, "a tag's category")
            case "size": size = try reader.count("a tag's size")
            case "packs": packs = try reader.strings("a tag's packs")
            default: try reader.skip()
            }
        }
        self.init(
            name: try required(name, "name"), category: try required(category, "category"),
            size: try required(size, "size"), packs: try required(packs, "packs"))
    }
}

extension BuildManifest.Totals {
    /// Every member a build writes; `archiveSize` is what a `plan --json` document lacks.
    init(_ reader: inout JSONReader) throws {
        var packs: Int64?
        var size: Int64?
        var archiveSize: Int64?
        var initialInstallSize: Int64?
        var initialPrefetchSize: Int64?
        try reader.object("totals") { reader, key in
            switch key {
            case "packs": packs = try reader.count("totals.packs")
            case "size": size = try reader.count("totals.size")
            case "archiveSize": archiveSize = try reader.count("totals.archiveSize")
            case "initialInstallSize": initialInstallSize = try reader.count("totals.initialInstallSize")
            case "initialPrefetchSize": initialPrefetchSize = try reader.count("totals.initialPrefetchSize")
            default: try reader.skip()
            }
        }
        guard let archiveSize else {
            throw JSONReader.Failure.shape(
                "missing 'totals.archiveSize' (a plan --json document has no archive facts: it is not a build manifest)"
            )
        }
        self.init(
            packs: try required(packs, "totals.packs"), size: try required(size, "totals.size"),
            archiveSize: archiveSize, initialInstallSize: try required(initialInstallSize, "totals.initialInstallSize"),
            initialPrefetchSize: try required(initialPrefetchSize, "totals.initialPrefetchSize"))
    }
}

extension DownloadCategory {
    init(_ reader: inout JSONReader, _ what: String) throws {
        let text = try reader.string(what)
        guard let category = DownloadCategory(rawValue: text) else {
            throw JSONReader.Failure.shape("unknown category '\(text)' in \(what)")
        }
        self = category
    }
}
