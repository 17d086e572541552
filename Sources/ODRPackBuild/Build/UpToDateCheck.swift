import Foundation
import ODRPackCore
import ODRPackPlatform

/// A build's fast path. When the tool, the options, the manifest, every entry's metadata under resources-root
/// and every output file are exactly as the last successful build into the folder left them, the build
/// cannot change anything: it prints that build's diagnostics and summary again without planning.
/// Anything unusual (symbolic links, unreadable entries, a missing record) takes the full path.
struct UpToDateCheck {
    let manifestPath: String
    let options: BuildOptions
    let outputPath: String
    /// Nil when the manifest cannot be read (the full path reports why).
    let inputs: String?

    enum Outcome {
        /// Nothing changed: what the last build printed.
        case upToDate(UpToDateReplay)
        /// Something changed. The scan of resources-root made on the way, if any, for planning to reuse.
        case changed(FileTree?)
    }

    init(manifestPath: String, options: BuildOptions) {
        self.manifestPath = manifestPath
        self.options = options
        outputPath = options.outputPath
        let absoluteManifest = URL(fileURLWithPath: manifestPath).standardizedFileURL.path
        guard let manifest = FileManager.default.contents(atPath: manifestPath) else {
            inputs = nil
            return
        }
        let toolStamp = SystemCall.status(SystemCall.executablePath).map { UpToDateRecord.text($0.stamp) } ?? "-"
        var hasher = SHA256Hasher()
        hasher.update("odrpack \(ToolVersion.current)\0\(toolStamp)\0\(outputPath)\0\(options.compression.rawValue)\0")
        hasher.update("\(options.level)\0\(options.entryTime)\0\(options.urlPrefix.map { "url:" + $0 } ?? "-")\0")
        hasher.update("\(options.layout.rawValue)\0\(options.signCommand.map { "sign:" + $0 } ?? "-")\0")
        hasher.update("\(manifestPath)\0\(absoluteManifest)\0")
        manifest.withUnsafeBytes { hasher.update($0) }
        inputs = hasher.finalize()
    }

    func run() -> Outcome {
        guard options.useCache, let inputs, let record = UpToDateRecord.load(path: UpToDateRecord.location(forOutput: outputPath)),
              record.inputs == inputs else { return .changed(nil) }
        guard case let .success(realRoot) = LocalFileSystem().resolvedPath(record.rootPath) else { return .changed(nil) }
        guard realRoot == record.realRootPath,
              record.outputs.allSatisfy({ BuildCache.stamp(atPath: outputPath + "/" + $0.key) == $0.value }),
              record.absent.allSatisfy({ !SystemCall.exists(outputPath + "/" + $0) }),
              let archives = try? FileManager.default.contentsOfDirectory(atPath: outputPath + "/" + AppleManifests.packsFolder),
              archives.allSatisfy({ record.outputs[AppleManifests.packsFolder + "/" + $0] != nil })
        else { return .changed(nil) }
        let tree = FileTreeScanner(jobs: options.jobs).scan(realRoot)
        guard tree.fingerprint == record.treeFingerprint else { return .changed(tree) }
        return .upToDate(UpToDateReplay(record: record, manifestPath: outputPath + "/" + BuildManifest.fileName))
    }

    /// Records a successful build for the next one to compare with. Builds the fast path cannot vouch for
    /// (no tree fingerprint, a path entry inside `.git`, which the scan does not enter, pack folders, whose own
    /// metadata does not change when a file inside them does) leave no record.
    func save(_ result: PlanResult, build: BuildResult) {
        let location = UpToDateRecord.location(forOutput: outputPath)
        _ = SystemCall.removeFile(location)
        guard options.format == .odr, options.layout == .zip, let inputs, let manifest = result.manifest, let resolution = result.resolution,
              let fingerprint = resolution.fingerprint,
              !manifest.entries.contains(where: {
                  if case let .path(path) = $0.selector { return path.split(separator: "/").contains(".git") }
                  return false
              }) else { return }
        var record = UpToDateRecord()
        record.inputs = inputs
        record.rootPath = manifest.resourcesRootURL.path
        record.realRootPath = resolution.rootPath
        record.treeFingerprint = fingerprint
        let (kept, removed) = options.applePlists
        var names = [BuildManifest.fileName, AppleManifests.onDemandResourcesFile, kept]
        names += build.plan.packs.map { AppleManifests.packsFolder + "/" + $0.fileName }
        for name in names {
            guard let stamp = BuildCache.stamp(atPath: outputPath + "/" + name) else { return }
            record.outputs[name] = stamp
        }
        record.absent = [removed]
        record.packIDs = build.plan.packs.map(\.id).sorted()
        record.contentBytes = build.plan.totalSize
        record.archiveBytes = build.archiveBytes
        record.diagnostics = result.diagnostics
        try? AtomicFile.write(record.serialized(), to: location)
    }
}
