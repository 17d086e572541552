import Foundation
import ODRPackCore
import ODRPackPlatform
import Testing

@testable import ODRPackStore

/// docs/store.md#submit and docs/store.md#status against the App Store Connect stand-in (one for the suite, reset
/// before each test): every request as Apple's description allows it (the stand-in rejects anything else).
@Suite(
    .serialized,
    .enabled(
        if: AppStoreConnectStandIn.available,
        "python3 with cryptography (make test installs it) and Tests/AppStoreConnect/api"))
struct SubmitCommandTests {
    nonisolated(unsafe) static let shared = try? AppStoreConnectStandIn()

    func fresh(_ config: [String: Any] = [:]) throws -> AppStoreConnectStandIn {
        let standIn = try #require(Self.shared)
        try standIn.reset(config: config)
        return standIn
    }

    /// A build for iOS and tvOS whose last pack is for tvOS only (as App Store Connect derives it too), uploaded and
    /// processed.
    func uploaded(_ standIn: AppStoreConnectStandIn, config: [String: Any] = [:]) throws -> (
        UploadFixture, [(id: String, bytes: Data, sha256: String)]
    ) {
        let build = try UploadFixture(background: "background-assets: {platforms: [iOS, tvOS]}")
        let packs = try build.packs()
        try build.editPack(packs[3].id, ["platforms": ["tvOS"]])
        var steering = config
        steering["derived"] = [packs[3].id: ["platforms": ["TV_OS"]]]
        try standIn.configure(steering)
        let run = try build.upload([build.out, "--all", "--wait", "0"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        return (build, packs)
    }

    func submit(_ build: UploadFixture, _ standIn: AppStoreConnectStandIn, _ arguments: [String] = [])
        throws -> CommandRunner.Output
    {
        defer { standIn.settle() }
        return try CommandRunner.run(
            ["submit", build.out] + arguments, in: build.root, environment: standIn.environment())
    }

    /// The requests that reached the stand-in from `mark` on (by their time: on a busy machine the stand-in can log
    /// the last answers of a command after it has exited).
    func requests(_ standIn: AppStoreConnectStandIn, after mark: Double) -> [[String: Any]] {
        standIn.requests.filter { ($0["time"] as? Double ?? 0) >= mark }
    }

    func items(_ document: [String: Any]) -> [[String: Any]] {
        (document["submissions"] as? [[String: Any]] ?? []).flatMap { $0["items"] as? [[String: Any]] ?? [] }
    }

    @Test func oneSubmissionPerPlatformEachVersionOnceAndASecondRunSendsNothing() throws {
        let standIn = try fresh()
        let (build, packs) = try uploaded(standIn)
        let start = Date().timeIntervalSince1970

        // The dry run: GETs only, what would be submitted, per platform (the tvOS-only pack in the tvOS one).
        let dry = try submit(build, standIn, ["--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(Set(requests(standIn, after: start).map { $0["method"] as? String ?? "" }) == ["GET"])
        let planned = try dry.json()
        let plannedSubmissions = planned["submissions"] as? [[String: Any]] ?? []
        #expect(plannedSubmissions.map { $0["platform"] as? String } == ["IOS", "TV_OS"])
        #expect(plannedSubmissions.allSatisfy { $0["id"] is NSNull })
        #expect(items(planned).map { $0["action"] as? String } == Array(repeating: "would-submit", count: 4))
        #expect(
            (plannedSubmissions.last?["items"] as? [[String: Any]])?.map { $0["assetPackId"] as? String }
                == [packs[3].id])

        let afterDry = Date().timeIntervalSince1970
        let run = try submit(build, standIn, ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        let calls = requests(standIn, after: afterDry).map {
            "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "")"
        }
        #expect(calls.filter { $0 == "POST /v1/reviewSubmissions" }.count == 2)
        #expect(calls.filter { $0 == "POST /v1/reviewSubmissionItems" }.count == 4)
        #expect(calls.filter { $0.hasPrefix("PATCH /v1/reviewSubmissions/") }.count == 2)
        let open = standIn.requests.first {
            $0["path"] as? String == "/v1/apps/\(AppStoreConnectStandIn.appID)/reviewSubmissions"
        }
        let query = open?["query"] as? [String: String] ?? [:]
        #expect(query["filter[platform]"] == "IOS" && query["filter[state]"] == "READY_FOR_REVIEW")
        let patch =
            standIn.requests.first {
                $0["method"] as? String == "PATCH" && ($0["path"] as? String ?? "").hasPrefix("/v1/reviewSubmissions/")
            }?["body"] as? [String: Any]
        #expect(((patch?["data"] as? [String: Any])?["attributes"] as? [String: Bool]) == ["submitted": true])

        let document = try run.json()
        #expect(document["app"] as? String == AppStoreConnectStandIn.appID)
        let submissions = document["submissions"] as? [[String: Any]] ?? []
        #expect(submissions.map { $0["platform"] as? String } == ["IOS", "TV_OS"])
        #expect(submissions.allSatisfy { $0["state"] as? String == "WAITING_FOR_REVIEW" && $0["id"] is String })
        #expect(Set(submissions.first?.keys.map { $0 } ?? []) == ["id", "platform", "state", "items"])
        let listed = items(document)
        #expect(listed.map { $0["action"] as? String } == Array(repeating: "submitted", count: 4))
        #expect(Set(listed.first?.keys.map { $0 } ?? []) == ["assetPackId", "versionId", "itemId", "action"])
        let entries = build.record?["packs"] as? [String: [String: Any]] ?? [:]
        for item in listed {
            let entry = entries[item["assetPackId"] as? String ?? ""]
            #expect(entry?["reviewSubmissionItemId"] as? String == item["itemId"] as? String)
            #expect(entry?["reviewSubmissionState"] as? String == "WAITING_FOR_REVIEW")
            #expect(entry?["versionId"] as? String == item["versionId"] as? String)
        }

        // Again: nothing sent, every version already submitted.
        let before = Date().timeIntervalSince1970
        let again = try submit(build, standIn, ["--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Set(requests(standIn, after: before).map { $0["method"] as? String ?? "" }) == ["GET"])
        #expect(
            items(try again.json()).map { $0["action"] as? String } == Array(repeating: "already-submitted", count: 4))
        let text = try submit(build, standIn)
        #expect(
            text.stdout.contains("already submitted \(packs[0].id): version 1, review submission "), "\(text.stdout)")
        #expect(standIn.log.filter { $0["event"] as? String == "item" }.count == 4)
    }

    /// A run killed between steps (after the submission and one item), then one that fails on the server (409 on the
    /// submit): the next run adds the missing items and submits once; no version is added twice.
    @Test func aKillOrAFailureBetweenStepsSendsNothingTwice() throws {
        let standIn = try fresh()
        let (build, _) = try uploaded(standIn)
        try standIn.configure([
            "derived": standIn.currentConfig["derived"] ?? [:],
            "faults": [
                ["method": "POST", "path": "^/v1/reviewSubmissionItems$", "skip": 1, "kind": "hang", "seconds": 4]
            ],
        ])
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["submit", build.out]
        process.currentDirectoryURL = build.root
        process.environment = ProcessInfo.processInfo.environment.merging(standIn.environment()) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        #expect(standIn.waitFor { $0["event"] as? String == "hang" })
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let recorded = (build.record?["packs"] as? [String: [String: Any]] ?? [:]).values.filter {
            $0["reviewSubmissionItemId"] is String
        }
        #expect(recorded.count == 1, "the first item is recorded before the second is sent")
        // A dry run now: the open iOS submission (the killed run's) with its one item, two more to add; tvOS's new.
        let dry = try submit(build, standIn, ["--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let planned = try dry.json()["submissions"] as? [[String: Any]] ?? []
        #expect(planned.map { $0["platform"] as? String } == ["IOS", "TV_OS"])
        #expect(planned.first?["id"] is String && planned.first?["state"] as? String == "READY_FOR_REVIEW")
        #expect(
            (planned.first?["items"] as? [[String: Any]])?.map { $0["action"] as? String }
                == ["already-submitted", "would-submit", "would-submit"])
        #expect(planned.last?["id"] is NSNull)

        try standIn.configure([
            "derived": standIn.currentConfig["derived"] ?? [:],
            "faults": [
                [
                    "method": "PATCH", "path": "^/v1/reviewSubmissions/", "kind": "status", "status": 409,
                    "code": "ENTITY_ERROR.STATE",
                ]
            ],
        ])
        let failed = try submit(build, standIn)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(
            failed.stderr.contains("PATCH \(standIn.base)/v1/reviewSubmissions/")
                && failed.stderr.contains("answered 409: ENTITY_ERROR.STATE"), "\(failed.stderr)")

        try standIn.configure(["derived": standIn.currentConfig["derived"] ?? [:]])
        let resumed = try submit(build, standIn, ["--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(standIn.rejected.filter { !$0.contains("injected") }.isEmpty, "\(standIn.rejected)")
        // Each version is in one item; one submission per platform; each submitted.
        let added = standIn.log.filter { $0["event"] as? String == "item" }.compactMap { $0["version"] as? String }
        #expect(added.count == 4 && Set(added).count == 4, "\(added)")
        #expect(standIn.calls.filter { $0 == "POST /v1/reviewSubmissions" }.count == 2)
        #expect(standIn.log.filter { $0["event"] as? String == "submitted" }.count == 2)
        let actions = items(try resumed.json()).map { $0["action"] as? String ?? "" }
        // iOS: the three versions the stopped runs added, now submitted; tvOS: its version added and submitted.
        #expect(actions == ["already-submitted", "already-submitted", "already-submitted", "submitted"], "\(actions)")
    }

    /// No recorded version: `ba-not-uploaded`, exit 2 before any request. A version still processing: exit 2 naming
    /// it, nothing submitted.
    @Test func notUploadedOrNotCompleteStopsBeforeAnyChange() throws {
        let standIn = try fresh(["processing": ["result": "COMPLETE", "polls": 100]])
        let build = try UploadFixture()
        let none = try submit(build, standIn, ["--json"])
        #expect(none.status == 2, "\(none.stderr)")
        let codes = (try none.json()["diagnostics"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(codes == Array(repeating: "ba-not-uploaded", count: 4))
        #expect(standIn.requests.isEmpty)
        let annotated = try submit(build, standIn, ["--github"])
        #expect(annotated.status == 2)
        #expect(
            annotated.stdout.contains("::error") && annotated.stdout.contains("ba-not-uploaded"), "\(annotated.stdout)")
        // No key id: exit 64 before anything else, as upload.
        let keyless = try CommandRunner.run(
            ["submit", build.out], in: build.root,
            environment: standIn.environment().merging(["ASC_KEY_ID": ""]) { $1 })
        #expect(keyless.status == 64 && keyless.stderr.contains("no API key id"), "\(keyless.stderr)")
        let platform = try submit(build, standIn, ["--platform", "visionOS"])
        #expect(platform.status == 64, "\(platform.stderr)")
        #expect(platform.stderr.contains("--platform 'visionOS' is not a platform of this build: give one of iOS"))
        #expect(standIn.requests.isEmpty)

        #expect(try build.upload([build.out, "--all"], standIn).status == 0)
        let before = Date().timeIntervalSince1970
        let processing = try submit(build, standIn, ["--github"])
        #expect(processing.status == 2)
        #expect(processing.stderr.contains("version 1 is PROCESSING"), "\(processing.stderr)")
        #expect(processing.stderr.contains("not COMPLETE"))
        // The failure is an annotation GitHub reads: a line that starts with the workflow command, not one defanged
        // as a name that merely starts with `::` would be.
        #expect(processing.stdout.hasPrefix("::error title=odrpack submit::"), "\(processing.stdout)")
        #expect(Set(requests(standIn, after: before).map { $0["method"] as? String ?? "" }) == ["GET"])
    }

    /// `--wait`: App Review's decision, approved (exit 0) or unresolved (exit 1 with each item's state); then
    /// `status --until approved` sees every pack's App Store release.
    @Test func waitFollowsTheReviewAndStatusSeesTheRelease() throws {
        let standIn = try fresh()
        let (build, packs) = try uploaded(standIn, config: ["review": ["polls": 1, "result": "COMPLETE"]])
        // Processed: testable in TestFlight (internal beta) before any review.
        let testable = try CommandRunner.run(
            ["status", build.out, "--until", "testable"], in: build.root, environment: standIn.environment())
        #expect(testable.status == 0, "\(testable.stderr)")
        #expect(testable.stdout.contains("READY_FOR_TESTING  PREPARE_FOR_SUBMISSION"), "\(testable.stdout)")
        let run = try submit(build, standIn, ["--wait", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let submissions = try run.json()["submissions"] as? [[String: Any]] ?? []
        #expect(submissions.map { $0["state"] as? String } == ["COMPLETE", "COMPLETE"])
        let entries = build.record?["packs"] as? [String: [String: Any]] ?? [:]
        #expect(entries.values.allSatisfy { $0["reviewSubmissionState"] as? String == "COMPLETE" })

        let before = Date().timeIntervalSince1970
        let status = try CommandRunner.run(
            ["status", build.out, "--until", "approved", "--json"], in: build.root, environment: standIn.environment())
        standIn.settle()
        #expect(status.status == 0, "\(status.stderr)")
        #expect(Set(requests(standIn, after: before).map { $0["method"] as? String ?? "" }) == ["GET"])
        let rows = try status.json()["packs"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["assetPackId"] as? String } == packs.map(\.id))
        for row in rows {
            #expect(row["version"] as? String == "1" && row["state"] as? String == "COMPLETE")
            #expect(row["internalBeta"] as? String == "READY_FOR_TESTING")
            #expect(row["appStore"] as? String == "READY_FOR_DISTRIBUTION")
            #expect(row["locale"] is NSNull && row["current"] as? Bool == true)
            #expect(
                Set(row.keys) == [
                    "assetPackId", "version", "state", "internalBeta", "appStore", "locale", "platforms", "current",
                ])
        }
        #expect(rows.last?["platforms"] as? [String] == ["TV_OS"])
        #expect(rows.first?["platforms"] as? [String] == ["IOS", "TV_OS"])
        let table = try CommandRunner.run(["status", build.out], in: build.root, environment: standIn.environment())
        #expect(table.stdout.hasPrefix("ASSET PACK ID"), "\(table.stdout)")
        #expect(table.stdout.contains("READY_FOR_DISTRIBUTION"))

        // A rejection: the next build's versions come back UNRESOLVED_ISSUES.
        let rejected = try fresh(["review": ["polls": 1, "result": "UNRESOLVED_ISSUES"]])
        let (other, _) = try uploaded(rejected, config: ["review": ["polls": 1, "result": "UNRESOLVED_ISSUES"]])
        let refused = try submit(other, rejected, ["--wait"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("is UNRESOLVED_ISSUES: ") && refused.stderr.contains(" REJECTED"),
            "\(refused.stderr)")
        let after = try CommandRunner.run(
            ["status", other.out, "--json"], in: other.root, environment: rejected.environment())
        #expect(after.status == 1)
        #expect(
            (try after.json()["packs"] as? [[String: Any]] ?? []).allSatisfy { $0["appStore"] as? String == "REJECTED" }
        )
        // --until approved stops at once on a rejection (exit 1), long before its time-out.
        let until = try CommandRunner.run(
            ["status", other.out, "--until", "approved", "--timeout", "600"], in: other.root,
            environment: rejected.environment())
        #expect(until.status == 1)
        #expect(until.stderr.contains("REJECTED by App Review"), "\(until.stderr)")
    }

    /// `status` without a record shows each id's latest version, never current (exit 1); a derived language the pack
    /// does not have is `asc-pack-mismatch`.
    @Test func statusWithoutARecordAndAMismatch() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let standIn = try fresh([
            "assets": [["assetPackIdentifier": packs[0].id, "versions": ["COMPLETE", "COMPLETE"], "locale": "fr"]]
        ])
        let run = try CommandRunner.run(
            ["status", build.out, "--json"], in: build.root, environment: standIn.environment())
        #expect(run.status == 1, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        let document = try run.json()
        let rows = document["packs"] as? [[String: Any]] ?? []
        #expect(rows.first?["version"] as? String == "2" && rows.first?["locale"] as? String == "fr")
        #expect(rows.dropFirst().allSatisfy { $0["version"] is NSNull && $0["state"] is NSNull })
        #expect(rows.allSatisfy { $0["current"] as? Bool == false })
        let diagnostics = document["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["code"] as? String } == ["asc-pack-mismatch"])
        #expect(diagnostics.first?["subject"] as? String == packs[0].id)
    }

    /// `submit --wait` in-process: the submission read at once, then after 5 and 10 s (a FakeUploadClock's waits),
    /// until App Review's decision; `--verbose` shows each request.
    @Test func submitWaitPollsFromFiveSeconds() throws {
        let standIn = try fresh(["review": ["polls": 3, "result": "COMPLETE"]])
        let build = try UploadFixture()
        #expect(try build.upload([build.out, "--all", "--wait", "0"], standIn).status == 0)
        var options = StoreOptions(buildPath: build.out, environment: standIn.environment())
        options.waitSeconds = 100
        let clock = FakeUploadClock()
        options.connection.clock = clock
        let lines = Locked<[String]>([])
        options.connection.verbose = { line in lines.withLock { $0.append(line) } }
        let outcome = try ReviewSubmit.run(options)
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(clock.sleeps == [5, 10].map { Duration.seconds($0) })
        #expect(outcome.submissions.map(\.state) == ["COMPLETE"])
        #expect(outcome.submissions.first?.items.map(\.state) == Array(repeating: "APPROVED", count: 4))
        let sent = lines.withLock { $0 }
        #expect(sent.filter { $0.hasPrefix("> GET /v1/reviewSubmissions/") && !$0.hasSuffix("/items") }.count == 3)
        #expect(sent.contains { $0.hasPrefix("< 201 POST /v1/reviewSubmissions (") }, "\(sent)")
    }

    /// `--until`'s polls in-process (their waits on a FakeUploadClock): 5 s growing, up to `--timeout`, then exit 1;
    /// `submit --wait` polls the same way.
    @Test func untilPollsUntilTheTimeout() throws {
        let standIn = try fresh(["processing": ["result": "COMPLETE", "polls": 100_000]])
        let build = try UploadFixture()
        #expect(try build.upload([build.out, "--all"], standIn).status == 0)
        var options = StoreOptions(buildPath: build.out, environment: standIn.environment())
        options.until = .complete
        options.timeoutSeconds = 20
        let clock = FakeUploadClock()
        options.connection.clock = clock
        let outcome = try StoreStatus.run(options)
        #expect(!outcome.passed)
        #expect(
            outcome.failures.first?.hasPrefix("not every pack is complete after 20 s: ") == true, "\(outcome.failures)")
        #expect(clock.sleeps == [5, 10, 5].map { Duration.seconds($0) })
        #expect(outcome.packs.allSatisfy { $0.state == .processing && $0.current })
    }
}
