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
        manifestPath: String, environment: [String: String]
    ) -> ([ResolvedResource]) -> [Bool] {
        let loader = PreviousBuildLoader {
            PreviousBuild(state: newestState(manifestPath: manifestPath, environment: environment) ?? BuildState())
        }
        return { loader.previous.alreadyChecked($0) }
    }

    /// The newest state in the cache folder recorded for the manifest's resources-root, gated by its read start: the
    /// one the root's index file names (`BuildState.rootIndexLocation`), which the last build of that root wrote, so
    /// finding it costs one small read however many states the folder holds.
    static func newestState(manifestPath: String, environment: [String: String]) -> BuildState? {
        guard let manifest = try? ManifestLoader().load(path: manifestPath).manifest,
            case .success(let rootPath) = LocalFileSystem().resolvedPath(manifest.resourcesRootURL.path),
            let index = BuildState.rootIndexLocation(forRoot: rootPath, environment: environment),
            BuildState.untrustedFolder(holding: index) == nil,
            let named = try? BoundedFile.readIfPresent(index, limit: 64, what: "the build state index"),
            let name = String(validating: named, as: UTF8.self), BuildState.isStateFileName(name),
            var state = BuildState.read(index.parent.joined(name), fileRecords: true),
            // Another build into that output folder may have recorded another root since.
            state.rootPath.hasSameBytes(as: rootPath)
        else { return nil }
        state.files.gate(by: state.readStart)
        return state
    }
}
