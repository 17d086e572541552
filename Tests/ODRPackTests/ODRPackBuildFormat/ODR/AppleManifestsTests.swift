import Foundation
import ODRPackFormats
import Testing

@testable import ODRPackBuildFormat

/// The asset-pack manifest's values as Xcode's exports have them (docs/build-output.md).
@Suite struct AppleManifestsTests {
    @Test func contentTimestampsAreWholeSecondsBetween2001And2020() {
        #expect(AppleManifests.contentTimestamp(String(repeating: "0", count: 64)) == "2001-01-01T00:00:00.000Z")
        // The last second of the range: span - 1 seconds after its start.
        let span = UInt64(1_609_459_200 - 978_307_200)
        #expect(
            AppleManifests.contentTimestamp(String(format: "%016llx", span - 1) + String(repeating: "0", count: 48))
                == "2020-12-31T23:59:59.000Z")
        #expect(
            AppleManifests.contentTimestamp(String(format: "%016llx", span) + String(repeating: "0", count: 48))
                == "2001-01-01T00:00:00.000Z")
        for hash in ["ffffffffffffffff", "0123456789abcdef", "8000000000000000"] {
            let stamp = AppleManifests.contentTimestamp(hash + String(repeating: "0", count: 48))
            #expect(
                stamp.hasSuffix(".000Z") && stamp >= "2001-01-01T00:00:00.000Z" && stamp <= "2020-12-31T23:59:59.000Z")
        }
    }

    /// Build products (the template, thin --embed's manifest) hold a plist boolean, exports the integer (docs/build-output.md):
    /// checked in the written bytes, `0x09`/`0x08` against `0x10 0x01`/`0x10 0x00`.
    @Test func isStreamableTakesTheFormOfItsFile() throws {
        let cases: [(url: String, form: AppleManifests.StreamableForm, kind: BinaryPlistKinds.Value)] = [
            ("https://x/a.assetpack", .integer, .int(1)), ("http://127.0.0.1/tmp/a.assetpack", .integer, .int(1)),
            ("OnDemandResources/a.assetpack", .integer, .int(0)),
            ("http://127.0.0.1/tmp/a.assetpack", .boolean, .bool(true)),
            ("OnDemandResources/a.assetpack", .boolean, .bool(false)),
        ]
        for item in cases {
            let resource = AppleManifests.assetPackResource(
                id: "a", url: item.url, uncompressedSize: 1, priority: nil,
                contentHash: "", streamable: item.form)
            let bytes = PropertyListValue.dictionary(["resources": .array([resource])]).binaryData()
            let read = try BinaryPlistKinds.read(bytes)
            #expect(read["resources"]?.items.first?["isStreamable"] == item.kind, "\(item.url) \(item.form)")
        }
    }

    /// `--jobs` takes 1 to 256 (more threads than that only cost memory): the bounds pass, one past them is a bad
    /// command line, and a plain build, whose default is the core count held at 256, runs.
    @Test func jobsAcceptsOneToTheMaximum() throws {
        let project = try BuildCommandTests().gameProject()
        for (jobs, status) in [("0", 64), ("1", 0), ("256", 0), ("257", 64), ("-3", 64), ("x", 64)] {
            let output = try CommandRunner.run(["build", "-o", "out-\(jobs)", "--jobs", jobs], in: project.root)
            #expect(output.status == Int32(status), "--jobs \(jobs): \(output.stderr)")
        }
        #expect(try CommandRunner.run(["build", "-o", "plain"], in: project.root).status == 0)
    }
}
