import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// A build's fast path. When the tool, the output settings, the manifest, every entry's metadata under
/// resources-root and every output file are exactly as the last successful build into the folder left them, the
/// build cannot change anything: it prints that build's diagnostics and summary again without planning.
/// Anything unusual (symbolic links, unreadable entries, no replay in the state) takes the full path.
struct UpToDateCheck {
    let manifestPath: String
    let options: BuildOptions
    /// The output folder, bytes and all: what the state is keyed by. Only a folder whose path is UTF-8 takes the
    /// fast path (`BuildOptions.outputPathIsText`): the replay prints its manifest's path as text
    /// (docs/architecture.md#paths).
    let outputFolder: FilePath
    /// Nil when the manifest cannot be read (the full path reports why).
    let inputs: String?
    /// The clocks as they were before the build read anything under resources-root: the state's `ReadStart`.
    let sample: ReadStart.Sample

    enum Outcome {
        /// Nothing changed: what the last build printed.
        case upToDate(UpToDateReplay)
        /// Something changed. The scan of resources-root made on the way, if any, for planning to reuse.
        case changed(FileTree?)
    }

    init(manifestPath: String, options: BuildOptions) {
        self.manifestPath = manifestPath
        self.options = options
        outputFolder = options.outputPath
        sample = ReadStart.Sample.take(output: outputFolder)
        let absoluteManifest = URL(fileURLWithPath: manifestPath).standardizedFileURL.path
        guard let manifest = FileManager.default.contents(atPath: manifestPath) else {
            inputs = nil
            return
        }
        // The binary's own metadata too: a rebuilt odrpack of the same version may print differently.
        let toolStamp = SystemCall.status(SystemCall.executable).map { BuildState.text($0.stamp) } ?? "-"
        var hasher = SHA256Hasher()
        hasher.update("\(toolStamp)\0\(options.settingsKey(packsOnly: false))\0\(manifestPath)\0\(absoluteManifest)\0")
        manifest.withUnsafeBytes { hasher.update($0) }
        inputs = hasher.finalize()
    }

    func run() -> Outcome {
        guard options.useCache, let inputs, options.outputPathIsText else { return .changed(nil) }
        let state = BuildState.load(forOutput: outputFolder, fileRecords: false, environment: options.environment)
        guard let replay = state.replay, replay.inputs == inputs,
            case .success(let realRoot) = LocalFileSystem().resolvedPath(replay.rootPath), realRoot == state.rootPath,
            state.outputs.allSatisfy({ BuildState.stamp(at: outputFolder.joined($0.key)) == $0.value }),
            replay.absent.allSatisfy({ !SystemCall.exists(outputFolder.joined($0)) }),
            state.packs.values.allSatisfy({
                BuildState.packStamp(at: outputFolder.joined(AppleManifests.packsFolder).joined($0.fileName))
                    == $0.archiveStamp
            }),
            SystemCall.status(outputFolder.joined(AppleManifests.packsFolder))?.kind == .directory,
            let archives = try? OutputFolder.names(in: outputFolder.joined(AppleManifests.packsFolder)),
            archives.count == state.packs.count
        else { return .changed(nil) }
        let tree = FileTreeScanner(jobs: options.jobs).scan(realRoot)
        guard tree.fingerprint == replay.treeFingerprint else { return .changed(tree) }
        // A file stamped within a tick of the moment the last build started reading may have changed since.
        guard tree.directories.allSatisfy({ $0.entries.allSatisfy { state.vouches(for: $0.stamp) } }) else {
            return .changed(tree)
        }
        return .upToDate(
            UpToDateReplay(
                replay: replay, packIDs: state.packs.keys.sorted(),
                manifestPath: outputFolder.joined(BuildManifest.fileName).string))
    }

    /// The build's state with what the fast path needs to print it again. Builds the fast path cannot vouch for
    /// (no tree fingerprint, a path entry inside `.git`, which the scan does not enter, pack folders, whose own
    /// metadata does not change when a file inside them does, Background Assets builds) get no replay.
    func state(after result: PlanResult, build: BuildResult) -> BuildState {
        var state = build.state
        state.replay = nil
        state.confirm(build.plan, facts: build.facts)
        state.settleOutputs(in: outputFolder)
        state.readStart = result.resolution.flatMap { resolution in
            sample.start(
                rootPath: resolution.rootPath, stamps: build.plan.packs.lazy.flatMap { $0.files.lazy.map(\.stamp) })
        }
        guard options.format.building.recordsReplay(options), let inputs, let manifest = result.manifest,
            let resolution = result.resolution, let fingerprint = resolution.fingerprint,
            !manifest.entries.contains(where: {
                if case .path(let path) = $0.selector {
                    return path.slashSeparated().contains { component in component == VersionControl.git }
                }
                return false
            })
        else { return state }
        var replay = BuildState.Replay()
        replay.inputs = inputs
        replay.rootPath = manifest.resourcesRootURL.path
        replay.treeFingerprint = fingerprint
        replay.absent = [options.applePlists.removed]
        replay.contentBytes = build.plan.totalSize
        replay.archiveBytes = build.archiveBytes
        replay.diagnostics = result.diagnostics
        replay.allowed = result.allowed
        state.replay = replay
        return state
    }
}
