/// The odrpack-manifest.json document (SPEC 7); without archive facts, the `plan --json` form.
public enum ManifestDocument {
    public static let schemaVersion = 1
    public static let fileName = "odrpack-manifest.json"

    public static func json(plan: PackPlan, archives: [String: PackArchiveFacts]? = nil) -> [(String, JSONValue)] {
        var totals: [(String, JSONValue)] = [("packs", .int(Int64(plan.packs.count))), ("size", .int(plan.totalSize))]
        if let archives {
            totals.append(("archiveSize", .int(plan.packs.reduce(0) { $0 + (archives[$1.id]?.archiveSize ?? 0) })))
        }
        totals += [("initialInstallSize", .int(plan.initialInstallSize)), ("initialPrefetchSize", .int(plan.initialPrefetchSize))]
        return [
            ("schemaVersion", .int(Int64(schemaVersion))),
            ("bundleId", .string(plan.bundleID)),
            ("profile", .string(plan.profileName)),
            ("limits", .object(LimitProfile.Key.allCases.map { ($0.rawValue, .optional(plan.limits[$0])) })),
            ("initialInstallTags", .strings(plan.initialInstallTags)),
            ("prefetchOrder", .strings(plan.prefetchOrder)),
            ("appBundle", .object([("files", .int(Int64(plan.appBundleFiles))), ("size", .int(plan.appBundleSize))])),
            ("totals", .object(totals)),
            ("tags", .array(plan.tags.map { tag in
                .object([("name", .string(tag.name)), ("category", .string(tag.category.rawValue)),
                         ("size", .int(tag.size)), ("packs", .strings(tag.packs))])
            })),
            ("packs", .array(plan.packs.map { pack($0, facts: archives?[$0.id], withArchives: archives != nil) })),
        ]
    }

    static func pack(_ pack: AssetPack, facts: PackArchiveFacts?, withArchives: Bool) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(pack.id)),
            ("file", .string("OnDemandResources/" + pack.fileName)),
            ("tags", .strings(pack.tags)),
            ("category", .string(pack.category.rawValue)),
            ("priority", .optional(pack.priority)),
            ("size", .int(pack.size)),
        ]
        if withArchives {
            fields += [("archiveSize", .optional(facts?.archiveSize)), ("archiveSha256", .optional(facts?.archiveSha256)),
                       ("contentHash", .optional(facts?.contentHash))]
        }
        fields.append(("files", .array(pack.files.enumerated().map { index, file in
            var entry: [(String, JSONValue)] = [("path", .string(file.path)), ("size", .int(file.size))]
            if withArchives { entry.append(("sha256", .optional(facts?.files[index].sha256))) }
            return .object(entry)
        })))
        return .object(fields)
    }

    public static func diagnostics(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(diagnostics.map { diagnostic in
            .object([
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("message", .string(diagnostic.message)),
                ("file", .optional(diagnostic.location?.file)),
                ("line", .optional(diagnostic.location?.line)),
                ("column", .optional(diagnostic.location?.column)),
                ("subject", .optional(diagnostic.subject)),
            ])
        })
    }

    public static func summary(_ diagnostics: [Diagnostic]) -> JSONValue {
        .object([("errors", .int(Int64(diagnostics.errorCount))), ("warnings", .int(Int64(diagnostics.warningCount)))])
    }
}
