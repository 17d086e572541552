import Foundation
import ODRPackCore
import ODRPackPlatform

/// What the builds of a project already checked, for a command that names no output folder (`validate`): a file
/// recorded in a build's state was packed, so it passed the executable-content check with the bytes its recorded
/// metadata vouches for (docs/build-output.md#incremental), and need not be read again. The state is the newest one in
/// the cache folder whose resources-root is the project's (only the states' heads are read to choose it), merged
/// with the resources a window at a time, as a build does with its own.
package enum RecordedChecks {
    /// For `ProjectPlanner.plan`'s `alreadyChecked`: the state is found and checked on another thread while
    /// resources-root is scanned; with none (no cache folder, an untrusted one, no build of this project), nothing is
    /// vouched for.
    /// - Parameter manifestPath: the project's manifest, whose resources-root (links resolved) picks the state.
    package static func alreadyChecked(
        manifestPath: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ([ResolvedResource]) -> [Bool] {
        let loader = PreviousBuildLoader {
            PreviousBuild(state: newestState(manifestPath: manifestPath, environment: environment) ?? BuildState())
        }
        return { loader.previous.alreadyChecked($0) }
    }

    /// The newest state in the cache folder recorded for the manifest's resources-root, gated by its read start.
    static func newestState(manifestPath: String, environment: [String: String]) -> BuildState? {
        guard let manifest = try? ManifestLoader().load(path: manifestPath).manifest,
            case .success(let rootPath) = LocalFileSystem().resolvedPath(manifest.resourcesRootURL.path),
            let anyState = BuildState.location(for: "/", environment: environment),
            BuildState.untrustedFolder(holding: anyState) == nil
        else { return nil }
        let folder = FilePath(anyState).parent.string
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var newest: (path: String, time: Int64)?
        for name in names where name.hasSuffix(".state") {
            let path = folder.slashJoined(name)
            guard let status = SystemCall.status(FilePath(path), followingLinks: false), status.kind == .regular,
                newest.map({ status.stamp.modificationNanoseconds > $0.time }) ?? true,
                BuildState.read(path, fileRecords: false)?.rootPath.hasSameBytes(as: rootPath) == true
            else { continue }
            newest = (path, status.stamp.modificationNanoseconds)
        }
        guard let newest, var state = BuildState.read(newest.path, fileRecords: true),
            state.rootPath.hasSameBytes(as: rootPath)
        else { return nil }
        state.files.gate(by: state.readStart)
        return state
    }
}
