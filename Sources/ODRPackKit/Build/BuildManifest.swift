import Foundation

/// odrpack-manifest.json as read back by `verify` and `diff`.
public struct BuildManifest: Sendable {
    public struct File: Sendable {
        public var path: String
        public var size: Int64
        public var sha256: String?

        init(_ reader: inout JSONReader) throws {
            var path: String?, size: Int64?, sha256: String?
            try reader.object("a file") { reader, key in
                switch key {
                case "path": path = try reader.string("a file's path")
                case "size": size = try reader.count("a file's size")
                case "sha256": sha256 = reader.isNull() ? nil : try reader.string("a file's sha256")
                default: try reader.skip()
                }
            }
            guard let path, let size else { throw JSONReader.Failure.shape("a file needs 'path' and 'size'") }
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    public struct Pack: Sendable {
        public var id: String
        public var file: String
        public var tags: [String]
        public var category: DownloadCategory
        public var priority: Double?
        public var size: Int64
        public var archiveSize: Int64?
        public var archiveSha256: String?
        public var contentHash: String?
        public var files: [File]

        init(_ reader: inout JSONReader) throws {
            var id: String?, file: String?, tags: [String]?, category: DownloadCategory?, size: Int64?, files: [File]?
            var priority: Double?, archiveSize: Int64?, archiveSha256: String?, contentHash: String?
            try reader.object("a pack") { reader, key in
                switch key {
                case "id": id = try reader.string("a pack's id")
                case "file": file = try reader.string("a pack's file")
                case "tags": tags = try reader.strings("a pack's tags")
                case "category":
                    let text = try reader.string("a pack's category")
                    guard let value = DownloadCategory(rawValue: text) else { throw JSONReader.Failure.shape("unknown category '\(text)'") }
                    category = value
                case "priority": priority = reader.isNull() ? nil : try reader.double("a pack's priority")
                case "size": size = try reader.count("a pack's size")
                case "archiveSize": archiveSize = reader.isNull() ? nil : try reader.count("archiveSize")
                case "archiveSha256": archiveSha256 = reader.isNull() ? nil : try reader.string("archiveSha256")
                case "contentHash": contentHash = reader.isNull() ? nil : try reader.string("contentHash")
                case "files":
                    var list: [File] = []
                    try reader.array("a pack's files") { list.append(try File(&$0)) }
                    files = list
                default: try reader.skip()
                }
            }
            guard let id, let file, let tags, let category, let size, let files else {
                throw JSONReader.Failure.shape("a pack needs 'id', 'file', 'tags', 'category', 'size' and 'files'")
            }
            (self.id, self.file, self.tags, self.category, self.size, self.files) = (id, file, tags, category, size, files)
            (self.priority, self.archiveSize, self.archiveSha256, self.contentHash) = (priority, archiveSize, archiveSha256, contentHash)
        }
    }

    public struct Tag: Sendable {
        public var name: String
        public var category: DownloadCategory
        public var size: Int64
        public var packs: [String]

        init(_ reader: inout JSONReader) throws {
            var name: String?, category: DownloadCategory?, size: Int64?, packs: [String]?
            try reader.object("a tag") { reader, key in
                switch key {
                case "name": name = try reader.string("a tag's name")
                case "category": category = DownloadCategory(rawValue: try reader.string("a tag's category"))
                case "size": size = try reader.count("a tag's size")
                case "packs": packs = try reader.strings("a tag's packs")
                default: try reader.skip()
                }
            }
            guard let name, let category, let size, let packs else {
                throw JSONReader.Failure.shape("a tag needs 'name', 'category', 'size' and 'packs'")
            }
            (self.name, self.category, self.size, self.packs) = (name, category, size, packs)
        }
    }

    public var schemaVersion: Int
    public var bundleId: String
    public var initialInstallTags: [String]
    public var prefetchOrder: [String]
    public var tags: [Tag]
    public var packs: [Pack]

    /// Thrown while reading a manifest of another schema version.
    struct SchemaMismatch: Error {
        var version: Int
    }

    /// Why a manifest could not be read: the tool cannot do its job (exit 2).
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a build folder's manifest, or the manifest file itself.
    public static func load(_ path: String) throws -> (manifest: BuildManifest, folder: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReadError(description: "'\(path)' does not exist: pass a build folder or its \(ManifestDocument.fileName)")
        }
        let file = isDirectory.boolValue ? path + "/" + ManifestDocument.fileName : path
        let folder = isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ReadError(description: isDirectory.boolValue
                ? "'\(path)' has no \(ManifestDocument.fileName): is it a finished odrpack build folder?"
                : "cannot read '\(file)'")
        }
        do {
            return (try data.withUnsafeBytes { try BuildManifest(json: $0.bindMemory(to: UInt8.self)) }, folder)
        } catch JSONReader.Failure.syntax {
            throw ReadError(description: "'\(file)' is not valid JSON (truncated or corrupt): rebuild it with odrpack build")
        } catch JSONReader.Failure.shape(let problem) {
            throw ReadError(description: "'\(file)' is not a complete odrpack manifest: \(problem)")
        } catch let mismatch as SchemaMismatch {
            throw ReadError(description: "'\(file)' has schemaVersion \(mismatch.version); this odrpack reads \(ManifestDocument.schemaVersion): rebuild it with this version")
        }
    }

    /// Loads several manifests at once, one per core.
    public static func loadAll(_ paths: [String]) throws -> [BuildManifest] {
        try parallelMap(paths) { try load($0).manifest }
    }

    /// Reads the manifest with `JSONReader`; the schema version must come before anything it decides.
    init(json bytes: UnsafeBufferPointer<UInt8>) throws {
        var reader = JSONReader(bytes)
        var version: Int?, bundle: String?, initial: [String]?, prefetch: [String]?
        var tags: [Tag]?, packs: [Pack]?
        try reader.object("the manifest") { reader, key in
            switch key {
            case "schemaVersion":
                version = Int(try reader.integer("schemaVersion"))
                if version != ManifestDocument.schemaVersion { throw SchemaMismatch(version: version!) }
            case "bundleId": bundle = try reader.string("bundleId")
            case "initialInstallTags": initial = try reader.strings("initialInstallTags")
            case "prefetchOrder": prefetch = try reader.strings("prefetchOrder")
            case "tags":
                var list: [Tag] = []
                try reader.array("tags") { list.append(try Tag(&$0)) }
                tags = list
            case "packs":
                var list: [Pack] = []
                try reader.array("packs") { list.append(try Pack(&$0)) }
                packs = list
            default: try reader.skip()
            }
        }
        guard reader.peek() == nil else { throw JSONReader.Failure.syntax(reader.position) }
        guard let version else { throw JSONReader.Failure.shape("it has no schemaVersion") }
        func required<T>(_ value: T?, _ key: String) throws -> T {
            guard let value else { throw JSONReader.Failure.shape("missing '\(key)'") }
            return value
        }
        schemaVersion = version
        bundleId = try required(bundle, "bundleId")
        initialInstallTags = try required(initial, "initialInstallTags")
        prefetchOrder = try required(prefetch, "prefetchOrder")
        self.tags = try required(tags, "tags")
        self.packs = try required(packs, "packs")
    }
}
