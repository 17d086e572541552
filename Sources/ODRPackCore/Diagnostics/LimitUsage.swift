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
        let largestPack = plan.packs.map(\.size).max() ?? 0
        let largestTag = plan.tags.map(\.size).max() ?? 0
        return [
            LimitUsage(name: "initial-install", key: .maxInitialInstallSize, value: plan.initialInstallSize),
            LimitUsage(
                name: "initial-install + prefetch", key: .maxInitialPrefetchSize, value: plan.initialPrefetchSize),
            LimitUsage(name: "all packs", key: .maxTotalSize, value: plan.totalSize),
            LimitUsage(name: "pack count", key: .maxPackCount, value: Int64(plan.packs.count)),
            LimitUsage(name: "largest pack", key: .maxPackSize, value: largestPack),
            LimitUsage(name: "largest tag", key: .maxTagSize, value: largestTag),
            LimitUsage(
                name: "largest pack or tag (recommended)", key: .recommendedSize, value: max(largestPack, largestTag)),
        ].map {
            var row = $0
            row.limit = plan.limits[row.key]
            return row
        }
    }

    init(name: String, key: LimitProfile.Key, value: Int64) {
        self.name = name
        self.key = key
        self.value = value
    }
}
