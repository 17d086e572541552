import Foundation

/// Each limit of a plan's profile beside what the plan uses of it: the rows of `plan`'s totals table,
/// the Markdown summary and the report's gauges.
package struct LimitUsage: Sendable {
    package let name: String
    package let key: LimitProfile.Key
    package let value: Int64
    package var limit: Int64?
    package var isCount: Bool { key.isCount }
    /// value / limit; nil without a limit.
    var fraction: Double? { limit.map { $0 > 0 ? Double(value) / Double($0) : (value > 0 ? .infinity : 0) } }

    /// `12.5%`, or `-` without a (positive) limit.
    package var usedText: String {
        guard let fraction, fraction.isFinite else { return "-" }
        return String(format: "%.1f%%", fraction * 100)
    }

    package static func rows(_ plan: PackPlan) -> [LimitUsage] {
        rows(
            initialInstall: plan.initialInstallSize, initialPrefetch: plan.initialPrefetchSize, total: plan.totalSize,
            packCount: plan.packs.count, largestPack: plan.packs.map(\.size).max() ?? 0,
            largestTag: plan.tags.map(\.size).max() ?? 0, limit: { plan.limits[$0] })
    }

    /// The rows from the figures themselves: a plan's resource bytes, or a build's archive bytes (`report BUILD_DIR`).
    package static func rows(
        initialInstall: Int64, initialPrefetch: Int64, total: Int64, packCount: Int, largestPack: Int64,
        largestTag: Int64, limit: (LimitProfile.Key) -> Int64?
    ) -> [LimitUsage] {
        [
            LimitUsage(name: "initial-install", key: .maxInitialInstallSize, value: initialInstall),
            LimitUsage(name: "initial-install + prefetch", key: .maxInitialPrefetchSize, value: initialPrefetch),
            LimitUsage(name: "all packs", key: .maxTotalSize, value: total),
            LimitUsage(name: "pack count", key: .maxPackCount, value: Int64(packCount)),
            LimitUsage(name: "largest pack", key: .maxPackSize, value: largestPack),
            LimitUsage(name: "largest tag", key: .maxTagSize, value: largestTag),
            LimitUsage(
                name: "largest pack or tag (recommended)", key: .recommendedSize, value: max(largestPack, largestTag)),
        ].map {
            var row = $0
            row.limit = limit(row.key)
            return row
        }
    }

    init(name: String, key: LimitProfile.Key, value: Int64) {
        self.name = name
        self.key = key
        self.value = value
    }
}
