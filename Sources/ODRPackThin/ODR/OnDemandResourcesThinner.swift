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
    let buildFolder: String

    func run(_ location: AppThinner.Location) throws -> AppThinner.Result {
        let options = thinner.options
        let app = location.app
        if options.appGroup != nil {
            throw ODRPackError.usage(
                "--app-group applies to Background Assets builds only; '\(options.buildPath)' is an ODR build")
        }
        let applePlist =
            [AppleManifests.manifestFile, AppleManifests.templateFile]
            .first { FileManager.default.fileExists(atPath: buildFolder + "/" + $0) } ?? AppleManifests.templateFile
        var plists: [(String, Data)] = []
        for name in [AppleManifests.onDemandResourcesFile, applePlist] where !(options.embed && name == applePlist) {
            guard let data = FileManager.default.contents(atPath: buildFolder + "/" + name) else {
                throw ODRPackError.unusableInput(
                    "'\(buildFolder)/\(name)' cannot be read: is '\(options.buildPath)' a finished odrpack build?")
            }
            plists.append((name, data))
        }

        // 1. Check: every app file at a pack's path must hold the pack's bytes.
        var result = AppThinner.Result()
        let (toRemove, diagnostics) = try thinner.packedFiles(of: manifest, in: location)
        result.diagnostics = diagnostics
        if result.diagnostics.hasErrors { return result }
        if let warning = thinner.notInAppWarning(
            manifest, found: toRemove.count, in: location,
            installed: (AppleManifests.onDemandResourcesFile, plists.first?.1))
        {
            result.diagnostics.append(warning)
        }

        // 2. Prepare the embedded packs beside their final names.
        let packsFolder = app + "/" + AppleManifests.packsFolder
        let temporaryPrefix = TemporaryName.processPrefix
        var embedded: [(name: String, size: Int64, pack: BuildManifest.Pack)] = []
        if options.embed {
            try OutputFolder.makeFolder(packsFolder)
            do {
                for pack in manifest.packs.sorted(by: { $0.id < $1.id }) {
                    let name = (pack.file as NSString).lastPathComponent
                    let size = try PackExtractor.extract(
                        buildFolder + "/" + pack.file, to: packsFolder + "/" + TemporaryName.beside(name))
                    embedded.append((name, size, pack))
                }
            } catch {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: packsFolder)) ?? []
                where name.hasPrefix(temporaryPrefix) {
                    try? FileManager.default.removeItem(atPath: packsFolder + "/" + name)
                }
                throw error
            }
            let resources = embedded.map { item in
                AppleManifests.assetPackResource(
                    id: item.pack.id, url: AppleManifests.packsFolder + "/" + AppleManifests.percentEncoded(item.name),
                    uncompressedSize: item.pack.size
                        + Int64(
                            AppleManifests.infoPlist(
                                id: item.pack.id, tags: item.pack.tags, priority: item.pack.priority
                            ).binaryData().count),
                    priority: item.pack.priority, contentHash: item.pack.contentHash ?? "", streamable: .boolean)
            }
            plists.append(
                (
                    AppleManifests.manifestFile,
                    PropertyListValue.dictionary(["resources": .array(resources)]).binaryData()
                ))
        }

        // 3. Change the app.
        try thinner.remove(toRemove, in: location, into: &result)
        let embeddedNames = Set(embedded.map(\.name))
        for item in embedded {
            let final = packsFolder + "/" + item.name
            if FileManager.default.fileExists(atPath: final) { try thinner.removeItem(final) }
            if let failure = SystemCall.rename(packsFolder + "/" + TemporaryName.beside(item.name), to: final) {
                throw ODRPackError.systemCall("cannot move the embedded pack into '\(final)'", failure)
            }
            result.embedded.append(item.name)
        }
        // Packs embedded by an earlier run that this build no longer has (or every one, without --embed).
        for name in try OutputFolder.names(in: packsFolder)
        where name.hasSuffix(".assetpack") && !embeddedNames.contains(name) {
            try thinner.removeItem(packsFolder + "/" + name)
        }
        if !options.embed { SystemCall.removeFolderIfEmpty(packsFolder) }
        for (name, data) in plists {
            if FileManager.default.contents(atPath: app + "/" + name) != data {
                try AtomicFile.write(data, to: app + "/" + name, replacingLinks: true)
            }
            result.installed.append(name)
        }
        // One asset-pack manifest: the one this run installed.
        for name in [AppleManifests.manifestFile, AppleManifests.templateFile]
        where !plists.contains(where: { $0.0 == name }) {
            _ = SystemCall.removeFile(app + "/" + name)
        }
        return result
    }
}
