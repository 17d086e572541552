import Foundation
import Testing

/// The suite's two levels (docs/architecture.md#tests): `make test`, the README's, runs every behaviour on small samples
/// (one seed and a few rounds of each property and chaos run) and answers in minutes; `make test-all`
/// (`ODRPACK_TEST_ALL=1`, what `.ci/run` runs) adds the full-size runs: every seed and round, the large trees and the
/// memory gates. A test asks the level through `TestLevel.rounds(_:full:)` or the `.fullLevel` trait, never by
/// reading the environment itself, so the switch has one spelling.
enum TestLevel {
    /// `make test-all` sets `ODRPACK_TEST_ALL=1`; anything else is the default level.
    static let isFull: Bool = ProcessInfo.processInfo.environment["ODRPACK_TEST_ALL"] == "1"

    /// How many rounds (seeds, sizes, repetitions) a property or chaos run makes: `small` at the default level,
    /// `full` under `make test-all`.
    static func rounds(_ small: Int, full: Int) -> Int { isFull ? full : small }

    /// The values a parameterised test runs with: the first `small` of them at the default level, all of them under
    /// `make test-all`.
    static func sample<Element>(_ values: [Element], small: Int) -> [Element] {
        isFull ? values : Array(values.prefix(small))
    }
}

extension Trait where Self == ConditionTrait {
    /// A test or suite that runs only under `make test-all`: full sizes, memory gates, timing-dependent chaos. What
    /// it proves at small size stays in the default level through another test (docs/architecture.md#tests).
    static var fullLevel: Self {
        .enabled(if: TestLevel.isFull, "a full-size run: make test-all runs it")
    }
}
