import ODRPackPlatform

// The old `String` forms of the zip reader's and writer's paths, kept while the modules that still pass text move to
// `FilePath` (docs/architecture.md#paths; issue #47). This whole file goes once no caller uses it.

extension StreamingZipReader {
    @available(*, deprecated, message: "pass a FilePath")
    package convenience init(path: String, hashing: Bool = false) throws {
        try self.init(path: FilePath(path), hashing: hashing)
    }
}

extension AssetPackZipWriter {
    @available(*, deprecated, message: "pass a FilePath")
    package convenience init(
        descriptor: Int32, path: String, entryTime: Int64, level: Int?,
        centralMemoryLimit: Int = AssetPackZipWriter.centralMemoryLimit, makeSpill: (() throws -> SpillFile)? = nil
    ) throws {
        try self.init(
            descriptor: descriptor, path: FilePath(path), entryTime: entryTime, level: level,
            centralMemoryLimit: centralMemoryLimit, makeSpill: makeSpill)
    }
}
