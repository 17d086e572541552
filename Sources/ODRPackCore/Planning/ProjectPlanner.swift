import Foundation
import ODRPackPlatform

/// Runs the stages in order and collects their diagnostics.
package struct ProjectPlanner {
    package init() {}

    /// - Parameter profile: a profile name from the command line, overriding the manifest's.
    /// - Throws: `ODRPackError.manifest` when the manifest cannot be read at all.
    /// - Parameter tree: a scan of resources-root made earlier (`UpToDateCheck`), used if it is of that folder; handed
    ///   over, so that resolution frees it as it walks.
    /// - Parameter alreadyChecked: files a previous build checked (see `PreviousBuild.alreadyChecked`).
    /// - Parameter listUntagged: list the files that stay in the app (`Resolution.untaggedFiles`).
    /// - Parameter platform: an ODR plan's platform (`--platform`); nil for the profile's default.
    package func plan(
        manifestPath: String, profile: String? = nil, format: PackFormat, platform: ApplePlatform? = nil,
        tree: FileTreeHandOff? = nil, listUntagged: Bool = false,
        alreadyChecked: @escaping ([ResolvedResource]) -> [Bool] = { $0.map { _ in false } }
    ) throws -> PlanResult {
        let (manifest, manifestDiagnostics) = try ManifestLoader().load(path: manifestPath)
        guard let manifest else {
            return PlanResult(
                manifest: nil, resolution: nil, plan: nil,
                diagnostics: AllowList().partition(manifestDiagnostics).reported)
        }
        return plan(
            manifest: manifest, profile: profile, format: format, platform: platform,
            manifestDiagnostics: manifestDiagnostics, tree: tree, listUntagged: listUntagged,
            alreadyChecked: alreadyChecked)
    }

    package func plan(
        manifest: TagManifest, profile: String? = nil, format: PackFormat, platform: ApplePlatform? = nil,
        manifestDiagnostics: [Diagnostic] = [],
        tree: FileTreeHandOff? = nil, listUntagged: Bool = false,
        alreadyChecked: @escaping ([ResolvedResource]) -> [Bool] = { $0.map { _ in false } }
    ) -> PlanResult {
        guard let limits = manifest.limits(profileName: profile, format: format) else {
            let diagnostic = Diagnostic.error(
                .manifestInvalidValue, "unknown profile '\(profile ?? manifest.profile.value)'")
            let (reported, allowed) = manifest.allow.partition(manifestDiagnostics + [diagnostic])
            return PlanResult(
                manifest: manifest, resolution: nil, plan: nil, diagnostics: reported, allowed: allowed)
        }
        // A folder holding an odrpack build's lock is a build folder: output, never resources (docs/build-output.md).
        var resolver = ResourceResolver(
            manifest: manifest, tree: tree, outputMarker: BuildFolder.lockFileName, alreadyChecked: alreadyChecked)
        resolver.listsUntagged = listUntagged
        let resolution = resolver.resolve()
        // Entry numbers refer to the entries as resolution made them concrete (`{language}` folders).
        var manifest = manifest
        if let entries = resolution.expandedEntries { manifest.entries = entries }
        let plan = PackPlanner(
            manifest: manifest, limits: limits, format: format, platformProfile: profile, platform: platform
        ).plan(resolution)
        let resolutionDiagnostics = resolution.diagnostics.sorted(by: Self.resolutionOrder)
        let checks = resolution.rootPath.isEmpty ? [] : PlanChecker(manifest: manifest, plan: plan).check()
        // What the manifest allows is kept apart: not printed, not counted, not fatal (docs/manifest.md#allowed-warnings).
        let (reported, allowed) = Self.allowList(manifest: manifest, plan: plan).partition(
            manifestDiagnostics + resolutionDiagnostics + checks)
        return PlanResult(
            manifest: manifest, resolution: resolution, plan: plan, diagnostics: reported, allowed: allowed)
    }

    /// The manifest's `allow` lists, each entry's also under its tags and the packs that hold its files: a pack's
    /// diagnostics point at the pack's first entry and a tag's at its first use, yet an entry's `allow` covers the
    /// diagnostics about its files, tags and packs (docs/manifest.md#allowed-warnings).
    static func allowList(manifest: TagManifest, plan: PackPlan) -> AllowList {
        var allow = manifest.allow
        guard !allow.byLocation.isEmpty else { return allow }
        let entryCodes = manifest.entries.map { allow.entryCodes(at: $0.selectorLocation) }
        for (entry, codes) in zip(manifest.entries, entryCodes) where !codes.isEmpty {
            for tag in entry.tags { allow.allow(codes, subject: tag.value) }
        }
        for pack in plan.packs {
            var codes = Set<DiagnosticCode>()
            for file in pack.files {
                if let entry = file.firstEntry, entry < entryCodes.count { codes.formUnion(entryCodes[entry]) }
            }
            allow.allow(codes, subject: pack.id)
        }
        return allow
    }

    /// Walk order depends on the file system; diagnostics must not.
    static func resolutionOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        let aLine = a.location?.line ?? Int.max
        let bLine = b.location?.line ?? Int.max
        if aLine != bLine { return aLine < bLine }
        let aSubject = a.subject ?? ""
        let bSubject = b.subject ?? ""
        if aSubject != bSubject { return aSubject.precedesByCodePoint(bSubject) }
        return a.code.rawValue < b.code.rawValue
    }
}
