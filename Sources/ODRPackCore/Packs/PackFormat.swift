/// Which kind of asset pack a command plans or builds (docs/background-assets.md): the same packs, two formats.
package enum PackFormat: String, CaseIterable, Sendable {
    /// On-Demand Resources packs (docs/build-output.md).
    case odr
    /// Background Assets packs made by Apple's `ba-package` (docs/background-assets.md).
    case backgroundAssets = "background-assets"
}
