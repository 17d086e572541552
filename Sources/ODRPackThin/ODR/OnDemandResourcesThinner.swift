import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `thin` with an On-Demand Resources build (docs/commands.md#thin): removes the packed files from the app, installs
/// the build's plists and, with `--embed`, the packs themselves as folders under `OnDemandResources/`.
struct OnDemandResourcesThinner {
    let thinner: AppThinner
    let manifest: BuildManifest
    let buildFolder: FilePath

    /// What thinning the app means (the checks' findings in the result) and the change that does it, which the caller
    /// commits: nothing is changed here but the embedded packs staged under temporary names.
    func plan(_ location: AppThinner.Location) throws -> (AppThinner.Result, AppTransaction) {
        let options = thinner.options
        let app = location.app
        if options.appGroup != nil {
            throw ODRPackError.usage(
                "--app-group applies to Background Assets builds only; '\(options.buildPath)' is an ODR build")
        }
        let packsFolder = app.joined(AppleManifests.packsFolder)
        if options.embed {
            try Self.checkPacksFolderName(in: app)
        }
        let copies = try plistCopies()

        // 1. Check: every app file at a pack's path must hold the pack's bytes.
        var result = AppThinner.Result()
        var change = AppTransaction(app: app)
        let found = try thinner.packedFiles(of: manifest, in: location)
        result.diagnostics = found.diagnostics
        if result.diagnostics.hasErrors { return (result, change) }
        result.diagnostics += thinner.notInAppWarnings(
            manifest, found, in: location,
            installed: (AppleManifests.onDemandResourcesFile, buildFolder.joined(AppleManifests.onDemandResourcesFile)))
        thinner.remove(found, of: manifest, in: location, into: &result, change: &change)

        // 2. The embedded packs, staged beside their final names (a dry run only names them).
        let packsFolderExists = SystemCall.status(packsFolder, followingLinks: false)?.kind == .directory
        var embedded: [(name: String, pack: BuildManifest.Pack)] = []
        var plists: [(String, Data)] = []
        if options.embed {
            embedded = manifest.packs.sorted(by: { $0.id < $1.id }).map {
                ($0.file.splitAtLastSlash().map { String($0.name) } ?? $0.file, $0)
            }
            if !options.dryRun {
                try stage(embedded, in: packsFolder, exists: packsFolderExists, change: &change)
            }
            result.embedded = embedded.map(\.name)
            plists.append((AppleManifests.manifestFile, Self.embeddedManifest(embedded)))
        }

        // 3. Packs embedded by an earlier run that this build no longer has (or every one, without --embed).
        if packsFolderExists {
            let embeddedNames = Set(embedded.map { PathKey($0.name) })
            for name in try OutputFolder.names(in: packsFolder)
            where name.hasSuffix(".assetpack") && !embeddedNames.contains(PathKey(name)) {
                change.removals.append(packsFolder.joined(name))
            }
            if !options.embed { change.emptiedFolders.append(packsFolder) }
        }
        install(copies: copies, plists: plists, in: app, into: &result, change: &change)
        // A pack already embedded exactly as this build's is left where it is.
        Self.dropUnchangedInstalls(from: &change)
        result.unchanged =
            found.toRemove.isEmpty && isUnchanged(change, app: app, copies: copies, installsPlists: !plists.isEmpty)
        return (result, change)
    }

    /// Whether `change` leaves the app as it is (a second thin of the same app with the same build): nothing to
    /// remove, the plists already there and, with --embed, every pack already in place as extracted (a dry run
    /// extracts nothing, so it cannot tell).
    private func isUnchanged(_ change: AppTransaction, app: FilePath, copies: [String], installsPlists: Bool) -> Bool {
        let options = thinner.options
        let embeddedInPlace =
            !options.dryRun && change.installs.isEmpty && change.createdFolders.isEmpty && change.writes.isEmpty
        return change.removals.isEmpty && (options.embed ? embeddedInPlace : !installsPlists)
            && copies.allSatisfy { AppThinner.sameBytes(app.joined($0), buildFolder.joined($0)) }
    }

    /// The build's plists thin copies into the app: OnDemandResources.plist, and the asset-pack manifest the build
    /// wrote unless `--embed` makes its own.
    /// - Throws: `ODRPackError.thin(.buildFileUnreadable)` (exit 2) when one is not a readable file of the build
    ///   folder.
    private func plistCopies() throws -> [String] {
        let options = thinner.options
        let applePlist =
            [AppleManifests.manifestFile, AppleManifests.templateFile]
            .first { SystemCall.exists(buildFolder.joined($0)) } ?? AppleManifests.templateFile
        // The build's plists are copied as streams (OnDemandResources.plist lists every file: tens of MB at a million),
        // never held; the embedded packs' manifest is made here, one record a pack.
        var copies: [String] = []
        for name in [AppleManifests.onDemandResourcesFile, applePlist] where !(options.embed && name == applePlist) {
            guard SystemCall.status(buildFolder.joined(name))?.kind == .regular else {
                throw ODRPackError.thin(
                    .buildFileUnreadable(folder: buildFolder, name: name, build: options.buildFolder))
            }
            copies.append(name)
        }
        return copies
    }

    /// Extracts each pack into `packsFolder` beside its final name, listing it in `change` before it is written (a
    /// pack cut off halfway, by a full disk, is removed too); a failure removes what was staged.
    private func stage(
        _ embedded: [(name: String, pack: BuildManifest.Pack)], in packsFolder: FilePath, exists: Bool,
        change: inout AppTransaction
    ) throws {
        if !exists {
            try OutputFolder.makeFolder(packsFolder)
            change.createdFolders.append(packsFolder)
            // 0755 whatever the umask, as the packs' own folders are (docs/commands.md#thin).
            if let failure = SystemCall.setPermissions(packsFolder, 0o755) {
                throw ODRPackError.io(.setMode, path: packsFolder, failure)
            }
        }
        let progress = thinner.progress
        let shares = embedded.map { PackExtractor.writtenBytes(of: $0.pack) }
        progress.begin(units: embedded.count, bytes: shares.saturatingSum)
        defer { progress.end() }
        do {
            for (item, bytes) in zip(embedded, shares) {
                try Interrupt.checkpoint()
                let staged = packsFolder.joined(TemporaryName.beside(item.name))
                // Listed before it is written: a pack cut off halfway (a full disk) is removed too.
                change.installs.append((staged, packsFolder.joined(item.name)))
                var share = ProgressBar.Share(of: progress, bytes: bytes)
                _ = try PackExtractor.extract(buildFolder.joined(item.pack.file), to: staged) {
                    share.add($0)
                }
                share.finish()
            }
        } catch {
            for (staged, _) in change.installs { try? OutputFolder.remove(staged) }
            for folder in change.createdFolders { SystemCall.removeFolderIfEmpty(folder) }
            throw error
        }
    }

    /// Takes out of `change` each staged pack whose folder in the app already holds the same tree (names by bytes,
    /// kinds, modes, link targets and file bytes), removing what was staged: a second `thin --embed` with the same
    /// build replaces nothing.
    private static func dropUnchangedInstalls(from change: inout AppTransaction) {
        let buffer = ReadBuffer(size: 1 << 20)
        change.installs.removeAll { install in
            guard sameTree(install.from, install.to, buffer: buffer) else { return false }
            try? OutputFolder.remove(install.from)
            return true
        }
    }

    /// Whether the folders `first` and `second` hold the same tree: the same names (by bytes), each of the same kind
    /// and permission bits, links to the same target and files of the same bytes. False when either cannot be read.
    private static func sameTree(_ first: FilePath, _ second: FilePath, buffer: ReadBuffer) -> Bool {
        guard let left = SystemCall.status(first, followingLinks: false),
            let right = SystemCall.status(second, followingLinks: false),
            left.kind == right.kind, left.permissions == right.permissions
        else { return false }
        switch left.kind {
        case .directory:
            guard let names = try? FolderNames.list(first), let otherNames = try? FolderNames.list(second),
                Set(names.map(\.bytes)) == Set(otherNames.map(\.bytes))
            else { return false }
            return names.allSatisfy { sameTree($0.path(in: first), $0.path(in: second), buffer: buffer) }
        case .symbolicLink:
            guard let target = try? SystemCall.linkTarget(first), let other = try? SystemCall.linkTarget(second) else {
                return false
            }
            return target == other
        case .regular:
            return AppThinner.sameBytes(first, second, buffer: buffer)
        default:
            return false
        }
    }

    /// AssetPackManifest.plist for the embedded packs: one resource a pack, at its path in the app.
    private static func embeddedManifest(_ embedded: [(name: String, pack: BuildManifest.Pack)]) -> Data {
        let resources = embedded.map { item in
            AppleManifests.assetPackResource(
                id: item.pack.id, url: AppleManifests.packsFolder.slashJoined(AppleManifests.percentEncoded(item.name)),
                uncompressedSize: item.pack.size
                    + Int64(
                        AppleManifests.infoPlist(
                            id: item.pack.id, tags: item.pack.tags, priority: item.pack.priority
                        ).binaryData().count),
                priority: item.pack.priority, contentHash: item.pack.contentHash ?? "", streamable: .boolean)
        }
        return PropertyListValue.dictionary(["resources": .array(resources)]).binaryData()
    }

    /// Copies and writes the plists where the app's differ, and removes the asset-pack manifest this run does not
    /// install: the app keeps one, the one this run installed.
    private func install(
        copies: [String], plists: [(String, Data)], in app: FilePath, into result: inout AppThinner.Result,
        change: inout AppTransaction
    ) {
        for name in copies {
            let source = buildFolder.joined(name)
            if !AppThinner.sameBytes(app.joined(name), source)
                || SystemCall.status(app.joined(name), followingLinks: false)?.kind != .regular
            {
                change.copies.append((app.joined(name), source))
            }
            result.installed.append(name)
        }
        for (name, data) in plists {
            if FileManager.default.contents(atPath: app.joined(name).string) != data
                || SystemCall.status(app.joined(name), followingLinks: false)?.kind != .regular
            {
                change.writes.append((app.joined(name), data))
            }
            result.installed.append(name)
        }
        for name in [AppleManifests.manifestFile, AppleManifests.templateFile]
        where !plists.contains(where: { $0.0 == name }) && !copies.contains(name)
            && SystemCall.status(app.joined(name), followingLinks: false) != nil
        {
            change.removals.append(app.joined(name))
        }
    }

    /// `--embed` needs the name `OnDemandResources` for a folder in the app's root: anything else of that name, in any
    /// letter case (an executable named so; case-insensitive file systems make them one), is exit 2.
    static func checkPacksFolderName(in app: FilePath) throws {
        let wanted = AppleManifests.packsFolder
        for name in try OutputFolder.names(in: app) where name.lowercased() == wanted.lowercased() {
            if name == wanted, SystemCall.status(app.joined(name), followingLinks: false)?.kind == .directory {
                continue
            }
            throw ODRPackError.thin(.packsFolderNameTaken(app: app, name: name))
        }
    }
}
