import Foundation
import ODRPackFormats
import ODRPackPlatform

/// The self-hosted download manifest that is live now (`build --published FILE`, docs/background-assets.md): the source of versions
/// for a build that starts without the previous build folder, and of what is already on the server.
package struct PublishedDownloadManifest: Sendable, Equatable {
    package struct Pack: Sendable, Equatable {
        package let url: String
        package let version: Int64
        package let downloadSize: Int64
    }

    /// By asset pack id.
    package var packs: [String: Pack]

    init(packs: [String: Pack]) { self.packs = packs }

    /// The largest download manifest read (docs/build-output.md#bounded).
    static let maximumBytes = 64 << 20

    /// - Throws: `ODRPackError.buildInput` (exit 2) when the file cannot be read or is not a download manifest.
    package static func load(_ path: FilePath) throws -> PublishedDownloadManifest {
        let bytes: [UInt8]
        switch LocalFileSystem().contents(of: path, limit: Self.maximumBytes) {
        case .success(let data): bytes = data
        case .failure(let error):
            throw ODRPackError.buildInput(.publishedUnreadable(path, error))
        }
        do {
            return try bytes.withUnsafeBytes { try parse($0.bindMemory(to: UInt8.self)) }
        } catch JSONReader.Failure.syntax {
            throw ODRPackError.buildInput(.publishedNotJSON(path))
        } catch JSONReader.Failure.shape(let problem) {
            throw ODRPackError.buildInput(.publishedNotADownloadManifest(path, problem: problem))
        }
    }

    /// `{"assetPacks": [{"id", "url", "version", "downloadSize", ...}]}`: all four in every entry, built here or not;
    /// other members are skipped.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> PublishedDownloadManifest {
        var reader = JSONReader(bytes)
        var packs: [String: Pack] = [:]
        var sawPacks = false
        try reader.object("the download manifest") { reader, key in
            guard key == "assetPacks" else { return try reader.skip() }
            sawPacks = true
            try reader.array("assetPacks") { reader in
                var id: String?
                var url: String?
                var version: Int64?
                var size: Int64?
                try reader.object("an asset pack") { reader, key in
                    switch key {
                    case "id": id = try reader.string("an asset pack's id")
                    case "url": url = try reader.string("an asset pack's url")
                    case "version": version = try reader.count("an asset pack's version")
                    case "downloadSize": size = try reader.count("an asset pack's downloadSize")
                    default: try reader.skip()
                    }
                }
                // Every entry needs all four: a missing downloadSize would become 0 in the app's download
                // allowances (docs/background-assets.md).
                guard let id, let url, let version, let size else {
                    let missing = [
                        ("id", id == nil), ("url", url == nil), ("version", version == nil),
                        ("downloadSize", size == nil),
                    ].filter(\.1).map { "'\($0.0)'" }
                    throw JSONReader.Failure.shape(
                        "asset pack \(id.map { "'\($0)'" } ?? "entry") lacks \(missing.joined(separator: ", "))")
                }
                guard packs[id] == nil else { throw JSONReader.Failure.shape("asset pack '\(id)' is listed twice") }
                packs[id] = Pack(url: url, version: version, downloadSize: size)
            }
        }
        guard sawPacks else { throw JSONReader.Failure.shape("it has no 'assetPacks' list") }
        return PublishedDownloadManifest(packs: packs)
    }
}
