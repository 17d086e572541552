import Foundation
import Testing

/// docs/store.md#upload's failures against the stand-in, each injected on demand: what is retried (and how often),
/// what gets a new token or a new reservation, and what stops the run with exit 2 naming the pack, the request and App Store
/// Connect's error. A run that waits between retries runs in-process (`uploadInProcess`: libcurl against the stand-in,
/// a FakeUploadClock in place of the system's), so its waits take no time and are checked to the second.
@Suite(
    .enabled(
        if: AppStoreConnectStandIn.available,
        "python3 with cryptography (make test installs it) and Tests/AppStoreConnect/api"))
struct UploadFailureTests {
    @Test func transientFailuresAreRetriedAndAFailedPartIsSentAgainAlone() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [
                [
                    "method": "POST", "path": "^/v1/backgroundAssetVersions$", "kind": "status", "status": 429,
                    "retryAfter": "2",
                ],
                ["method": "PUT", "path": "^/upload/", "skip": 1, "times": 2, "kind": "status", "status": 503],
                ["method": "PUT", "path": "^/upload/", "skip": 5, "kind": "drop"],
                ["method": "PATCH", "kind": "status", "status": 500],
                ["method": "POST", "path": "^/v1/backgroundAssetUploadFiles$", "kind": "status", "status": 502],
                ["method": "POST", "path": "^/v1/backgroundAssets$", "kind": "status", "status": 504],
                ["method": "GET", "path": "/backgroundAssets$", "kind": "status", "status": 401],
                ["method": "GET", "path": "/backgroundAssets$", "skip": 2, "kind": "sleep", "seconds": 3],
            ]
        ])
        let clock = FakeUploadClock()
        let run = build.uploadInProcess(standIn, clock: clock, environment: ["ODRPACK_ASC_TIMEOUT": "1"])
        #expect(run.status == 0, "\(run.stderr)")
        // Retry-After 2 on the 429; 1 and 2 s for the part answered 503 twice; 1 s for each other failure: the dropped
        // part, the 500, 502 and 504, and the time-out. The 401 is sent again at once.
        #expect(clock.sleeps.sorted() == [1, 1, 1, 1, 1, 1, 2, 2].map { Duration.seconds($0) }, "\(clock.sleeps)")
        #expect(standIn.rejected.filter { !$0.contains("injected") }.isEmpty, "\(standIn.rejected)")
        for pack in packs {
            #expect(
                standIn.commits.filter { $0["asset"] as? String == pack.id }.map { $0["sha256"] as? String } == [
                    pack.sha256
                ])
        }
        let calls = standIn.calls
        #expect(calls.filter { $0 == "POST /v1/backgroundAssetVersions" }.count == 5, "one 429, then four")
        #expect(calls.filter { $0 == "POST /v1/backgroundAssetUploadFiles" }.count == 5)
        #expect(calls.filter { $0 == "POST /v1/backgroundAssets" }.count == 5)
        #expect(calls.filter { $0.hasPrefix("PATCH ") }.count == 5)
        // The 401: the same request again once, with another token.
        // The timed-out request is logged once the stand-in's sleep ends.
        #expect(standIn.waitFor { $0["fault"] as? String == "sleep" })
        let lookups = standIn.requests.filter {
            $0["method"] as? String == "GET" && ($0["path"] as? String ?? "").hasSuffix("/backgroundAssets")
        }
        #expect(
            lookups.count == 7,
            "the quota's listing, four packs, the 401 and the time-out each sent again: \(lookups.map { $0["status"] ?? "" })"
        )
        #expect(lookups.map { $0["status"] as? Int }.filter { $0 == 401 }.count == 1)
        #expect(lookups[0]["status"] as? Int == 401 && lookups[1]["status"] as? Int == 200)
        #expect(lookups[0]["token"] as? String != lookups[1]["token"] as? String)
        // Parts: the one answered 503 twice and the dropped one were sent again, alone, until accepted; every other
        // part once.
        let parts = standIn.requests.filter { $0["method"] as? String == "PUT" }
        var sends: [String: [Int]] = [:]
        var faulted: Set<String> = []
        for part in parts {
            let key = "\(part["uploadFile"] ?? "")/\(part["part"] ?? "")"
            sends[key, default: []].append(part["status"] as? Int ?? -1)
            if part["fault"] != nil { faulted.insert(key) }
        }
        #expect(faulted.count == 2)
        for (key, statuses) in sends {
            #expect(statuses.last == 200, "\(key): \(statuses)")
            #expect(faulted.contains(key) ? statuses.count >= 2 : statuses.count == 1, "\(key): \(statuses)")
        }
        #expect(sends[faulted.sorted().first ?? ""]?.count ?? 0 <= 6)
    }

    @Test func fiveRetriesThenExit2NamingTheRequest() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [
                [
                    "method": "POST", "path": "^/v1/backgroundAssetVersions$", "times": 100, "kind": "status",
                    "status": 503,
                ]
            ]
        ])
        let clock = FakeUploadClock()
        let run = build.uploadInProcess(standIn, clock: clock)
        #expect(run.status == 2)
        #expect(
            standIn.calls.filter { $0 == "POST /v1/backgroundAssetVersions" }.count == 6, "the request and 5 retries")
        #expect(clock.sleeps == [1, 2, 4, 8, 16].map { Duration.seconds($0) })
        let id = try build.packs()[0].id
        #expect(run.stderr.contains("pack '\(id)': POST /v1/backgroundAssetVersions failed 6 times (last: 503)"))
        // What was done is in the record: the background asset exists, no version yet.
        let entry = (build.record?["packs"] as? [String: [String: Any]])?[id]
        #expect(entry?["backgroundAssetId"] is String && entry?["versionId"] is NSNull)
    }

    @Test func anotherErrorIsExit2WithAppStoreConnectsCodeAndNoPresignedQuery() throws {
        let build = try UploadFixture()
        let id = try build.packs()[0].id
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [
                [
                    "method": "POST", "path": "^/v1/backgroundAssetUploadFiles$", "kind": "status", "status": 409,
                    "code": "ENTITY_ERROR.ATTRIBUTE.INVALID",
                ]
            ]
        ])
        let run = try build.upload([build.out, "--all", "--jobs", "1"], standIn)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "pack '\(id)': POST /v1/backgroundAssetUploadFiles answered 409: ENTITY_ERROR.ATTRIBUTE.INVALID: injected by the stand-in"
            ), "\(run.stderr)")

        let parts = try UploadFixture()
        let partFailing = try AppStoreConnectStandIn(config: [
            "faults": [["method": "PUT", "kind": "status", "status": 400, "code": "BadDigest"]]
        ])
        let part = try parts.upload([parts.out, "--all", "--jobs", "1"], partFailing)
        #expect(part.status == 2)
        #expect(part.stderr.contains("PUT http://127.0.0.1:\(partFailing.port)/upload/"))
        #expect(part.stderr.contains("answered 400: BadDigest"))
        #expect(!part.stderr.contains("Signature") && !part.stderr.contains("?"))
    }

    @Test func anExpiredUploadURLGetsANewReservation() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [["method": "POST", "path": "^/v1/backgroundAssetUploadFiles$", "kind": "expire"]]
        ])
        let run = try build.upload([build.out, "--all", "--jobs", "1"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        let reservations = standIn.requests.filter { $0["path"] as? String == "/v1/backgroundAssetUploadFiles" }
        #expect(reservations.count == 5)
        // Nothing was sent to the expired URLs: every PUT went to a reservation that was committed.
        let committedFiles = Set(standIn.commits.map { $0["uploadFile"] as? String ?? "" })
        #expect(
            standIn.requests.filter { $0["method"] as? String == "PUT" }.allSatisfy {
                committedFiles.contains($0["uploadFile"] as? String ?? "")
            })
        for pack in packs {
            #expect(
                standIn.commits.filter { $0["asset"] as? String == pack.id }.map { $0["sha256"] as? String } == [
                    pack.sha256
                ])
        }
    }
}
