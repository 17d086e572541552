/// When Background Assets downloads a pack (docs/background-assets.md), from its category (docs/manifest.md#categories-and-priority): essential packs come with the
/// app, prefetch packs right after it, on-demand packs when the app asks. Background Assets keeps no prefetch order.
package enum DownloadPolicy: Equatable, Sendable {
    case essential(events: [String])
    case prefetch(events: [String])
    case onDemand

    package init(category: DownloadCategory, events: [String]) {
        switch category {
        case .initialInstall: self = .essential(events: events)
        case .prefetch: self = .prefetch(events: events)
        case .onDemand: self = .onDemand
        }
    }

    /// When essential and prefetch packs download; nil for on-demand packs.
    package var events: [String]? {
        switch self {
        case .essential(let events), .prefetch(let events): return events
        case .onDemand: return nil
        }
    }

    /// The one-word form `plan` shows: `essential`, `prefetch` or `onDemand`.
    package var name: String {
        switch self {
        case .essential: return "essential"
        case .prefetch: return "prefetch"
        case .onDemand: return "onDemand"
        }
    }
}
