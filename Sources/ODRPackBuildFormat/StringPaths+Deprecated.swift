import ODRPackPlatform

// The old `String` forms of reading a build folder's manifests, kept while the modules that still pass text move to
// `FilePath` (docs/architecture.md#paths; issue #47). This whole file goes once no caller uses it.

extension BuildManifest {
    @available(*, deprecated, message: "pass a FilePath")
    package static func location(of path: String) throws -> (file: String, folder: String, isFolder: Bool) {
        let (file, folder, isFolder) = try location(of: FilePath(path))
        return (file.string, folder.string, isFolder)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func load(_ path: String, chunkSize: Int = 1 << 20, keepingSources: Bool = true) throws -> (
        manifest: BuildManifest, folder: String
    ) {
        let (manifest, folder) = try load(FilePath(path), chunkSize: chunkSize, keepingSources: keepingSources)
        return (manifest, folder.string)
    }

    @available(*, deprecated, message: "pass a FilePath")
    package static func loadAll(_ paths: [String], keepingSources: Bool = true) throws -> [BuildManifest] {
        try loadAll(paths.map { FilePath($0) }, keepingSources: keepingSources)
    }
}

extension PackEntry {
    @available(*, deprecated, message: "pass a FilePath")
    package static func entries(ofFolder root: String) throws -> [PackEntry] { try entries(ofFolder: FilePath(root)) }
}

extension PublishedDownloadManifest {
    @available(*, deprecated, message: "pass a FilePath")
    package static func load(_ path: String) throws -> PublishedDownloadManifest { try load(FilePath(path)) }
}
