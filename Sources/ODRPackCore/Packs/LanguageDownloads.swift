/// What a player of each language downloads from a Background Assets plan (docs/background-assets.md#languages): at
/// installation, the essential packs without a language plus that language's; in all ("up to"), every pack without
/// a language plus that language's. With several platforms, one row per platform and language, since a device gets
/// only its platform's packs.
package struct LanguageDownloads: Sendable, Equatable {
    package let language: String
    /// Nil when the plan is for one platform.
    package let platform: String?
    package let atInstallation: Int64
    package let upTo: Int64

    /// One row per language of the plan's localized packs (by platform, when it has several), sorted; none without
    /// localized packs.
    package static func rows(_ plan: PackPlan) -> [LanguageDownloads] {
        let languages = plan.languages
        guard !languages.isEmpty else { return [] }
        let allPlatforms = ApplePlatform.ordered(plan.backgroundAssets.platforms ?? [])
        let platforms: [String?] = allPlatforms.count > 1 ? allPlatforms : [nil]
        var rows: [LanguageDownloads] = []
        for platform in platforms {
            let packs = plan.packs.filter { pack in platform.map { pack.platforms?.contains($0) ?? true } ?? true }
            for language in languages {
                let reached = packs.filter { $0.language == nil || $0.language == language }
                rows.append(
                    LanguageDownloads(
                        language: language, platform: platform,
                        atInstallation: reached.lazy.filter { $0.category == .initialInstall }.map(\.size)
                            .saturatingSum,
                        upTo: reached.lazy.map(\.size).saturatingSum))
            }
        }
        return rows
    }
}
