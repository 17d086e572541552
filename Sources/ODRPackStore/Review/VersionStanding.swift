/// A version and its releases' states, as `status` shows them.
struct VersionStanding: Sendable {
    var version: BackgroundAssetVersionResource
    var internalBeta: String?
    var appStore: String?

    init(version: BackgroundAssetVersionResource, included: [ReleaseResource]) {
        self.version = version
        internalBeta = included.first { $0.kind == .internalBeta && $0.id == version.internalBetaRelease }?.state
        appStore = included.first { $0.kind == .appStore && $0.id == version.appStoreRelease }?.state
    }
}
