/// When a device downloads a pack or a tag (docs/manifest.md#categories-and-priority).
package enum DownloadCategory: String, Sendable, Codable, Comparable {
    case initialInstall = "initial-install"
    case prefetch
    case onDemand = "on-demand"

    private var rank: Int { self == .initialInstall ? 0 : self == .prefetch ? 1 : 2 }
    package static func < (lhs: DownloadCategory, rhs: DownloadCategory) -> Bool { lhs.rank < rhs.rank }
}
