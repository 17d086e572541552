import ODRPackFormats
extension BuildManifest {
    /// The document's members in SPEC 7's order; a plan's leaves out every field that needs contents or archives.
    package var jsonMembers: [(String, JSONValue)] {
        var totalFields: [(String, JSONValue)] = [("packs", .int(totals.packs)), ("size", .int(totals.size))]
        if let archiveSize = totals.archiveSize { totalFields.append(("archiveSize", .int(archiveSize))) }
        totalFields += [("initialInstallSize", .int(totals.initialInstallSize)),
                        ("initialPrefetchSize", .int(totals.initialPrefetchSize))]
        var members: [(String, JSONValue)] = [("schemaVersion", .int(Int64(schemaVersion))), ("format", .string(format.rawValue))]
        if let settings = backgroundAssets {
            members.append(("backgroundAssets", .object([
                ("hosting", .string(settings.hosting.rawValue)), ("platforms", .strings(settings.platforms)),
                ("events", .strings(settings.events)), ("appGroup", .optional(settings.appGroup)),
                ("urlPrefix", .optional(settings.urlPrefix)),
            ])))
        }
        return members + [
            ("bundleId", .string(bundleId)),
            ("profile", .string(profile)),
            ("limits", .object(limits.map { ($0.key.rawValue, .optional($0.value)) })),
            ("initialInstallTags", .strings(initialInstallTags)),
            ("prefetchOrder", .strings(prefetchOrder)),
            ("appBundle", .object([("files", .int(appBundleFiles)), ("size", .int(appBundleSize))])),
            ("totals", .object(totalFields)),
            ("tags", .array(tags.map { tag in
                .object([("name", .string(tag.name)), ("category", .string(tag.category.rawValue)),
                         ("size", .int(tag.size)), ("packs", .strings(tag.packs))])
            })),
            ("packs", .array(packs.map(json))),
        ]
    }

    /// The file's bytes: pretty-printed, deterministic.
    package func serialized() -> String { JSONValue.object(jsonMembers).serialized() }

    private func json(_ pack: Pack) -> JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(pack.id))]
        if let assetPackId = pack.assetPackId { fields.append(("assetPackId", .string(assetPackId))) }
        fields += [("file", .string(pack.file)), ("tags", .strings(pack.tags)),
                   ("category", .string(pack.category.rawValue)), ("priority", .optional(pack.priority))]
        if let policy = pack.downloadPolicy { fields.append(("downloadPolicy", policy.json)) }
        if let version = pack.version { fields.append(("version", .int(version))) }
        fields.append(("size", .int(pack.size)))
        if hasArchives {
            fields += [("archiveSize", .optional(pack.archiveSize)), ("archiveSha256", .optional(pack.archiveSha256)),
                       ("contentHash", .optional(pack.contentHash))]
        }
        fields.append(("files", .array(pack.files.map { file in
            var entry: [(String, JSONValue)] = [("path", .string(file.path)), ("size", .int(file.size))]
            if hasArchives { entry.append(("sha256", .optional(file.sha256))) }
            return .object(entry)
        })))
        return .object(fields)
    }
}
