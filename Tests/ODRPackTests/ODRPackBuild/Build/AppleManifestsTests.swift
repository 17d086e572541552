import Foundation
import Testing
@testable import ODRPackBuild

/// The asset-pack manifest's values as Xcode's exports have them (SPEC 7).
@Suite struct AppleManifestsTests {
    @Test func contentTimestampsAreWholeSecondsBetween2001And2020() {
        #expect(AppleManifests.contentTimestamp(String(repeating: "0", count: 64)) == "2001-01-01T00:00:00.000Z")
        // The last second of the range: span - 1 seconds after its start.
        let span = UInt64(1_609_459_200 - 978_307_200)
        #expect(AppleManifests.contentTimestamp(String(format: "%016llx", span - 1) + String(repeating: "0", count: 48)) == "2020-12-31T23:59:59.000Z")
        #expect(AppleManifests.contentTimestamp(String(format: "%016llx", span) + String(repeating: "0", count: 48)) == "2001-01-01T00:00:00.000Z")
        for hash in ["ffffffffffffffff", "0123456789abcdef", "8000000000000000"] {
            let stamp = AppleManifests.contentTimestamp(hash + String(repeating: "0", count: 48))
            #expect(stamp.hasSuffix(".000Z") && stamp >= "2001-01-01T00:00:00.000Z" && stamp <= "2020-12-31T23:59:59.000Z")
        }
    }

    @Test func isStreamableIsAnInteger() {
        for (url, streamable) in [("https://x/a.assetpack", 1), ("http://127.0.0.1/tmp/a.assetpack", 1), ("OnDemandResources/a.assetpack", 0)] {
            let resource = AppleManifests.assetPackResource(id: "a", url: url, uncompressedSize: 1, priority: nil, contentHash: "")
            guard case let .dictionary(values) = resource else { Issue.record("not a dictionary"); continue }
            #expect(values["isStreamable"] == .int(Int64(streamable)))
        }
    }

    /// A plain build on a machine with more cores than --jobs accepts still runs.
    @Test func theDefaultJobCountIsAlwaysAcceptable() {
        #expect((1...BuildOptions.maximumJobs).contains(BuildOptions.defaultJobs))
        #expect(BuildOptions.defaultJobs == min(ProcessInfo.processInfo.activeProcessorCount, BuildOptions.maximumJobs))
    }
}
