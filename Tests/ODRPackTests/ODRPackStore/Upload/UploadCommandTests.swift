import Foundation
import ODRPackCore
import Testing

@testable import ODRPackStore

/// docs/store.md#upload against the App Store Connect stand-in: which packs go up, every request as Apple's
/// description allows it (the stand-in rejects anything else, and every test checks that it rejected nothing), the bytes it received
/// compared with each archive, the upload record, and the dry run.
@Suite(
    .enabled(
        if: AppStoreConnectStandIn.available,
        "python3 with cryptography (make test installs it) and Tests/AppStoreConnect/api"))
struct UploadCommandTests {
    /// Per commit event of the stand-in: asset pack id -> SHA-256 of the bytes it assembled.
    func committed(_ standIn: AppStoreConnectStandIn) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for commit in standIn.commits {
            result[commit["asset"] as? String ?? "", default: []].append(commit["sha256"] as? String ?? "")
        }
        return result
    }

    @Test func allSendsEveryArchiveOnceAsAppleDescribesIt() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let packs = try build.packs()
        #expect(packs.count == 4)
        let run = try build.upload([build.out, "--all", "--json"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        // The bytes received are each archive's, assembled from parts each sent once.
        let commits = committed(standIn)
        for pack in packs { #expect(commits[pack.id] == [pack.sha256], "\(pack.id)") }
        let document = try run.json()
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["app"] as? String == AppStoreConnectStandIn.appID)
        let listed = document["packs"] as? [[String: Any]] ?? []
        #expect(Set(listed.map { $0["assetPackId"] as? String ?? "" }) == Set(packs.map(\.id)))
        for pack in listed {
            #expect(pack["action"] as? String == "uploaded")
            #expect(pack["version"] as? String == "1")
            #expect(pack["state"] as? String == "PROCESSING")
            #expect(pack["backgroundAssetId"] is String && pack["versionId"] is String)
            let id = pack["assetPackId"] as? String ?? ""
            #expect(pack["bytes"] as? Int == packs.first { $0.id == id }?.bytes.count)
            // The file the stand-in assembled from the parts is the archive, byte for byte.
            let record = (build.record?["packs"] as? [String: Any])?[id] as? [String: Any]
            let uploadFile = record?["uploadFileId"] as? String ?? ""
            #expect(try standIn.received(uploadFile) == packs.first { $0.id == id }?.bytes)
        }
        let parts = standIn.requests.filter { $0["method"] as? String == "PUT" }
        let keys = parts.map { "\($0["uploadFile"] ?? "")/\($0["part"] ?? "")" }
        #expect(Set(keys).count == keys.count, "a part was sent twice")
        #expect(parts.count > packs.count, "the stand-in splits each archive into several operations")
        // Per pack: find, create the asset, the version, the reservation, its parts, the commit; no app lookup with
        // ASC_APP_ID; nothing else (no archive, no delete).
        let api = standIn.calls.filter { !$0.hasPrefix("PUT ") }
        // One listing for the quota before anything is sent, then one lookup per pack.
        #expect(api.filter { $0 == "GET /v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets" }.count == 5)
        #expect(api.first == "GET /v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets")
        for call in [
            "POST /v1/backgroundAssets", "POST /v1/backgroundAssetVersions", "POST /v1/backgroundAssetUploadFiles",
        ] {
            #expect(api.filter { $0 == call }.count == 4, "\(call)")
        }
        #expect(api.filter { $0.hasPrefix("PATCH /v1/backgroundAssetUploadFiles/") }.count == 4)
        #expect(api.count == 21)
        // The upload record: schemaVersion 1, keys sorted, every pack PROCESSING, no URL and no secret.
        let recordText = try build.fixture.text("out/odrpack-upload.json")
        #expect(recordText.contains("\"schemaVersion\": 1"))
        #expect(!recordText.contains("http") && !recordText.contains("Signature") && !recordText.contains("PRIVATE"))
        let entries = build.record?["packs"] as? [String: [String: Any]] ?? [:]
        #expect(Set(entries.keys) == Set(packs.map(\.id)))
        for pack in packs {
            #expect(entries[pack.id]?["archiveSha256"] as? String == pack.sha256)
            #expect(entries[pack.id]?["archiveSize"] as? Int == pack.bytes.count)
            #expect(entries[pack.id]?["state"] as? String == "PROCESSING")
        }
        let lines = recordText.split(separator: "\n").filter { $0.hasPrefix("      \"") }.map {
            String($0.drop { $0 == " " })
        }
        #expect(Array(lines.prefix(7)) == lines.prefix(7).sorted(), "record keys sorted")
    }

    @Test func textOutputAndASecondRunSendsNothing() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let first = try build.upload([build.out, "--all"], standIn)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("uploaded ") && $0.hasSuffix(", PROCESSING") && $0.contains(": version 1, ") }
                .count == 4)
        #expect(lines.contains { $0.hasPrefix("uploaded 4 packs (") })
        #expect(lines.last?.hasPrefix("quota: 4 of 100 asset pack ids after this upload (0 now), ") == true)
        let before = standIn.requests.count
        let second = try build.upload([build.out, "--all", "--json"], standIn)
        #expect(second.status == 0, "\(second.stderr)")
        // Only the quota's listing: nothing is sent again.
        #expect(
            Array(standIn.calls.dropFirst(before)) == ["GET /v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets"])
        let actions = (try second.json()["packs"] as? [[String: Any]] ?? []).map { $0["action"] as? String }
        #expect(actions == Array(repeating: "skipped", count: 4))
        // The record is no build output: verify passes with it, and build leaves it as it is.
        let record = try build.fixture.data("out/odrpack-upload.json")
        #expect(try build.fixture.run(["verify", "out"]).status == 0)
        #expect(try build.fixture.build().status == 0)
        #expect(try build.fixture.data("out/odrpack-upload.json") == record)
    }

    @Test func sinceUploadsWhatDiffListsUnderUpload() throws {
        let build = try UploadFixture()
        try FileManager.default.copyItem(atPath: build.out, toPath: build.fixture.project.path("release"))
        try build.fixture.project.file("R/Level2/scene.json", "{\"level\": 2, \"edited\": true}")
        try build.fixture.project.file("R/Shared/paddle.png", "PNG-paddle-2")
        #expect(try build.fixture.build().status == 0)
        let diff = try build.fixture.run(["diff", "release", "out", "--json"]).json()
        let expected = (diff["upload"] as? [String]) ?? []
        #expect(expected.count == 2, "level 2 alone and level1 + level 2")
        let standIn = try AppStoreConnectStandIn()
        let run = try build.upload([build.out, "--since", "release/odrpack-manifest.json", "--json"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty)
        #expect(Set(committed(standIn).keys) == Set(expected))
        let listed = (try run.json()["packs"] as? [[String: Any]] ?? []).map { $0["assetPackId"] as? String ?? "" }
        #expect(listed.sorted() == expected)
    }

    @Test func dryRunSendsOnlyGETsAndShowsTheQuota() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        // App Store Connect already has one of the build's ids (version 3 complete) and 89 the build no longer makes.
        var assets: [[String: Any]] = [
            ["assetPackIdentifier": packs[0].id, "usedBytes": 1000, "versions": ["COMPLETE", "COMPLETE", "COMPLETE"]]
        ]
        for index in 0..<89 { assets.append(["assetPackIdentifier": "old-\(index)", "usedBytes": 10]) }
        assets.append(["assetPackIdentifier": "gone", "archived": true, "usedBytes": 5])
        let standIn = try AppStoreConnectStandIn(config: ["assets": assets, "pageSize": 25])
        let run = try build.upload([build.out, "--all", "--dry-run", "--json"], standIn, app: false)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        #expect(Set(standIn.requests.map { $0["method"] as? String ?? "" }) == ["GET"])
        // Pages followed: 91 ids at 25 a page.
        #expect(standIn.calls.filter { $0.hasSuffix("/backgroundAssets") }.count == 4)
        #expect(build.record == nil, "a dry run writes no record")
        let document = try run.json()
        let listed = document["packs"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["action"] as? String } == Array(repeating: "would-upload", count: 4))
        let existing = listed.first { $0["assetPackId"] as? String == packs[0].id }
        #expect(existing?["version"] as? String == "3" && existing?["state"] as? String == "COMPLETE")
        #expect(listed.filter { $0["backgroundAssetId"] is NSNull }.count == 3)
        // Now: 90 ids, 1890 bytes. After: 93 ids; the id App Store Connect has counts the larger of its 1000 bytes and
        // the new archive, the three new ids their archives.
        let quota = document["quota"] as? [String: Any] ?? [:]
        #expect(quota["ids"] as? Int == 90 && quota["idsLimit"] as? Int == 100)
        #expect(quota["bytes"] as? Int == 1890 && quota["bytesLimit"] as? Int == 200_000_000_000)
        let newBytes = packs.dropFirst().reduce(0) { $0 + $1.bytes.count }
        let afterBytes = 890 + max(1000, packs[0].bytes.count) + newBytes
        #expect(quota["after"] as? [String: Int] == ["ids": 93, "bytes": afterBytes])
        #expect(Set(quota.keys) == ["ids", "idsLimit", "bytes", "bytesLimit", "after"])
        // 93 of 100 after the upload: past 80%; the fixture's packager is a --ba-package command of no version.
        let codes = (document["diagnostics"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(codes == ["ba-quota", "ba-packager-unknown"])
        let text = try build.upload([build.out, "--all", "--dry-run"], standIn)
        #expect(text.stdout.contains("would upload \(packs[0].id): "))
        #expect(text.stdout.contains("App Store Connect has version 3 (COMPLETE)"))
        #expect(
            text.stdout.contains(
                "quota: 93 of 100 asset pack ids after this upload (90 now), "
                    + "\(ByteCount.format(Int64(afterBytes))) of 200 GB after (1.9 KB now)"), "\(text.stdout)")
        #expect(text.stderr.contains("[ba-quota]"))
    }

    @Test func theAppIsFoundByBundleIDOrTheRunStops() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let found = try build.upload([build.out, "--all", "--dry-run", "--json"], standIn, app: false)
        #expect(found.status == 0)
        #expect(try found.json()["app"] as? String == AppStoreConnectStandIn.appID)
        let appRequest = standIn.requests.first { $0["path"] as? String == "/v1/apps" }
        #expect((appRequest?["query"] as? [String: String])?["filter[bundleId]"] == "com.example.bamboo")
        let other = try AppStoreConnectStandIn(config: ["apps": [["id": "42", "bundleId": "com.example.other"]]])
        let missing = try build.upload([build.out, "--all"], other, app: false)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no app with bundle id 'com.example.bamboo'"))
        #expect(!other.calls.contains { !$0.hasPrefix("GET ") })
    }

    @Test func anIndividualKeysTokenHasNoIssuer() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(individual: true)
        let run = try build.upload([build.out, "--all", "--dry-run"], standIn, environment: ["ASC_ISSUER_ID": ""])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        #expect(standIn.requests.count == 1)
    }

    @Test func anArchivedIDStopsTheRun() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let standIn = try AppStoreConnectStandIn(config: [
            "assets": [["assetPackIdentifier": packs[0].id, "archived": true]]
        ])
        let run = try build.upload([build.out, "--all", "--jobs", "1", "--github"], standIn)
        #expect(run.status == 2)
        #expect(run.stderr.contains("pack '\(packs[0].id)'") && run.stderr.contains("archived"))
        #expect(run.stdout.hasPrefix("::error title=odrpack upload::pack '\(packs[0].id)': App Store Connect has"))
        #expect(!standIn.calls.contains("POST /v1/backgroundAssets"))
        #expect(standIn.rejected.isEmpty)
    }

    /// A real upload stops at an archived id (exit 2); a dry run reports it with what App Store Connect has, goes on
    /// to the other packs and the quota, and ends with exit 1 (docs/store.md#upload).
    @Test func aDryRunReportsAnArchivedIDAndExits1() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let standIn = try AppStoreConnectStandIn(config: [
            "assets": [
                [
                    "assetPackIdentifier": packs[0].id, "archived": true, "usedBytes": 7,
                    "versions": ["COMPLETE", "FAILED"],
                ]
            ]
        ])
        let run = try build.upload([build.out, "--all", "--dry-run", "--json"], standIn)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        #expect(Set(standIn.requests.map { $0["method"] as? String ?? "" }) == ["GET"])
        let document = try run.json()
        let listed = document["packs"] as? [[String: Any]] ?? []
        let archived = listed.first { $0["assetPackId"] as? String == packs[0].id }
        #expect(archived?["action"] as? String == "would-fail" && archived?["archived"] as? Bool == true)
        #expect(archived?["version"] as? String == "2" && archived?["state"] as? String == "FAILED")
        #expect(archived?["backgroundAssetId"] is String)
        let others = listed.filter { $0["assetPackId"] as? String != packs[0].id }
        #expect(others.count == 3 && others.allSatisfy { $0["action"] as? String == "would-upload" })
        #expect(others.allSatisfy { $0["archived"] is NSNull })
        let diagnostics = document["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["code"] as? String } == ["ba-id-archived", "ba-packager-unknown"])
        #expect(diagnostics.first?["severity"] as? String == "error")
        // The archived id does not count against the quota.
        let quota = document["quota"] as? [String: Any] ?? [:]
        #expect(quota["ids"] as? Int == 0 && quota["bytes"] as? Int == 0)
        let text = try build.upload([build.out, "--all", "--dry-run", "--jobs", "1"], standIn)
        #expect(text.status == 1)
        #expect(
            text.stdout.contains(
                "would fail \(packs[0].id): \(ByteCount.format(Int64(packs[0].bytes.count))), App Store Connect has version 2 (FAILED), archived: "
                    + "upload would stop here\n"), "\(text.stdout)")
        #expect(text.stdout.contains(", 1 would fail (archived id) to app \(AppStoreConnectStandIn.appID)\n"))
        #expect(text.stdout.contains("quota: 3 of 100 asset pack ids after this upload (0 now), "))
        #expect(text.stderr.contains("error: pack '\(packs[0].id)': App Store Connect has this asset pack id archived"))
        #expect(text.stderr.contains("[ba-id-archived]"))
        // A real upload of it is still exit 2.
        #expect(try build.upload([build.out, "--all", "--jobs", "1"], standIn).status == 2)
    }

    /// Upload draws the one bar too: `--progress always` off a terminal prints its lines, ending with every pack and
    /// every byte sent; none by default, none with never.
    @Test func uploadProgressCountsPacksAndBytesSent() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let total = packs.reduce(Int64(0)) { $0 + Int64($1.bytes.count) }
        let standIn = try AppStoreConnectStandIn()
        let run = try build.upload([build.out, "--all", "--progress", "always"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            ProgressTests.progressLines(run.stderr).last?.hasPrefix(ProgressTests.whole(4, "packs", bytes: total))
                == true, "\(run.stderr)")
        #expect(!run.stdout.contains("s left"))
        let never = try build.upload([build.out, "--all", "--progress", "never"], AppStoreConnectStandIn())
        #expect(never.status == 0 && ProgressTests.progressLines(never.stderr).isEmpty)
    }

    /// `--wait`'s polls in-process (their waits on a FakeUploadClock, checked to the second), one pack at a time:
    /// every 5 s doubling until COMPLETE; FAILED with its stateDetails; the limit reached while PROCESSING.
    @Test func waitPollsUntilCompleteOrReportsFailure() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: ["processing": ["result": "COMPLETE", "polls": 3]])
        let clock = FakeUploadClock()
        let done = build.uploadInProcess(standIn, clock: clock, wait: 100_000)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.outcome?.packs.map(\.state) == Array(repeating: VersionState.complete, count: 4))
        #expect(standIn.calls.filter { $0.hasPrefix("GET /v1/backgroundAssetVersions/") }.count == 12)
        #expect(clock.sleeps == Array(repeating: [5, 10, 20].map { Duration.seconds($0) }, count: 4).flatMap { $0 })
        #expect(standIn.rejected.isEmpty)

        let failing = try UploadFixture()
        let failed = try AppStoreConnectStandIn(config: ["processing": ["result": "FAILED", "polls": 1]])
        let run = failing.uploadInProcess(failed, clock: FakeUploadClock(), wait: UploadOptions.defaultWaitSeconds)
        #expect(run.status == 1)
        #expect(run.stdout.contains(", FAILED"))
        #expect(run.stderr.contains("STANDIN.INVALID_ARCHIVE: the archive is not an Apple Archive"))

        let slow = try UploadFixture()
        let processing = try AppStoreConnectStandIn(config: ["processing": ["result": "COMPLETE", "polls": 100_000]])
        let limited = FakeUploadClock()
        let timedOut = slow.uploadInProcess(processing, clock: limited, wait: 20)
        #expect(timedOut.status == 1)
        #expect(timedOut.stderr.contains("still PROCESSING after 20 s"))
        // 5, then 10, then what is left of the 20 s; then the limit.
        #expect(limited.sleeps == Array(repeating: [5, 10, 5].map { Duration.seconds($0) }, count: 4).flatMap { $0 })
    }

    /// The binary's `--wait SECONDS` (`@Option(defaultAsFlag:)`): the number right after it is the limit (0: one
    /// poll, no wait), a build folder after a bare `--wait` is the build folder, and a negative limit is exit 64; the
    /// help shows the default a bare `--wait` takes.
    @Test func waitTakesItsSecondsOnTheCommandLine() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: ["processing": ["result": "COMPLETE", "polls": 1]])
        let done = try build.upload(["--wait", "0", build.out, "--all", "--json"], standIn)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(
            (try done.json()["packs"] as? [[String: Any]] ?? []).map { $0["state"] as? String }
                == Array(
                    repeating: "COMPLETE", count: 4))
        let still = try AppStoreConnectStandIn(config: ["processing": ["result": "COMPLETE", "polls": 2]])
        let other = try UploadFixture()
        let limit = try other.upload([other.out, "--all", "--wait=0"], still)
        #expect(limit.status == 1)
        #expect(limit.stderr.contains("still PROCESSING after 0 s"), "\(limit.stderr)")
        // A bare --wait before the build folder leaves it the build folder (here the run stops at --jobs 0).
        let bare = try build.upload(["--wait", build.out, "--all", "--jobs", "0"], standIn)
        #expect(bare.status == 64 && bare.stderr.contains("--jobs must be at least 1"), "\(bare.stderr)")
        let negative = try build.upload([build.out, "--all", "--wait=-5"], standIn)
        #expect(negative.status == 64, "\(negative.stderr)")
        let help = try CommandRunner.run(["upload", "--help"])
        #expect(
            help.stdout.contains("--wait [<seconds>]") && help.stdout.contains("default as flag: 1800"),
            "\(help.stdout)")
    }

    @Test func aKilledRunResumedSendsNothingTwice() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        // One pack a time; the second pack's second part never gets an answer, and the run is killed there.
        let firstParts = (packs[0].bytes.count + 99) / 100
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [["method": "PUT", "path": "^/upload/", "skip": firstParts + 1, "times": 1, "kind": "hang"]]
        ])
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["upload", build.out, "--all", "--jobs", "1"]
        process.currentDirectoryURL = build.root
        process.environment = ProcessInfo.processInfo.environment.merging(standIn.environment()) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(standIn.waitFor { $0["event"] as? String == "hang" })
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let entries = build.record?["packs"] as? [String: [String: Any]] ?? [:]
        #expect(entries[packs[0].id]?["state"] as? String == "PROCESSING")
        #expect(entries[packs[1].id]?["state"] as? String == "AWAITING_UPLOAD")
        #expect(entries[packs[1].id]?["uploadFileId"] is String)
        let killedAt = standIn.requests.count

        let resumed = try build.upload([build.out, "--all", "--jobs", "1", "--json"], standIn)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        let actions = (try resumed.json()["packs"] as? [[String: Any]] ?? []).map { $0["action"] as? String }
        #expect(actions == ["skipped", "uploaded", "uploaded", "uploaded"])
        // Each pack committed once, from its archive's bytes; one version each: the stopped one was reused.
        let commits = committed(standIn)
        for pack in packs { #expect(commits[pack.id] == [pack.sha256], "\(pack.id)") }
        #expect(standIn.calls.filter { $0 == "POST /v1/backgroundAssetVersions" }.count == 4)
        #expect(standIn.calls.filter { $0 == "POST /v1/backgroundAssetUploadFiles" }.count == 4)
        let after = Array(standIn.calls.dropFirst(killedAt))
        #expect(
            after.contains(
                "GET /v1/backgroundAssetUploadFiles/\(entries[packs[1].id]?["uploadFileId"] as? String ?? "")"))
        // Nothing of the first pack again.
        let firstFile = entries[packs[0].id]?["uploadFileId"] as? String ?? ""
        #expect(!after.contains { $0.contains("/\(firstFile)") })
    }
}
