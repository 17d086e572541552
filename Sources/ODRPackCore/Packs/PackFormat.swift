/// Which kind of asset pack a command plans or builds (SPEC 12): the same packs, two formats.
package enum PackFormat: String, CaseIterable, Sendable {
    /// On-Demand Resources packs (SPEC 7).
    case odr
    /// Background Assets packs made by Apple's `ba-package` (SPEC 12).
    case backgroundAssets = "background-assets"
}
