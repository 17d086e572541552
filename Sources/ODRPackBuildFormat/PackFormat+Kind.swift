import ODRPackCore

extension PackFormat {
    /// Where a `PackFormat` value becomes what every command asks of it (docs/architecture.md#pack-formats): every
    /// other question about a format goes to the answer. Exhaustive, as build's, verify's and thin's own switches for
    /// their sides are, so a new format does not compile until each names its type.
    package var kind: any PackFormatKind {
        switch self {
        case .odr: OnDemandResourcesKind()
        case .backgroundAssets: BackgroundAssetsKind()
        }
    }

    /// Every format's conformance, in `allCases` order.
    package static var allKinds: [any PackFormatKind] { allCases.map(\.kind) }
}
