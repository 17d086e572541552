import ODRPackCore

extension PackFormat {
    /// The one place a `PackFormat` value becomes its conformance (docs/architecture.md#pack-formats): every other
    /// question about a format goes to the answer.
    package var kind: any PackFormatKind {
        switch self {
        case .odr: OnDemandResourcesKind()
        case .backgroundAssets: BackgroundAssetsKind()
        }
    }

    /// Every format's conformance, in `allCases` order.
    package static var allKinds: [any PackFormatKind] { allCases.map(\.kind) }
}
