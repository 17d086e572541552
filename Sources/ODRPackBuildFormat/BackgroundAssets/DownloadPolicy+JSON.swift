import ODRPackCore
import ODRPackFormats

/// How odrpack-manifest.json and ba-package's manifest write a pack's policy (docs/background-assets.md).
extension DownloadPolicy {
    /// `{"essential": {"installationEventTypes": [...]}}`, `{"prefetch": ...}` or `{"onDemand": {}}`.
    package var json: JSONValue {
        switch self {
        case .essential(let events):
            return .object([("essential", .object([("installationEventTypes", .strings(events))]))])
        case .prefetch(let events):
            return .object([("prefetch", .object([("installationEventTypes", .strings(events))]))])
        case .onDemand: return .object([("onDemand", .object([]))])
        }
    }
}
