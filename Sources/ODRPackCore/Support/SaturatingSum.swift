extension Sequence where Element == Int64 {
    /// The sum, held at Int64.max instead of trapping: file sizes come from the disk, and sparse files on a file
    /// system such as tmpfs can each be close to Int64.max. A held sum is over every size limit, so it is reported.
    package var saturatingSum: Int64 {
        reduce(0) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(value)
            return overflow ? (value < 0 ? Int64.min : Int64.max) : sum
        }
    }
}

extension Sequence where Element == Int64 {
    /// The sum, or nil when it does not fit a signed 64-bit integer: what `size-overflow` reports (docs/build-output.md,
    /// Bounded) instead of a trap.
    package var checkedSum: Int64? {
        var total: Int64 = 0
        for value in self {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}
