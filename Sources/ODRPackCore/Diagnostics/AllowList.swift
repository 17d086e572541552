/// The manifest's `allow` lists (docs/manifest.md#allowed-warnings): warning codes a project accepts, at the top level
/// for the whole project, or on an entry for the diagnostics about that entry's files, tags and packs (those reported
/// at the entry's `path` or `glob` and at its tags). An allowed warning is not printed, not counted and not fatal
/// under `--warnings-as-errors`; it is kept apart, for the summary's count and `--json`'s `"allowed"`. Pure.
package struct AllowList: Equatable, Sendable {
    /// The top-level `allow`: these codes are allowed wherever they are reported.
    package var codes: Set<DiagnosticCode> = []
    /// Each entry's `allow`, under every place in the manifest that belongs to the entry.
    var byLocation: [SourceLocation: Set<DiagnosticCode>] = [:]
    /// Each entry's `allow`, under the subjects that belong to the entry wherever they are reported: its tags, and the
    /// packs that hold its files (a pack's diagnostics point at its first entry, a tag's at its first use).
    var bySubject: [String: Set<DiagnosticCode>] = [:]

    package init() {}

    /// Adds an entry's codes for the diagnostics reported at any of `locations` (its selector, its tags).
    mutating func allow(_ entryCodes: Set<DiagnosticCode>, at locations: [SourceLocation?]) {
        guard !entryCodes.isEmpty else { return }
        for case let location? in locations { byLocation[location, default: []].formUnion(entryCodes) }
    }

    /// The codes an entry allows, by the location of its `path` or `glob`.
    func entryCodes(at location: SourceLocation?) -> Set<DiagnosticCode> {
        guard let location else { return [] }
        return byLocation[location] ?? []
    }

    /// Adds an entry's codes for the diagnostics about `subject` (one of its tags, a pack holding its files).
    mutating func allow(_ entryCodes: Set<DiagnosticCode>, subject: String) {
        guard !entryCodes.isEmpty else { return }
        bySubject[subject, default: []].formUnion(entryCodes)
    }

    /// Whether `diagnostic` is a warning this list allows. Errors are never allowed.
    package func allows(_ diagnostic: Diagnostic) -> Bool {
        guard diagnostic.severity == .warning else { return false }
        if codes.contains(diagnostic.code) { return true }
        if let subject = diagnostic.subject, bySubject[subject]?.contains(diagnostic.code) ?? false { return true }
        guard let location = diagnostic.location else { return false }
        return byLocation[location]?.contains(diagnostic.code) ?? false
    }

    /// The diagnostics still reported, each warning ending with how to allow it, and those allowed, as they were.
    package func partition(_ diagnostics: [Diagnostic]) -> (reported: [Diagnostic], allowed: [Diagnostic]) {
        var reported: [Diagnostic] = []
        var allowed: [Diagnostic] = []
        for diagnostic in diagnostics {
            if allows(diagnostic) {
                allowed.append(diagnostic)
            } else {
                reported.append(Self.withAllowHint(diagnostic))
            }
        }
        return (reported, allowed)
    }

    /// A warning's message ending with how to allow it (`allow it: allow: [tag-similar]`); an error, a warning that
    /// says so already, or the warning of an error code that `allow` refuses (`tag-invalid` for whitespace around a
    /// tag: the hint would lead to `manifest-invalid-value`), as it is.
    package static func withAllowHint(_ diagnostic: Diagnostic) -> Diagnostic {
        let hint = "allow it: allow: [\(diagnostic.code.rawValue)]"
        guard diagnostic.severity == .warning, DiagnosticCode.warningCodes.contains(diagnostic.code),
            !diagnostic.message.hasSuffix(hint)
        else { return diagnostic }
        return Diagnostic(
            .warning, diagnostic.code, diagnostic.message + "; " + hint, at: diagnostic.location,
            subject: diagnostic.subject)
    }
}

extension DiagnosticCode {
    /// The codes of docs/diagnostics.md whose severity is warning: those an `allow` list may name. A code that is a
    /// warning in one case and an error in another (`build-folder-skipped`) is a warning code; `tag-invalid`, an
    /// error but for whitespace around a tag, is not.
    package static let warningCodes: [DiagnosticCode] = [
        .tagInBothCategories, .tagListedTwice, .entryMatchesNothing, .caseCollision, .overRecommendedSize,
        .normalizationCollision, .outputForeignFile, .appFileConverted, .appSignatureStale, .baQuota,
        .symlinkDuplicate, .buildFolderSkipped, .assetCatalogUncompiled, .resourceUncompiled, .packFilesNotInApp,
        .baExtensionMissing, .baPackDropped, .tagSimilar, .tagUnused, .importPathOutside, .baPackagerUnknown,
    ]
}
