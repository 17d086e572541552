import ODRPackCore

/// What App Store Connect derived of a pack version (its read-only `locale` and `platforms`) against what the
/// manifest meant (docs/store.md#what-app-store-connect-made-of-each-pack): `upload --wait` and `status` judge it.
enum PackReadBack {
    /// `asc-pack-mismatch` when the version's `locale` is not the pack's language (the same string; absent or null for
    /// a pack without one) or its `platforms` are not the pack's; nil when they agree.
    /// - Parameter platforms: the pack's platforms, App Store Connect's values.
    static func mismatch(
        pack id: String, language: String?, platforms: [String], locale: String?, derived: [String]
    ) -> Diagnostic? {
        let expected = StorePlatform.values(platforms)
        let seen = StorePlatform.values(derived)
        // The same string: an empty `locale` is neither absent nor null, so it is no match for a pack without a
        // language (docs/store.md#upload).
        guard language != locale || expected != seen else { return nil }
        return .error(
            .ascPackMismatch,
            """
            pack '\(id)': the manifest says \(describe(language, expected)), but App Store Connect derived \
            \(describe(locale, seen)) from the archive: App Store Connect reads both from the pack manifest inside \
            the archive; check the build's \(id).json and the packager that made the archive, build again, and \
            upload a new version
            """,
            subject: id)
    }

    private static func describe(_ language: String?, _ platforms: [String]) -> String {
        "language \(language ?? "none") and platforms \(platforms.isEmpty ? "none" : platforms.joined(separator: ", "))"
    }
}
