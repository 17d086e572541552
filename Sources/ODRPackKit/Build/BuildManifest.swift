import Foundation

/// odrpack-manifest.json as read back by `verify` and `diff`.
public struct BuildManifest: Codable, Sendable {
    public struct File: Codable, Sendable {
        public var path: String
        public var size: Int64
        public var sha256: String?
    }

    public struct Pack: Codable, Sendable {
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
    }

    public struct Tag: Codable, Sendable {
        public var name: String
        public var category: DownloadCategory
        public var size: Int64
        public var packs: [String]
    }

    public var schemaVersion: Int
    public var bundleId: String
    public var initialInstallTags: [String]
    public var prefetchOrder: [String]
    public var tags: [Tag]
    public var packs: [Pack]

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, bundleId, initialInstallTags, prefetchOrder, tags, packs
    }

    /// Thrown while decoding a manifest of another schema version.
    struct SchemaMismatch: Error {
        var version: Int
    }

    /// Checks the schema version before anything else, so another version's layout is never misread.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        guard schemaVersion == ManifestDocument.schemaVersion else { throw SchemaMismatch(version: schemaVersion) }
        bundleId = try container.decode(String.self, forKey: .bundleId)
        initialInstallTags = try container.decode([String].self, forKey: .initialInstallTags)
        prefetchOrder = try container.decode([String].self, forKey: .prefetchOrder)
        tags = try container.decode([Tag].self, forKey: .tags)
        packs = try container.decode([Pack].self, forKey: .packs)
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
            return (try JSONDecoder().decode(BuildManifest.self, from: data), folder)
        } catch let mismatch as SchemaMismatch {
            throw ReadError(description: "'\(file)' has schemaVersion \(mismatch.version); this odrpack reads \(ManifestDocument.schemaVersion): rebuild it with this version")
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw ReadError(description: "'\(file)' is not valid JSON (truncated or corrupt): rebuild it with odrpack build")
        } catch {
            throw ReadError(description: "'\(file)' is not a complete odrpack manifest: \(Self.describe(error))")
        }
    }

    /// Loads several manifests at once, one per core.
    public static func loadAll(_ paths: [String]) throws -> [BuildManifest] {
        var results = [Result<BuildManifest, any Error>?](repeating: nil, count: paths.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { try load(paths[index]).manifest }
            lock.withLock { results[index] = result }
        }
        return try results.map { try $0!.get() }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case let .keyNotFound(key, context):
            return "missing '\(key.stringValue)' at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return "bad value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
