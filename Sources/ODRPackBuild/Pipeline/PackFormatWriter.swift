import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// The seam between a build and a pack format: write one pack beside its final place and say what it holds.
/// `PackWriter` writes ODR zips and folders (docs/build-output.md), `BackgroundAssetsPackWriter` drives Apple's packager
/// (docs/background-assets.md). One instance per worker thread, which owns its buffers.
protocol PackFormatWriter: AnyObject {
    /// Reports bytes read as they stream, for progress (from several threads).
    var onBytes: (@Sendable (Int64) -> Void)? { get set }

    /// Writes pack number `index` of the plan at `temporaryPath`; `known` holds its files' digests where the cache
    /// vouches for them. The caller moves what is written into place.
    func write(_ pack: AssetPack, index: Int, known: [FileDigest?], to temporaryPath: FilePath) throws
        -> PackArchiveFacts
}
