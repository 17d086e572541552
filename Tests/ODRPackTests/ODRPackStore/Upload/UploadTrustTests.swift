import Foundation
import Testing

/// docs/store.md#trust-boundaries end to end, over libcurl against the stand-in (a run that waits between retries
/// in-process, its waits on a FakeUploadClock): redirects never followed with the token and never counted as a sent part, the key's text in no output, memory that does not grow with what the
/// server sends or with the archive, the Apple Archive signature, libcurl loaded only by upload, and the dry run's
/// quota, order and `archived`.
@Suite(
    .enabled(
        if: AppStoreConnectStandIn.available,
        "python3 with cryptography (make test installs it) and Tests/AppStoreConnect/api"), .tags(.memory))
struct UploadTrustTests {
    /// The API requests a redirect is injected on, one per method `upload` sends.
    static let apiRequests = [
        // The quota's listing is the first request (pack-less: named by its whole URL).
        ("GET", "/backgroundAssets$", "/v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets answered"),
        ("POST", "^/v1/backgroundAssetVersions$", "POST /v1/backgroundAssetVersions"),
        ("PATCH", "^/v1/backgroundAssetUploadFiles/", "PATCH /v1/backgroundAssetUploadFiles/"),
    ]

    static func forgetRecord(_ build: UploadFixture) {
        try? FileManager.default.removeItem(atPath: build.out + "/odrpack-upload.json")
    }

    @Test func aRedirectAnsweringAnAPIRequestIsExit2AndTheTokenNeverLeaves() throws {
        let build = try UploadFixture()
        // Every redirect status under make test-all; a permanent and a temporary one by default.
        for status in TestLevel.isFull ? [301, 302, 303, 307, 308] : [301, 307] {
            for (method, path, request) in Self.apiRequests {
                Self.forgetRecord(build)
                let standIn = try AppStoreConnectStandIn(config: [
                    "faults": [["method": method, "path": path, "kind": "redirect", "status": status, "times": 100]]
                ])
                let run = try build.upload([build.out, "--all", "--jobs", "1"], standIn)
                #expect(run.status == 2, "\(status) \(method): \(run.stderr)")
                #expect(run.stderr.contains("\(request)"), "\(run.stderr)")
                #expect(
                    run.stderr.contains(
                        " answered \(status), a redirect: odrpack follows none, so that the API key's token goes to \(standIn.base) only; check --api (or ODRPACK_ASC_API)"
                    ), "\(run.stderr)")
                #expect(standIn.trapped.isEmpty, "\(status) \(method) reached the other origin: \(standIn.trapped)")
                // Never retried: the redirect is the answer.
                #expect(standIn.requests.filter { $0["fault"] as? String == "redirect" }.count == 1)
                #expect(standIn.commits.isEmpty || method != "PATCH")
            }
        }
    }

    @Test func aRedirectedPartIsAFailedPartNeverCountedAsSent() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        for status in [301, 302, 303, 307, 308] {
            Self.forgetRecord(build)
            let standIn = try AppStoreConnectStandIn(config: [
                "faults": [["method": "PUT", "path": "^/upload/", "kind": "redirect", "status": status, "times": 1]]
            ])
            let clock = FakeUploadClock()
            let run = build.uploadInProcess(standIn, clock: clock)
            #expect(run.status == 0, "\(status): \(run.stderr)")
            #expect(clock.sleeps == [.seconds(1)], "\(status)")
            #expect(standIn.trapped.isEmpty, "\(status): \(standIn.trapped)")
            for pack in packs {
                #expect(
                    standIn.commits.filter { $0["asset"] as? String == pack.id }.map { $0["sha256"] as? String } == [
                        pack.sha256
                    ])
            }
            // The redirected part went again to its own URL, once.
            let redirected = try #require(standIn.requests.first { $0["fault"] as? String == "redirect" })
            let again = standIn.requests.filter {
                $0["path"] as? String == redirected["path"] as? String && $0["method"] as? String == "PUT"
            }
            #expect(again.map { $0["status"] as? Int } == [status, 200])
        }
        // A part that is always redirected is never committed: exit 2 after the fifth retry.
        Self.forgetRecord(build)
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [["method": "PUT", "path": "^/upload/", "kind": "redirect", "status": 307, "times": 1000]]
        ])
        let clock = FakeUploadClock()
        let run = build.uploadInProcess(standIn, clock: clock)
        #expect(run.status == 2)
        #expect(run.stderr.contains("failed 6 times (last: redirected (307), not followed)"), "\(run.stderr)")
        #expect(clock.sleeps == [1, 2, 4, 8, 16].map { Duration.seconds($0) })
        #expect(!run.stderr.contains("X-Amz"), "a presigned query in \(run.stderr)")
        #expect(standIn.commits.isEmpty)
        #expect(standIn.calls.filter { $0.hasPrefix("PATCH ") }.isEmpty)
        #expect(standIn.trapped.isEmpty)
    }

    @Test func aDroppedOrSlowPartIsSentAgainOnceAndCommittedWhole() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        for fault: [String: Any] in [
            ["method": "PUT", "path": "^/upload/", "skip": 1, "kind": "drop"],
            ["method": "PUT", "path": "^/upload/", "skip": 1, "kind": "sleep", "seconds": 3],
        ] {
            Self.forgetRecord(build)
            let standIn = try AppStoreConnectStandIn(config: ["faults": [fault]])
            let clock = FakeUploadClock()
            let run = build.uploadInProcess(standIn, clock: clock, environment: ["ODRPACK_ASC_TIMEOUT": "1"])
            #expect(run.status == 0, "\(fault): \(run.stderr)")
            #expect(clock.sleeps == [.seconds(1)], "\(fault)")
            #expect(standIn.waitFor { $0["fault"] != nil && $0["status"] != nil })
            let faulted = try #require(standIn.requests.first { $0["fault"] != nil })
            let sends = standIn.requests.filter {
                $0["method"] as? String == "PUT" && $0["path"] as? String == faulted["path"] as? String
            }
            // One failure, one resend: never three.
            #expect(sends.count == 2, "\(fault): \(sends)")
            // The stand-in logs the slow one when its sleep ends, after the resend: one of the two was accepted.
            #expect(sends.filter { $0["status"] as? Int == 200 }.count == 1, "\(fault): \(sends)")
            for pack in packs {
                #expect(
                    standIn.commits.filter { $0["asset"] as? String == pack.id }.map { $0["sha256"] as? String } == [
                        pack.sha256
                    ])
            }
        }
    }

    @Test func anAnswerOver16MiBIsExit2() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [
                ["method": "GET", "path": "/backgroundAssets$", "kind": "huge", "bytes": 20 << 20, "times": 100]
            ]
        ])
        let run = try build.upload([build.out, "--all", "--jobs", "1"], standIn)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "/v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets answered with more than 16 MiB, which no App Store Connect answer holds"
            ), "\(run.stderr)")
        #expect(standIn.requests.filter { $0["fault"] as? String == "huge" }.count == 1, "not retried")
    }

    @Test func memoryDoesNotGrowWithTheAnswerOrTheArchive() throws {
        // What the server sends: 20 MiB and 200 MiB answers, both stopped at 16 MiB.
        let build = try UploadFixture()
        var answerPeaks: [Int] = []
        for size in [20 << 20, 200 << 20] {
            let standIn = try AppStoreConnectStandIn(config: [
                "faults": [
                    ["method": "GET", "path": "/backgroundAssets$", "kind": "huge", "bytes": size, "times": 100]
                ]
            ])
            // One request at a time: with --jobs N, N answers may each reach the 16 MiB limit at once.
            let (status, peak) = try Self.peak(
                ["upload", build.out, "--all", "--jobs", "1"], in: build.root, standIn.environment())
            #expect(status == 2)
            answerPeaks.append(peak)
        }
        #expect(
            answerPeaks[1] - answerPeaks[0] < 8 << 20,
            "peak \(answerPeaks[0] >> 20) MiB at a 20 MiB answer, \(answerPeaks[1] >> 20) MiB at 200 MiB")
        // The archive: one part covering all of an 8 MiB and of a 64 MiB archive.
        var archivePeaks: [Int] = []
        for size in [8 << 20, 64 << 20] {
            let fixture = try BackgroundAssetsFixture()
            try Data(repeating: 0x5A, count: size).write(
                to: fixture.project.root.appendingPathComponent("R/Level1/big.bin"))
            let built = try fixture.build()
            try #require(built.status == 0, "\(built.stderr)")
            let standIn = try AppStoreConnectStandIn(config: ["partSize": 1 << 30])
            let (status, peak) = try Self.peak(
                ["upload", fixture.project.path("out"), "--all", "--jobs", "1"], in: fixture.project.root,
                standIn.environment())
            #expect(status == 0)
            #expect(standIn.commits.count == 4)
            archivePeaks.append(peak)
        }
        #expect(
            archivePeaks[1] - archivePeaks[0] < 16 << 20,
            "peak \(archivePeaks[0] >> 20) MiB at an 8 MiB archive, \(archivePeaks[1] >> 20) MiB at 64 MiB")
    }

    /// odrpack's exit status and peak resident memory (bytes), measured by PeakMemory, as BoundedMemoryTests does.
    static func peak(_ arguments: [String], in folder: URL, _ environment: [String: String]) throws -> (Int, Int) {
        let result = try PeakMemory.run(arguments, in: folder, environment: environment)
        return (result.status, result.bytes)
    }

    @Test func theKeysTextGivenAsAPathIsExit64AndInNoOutput() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let pem = standIn.privateKey.pemRepresentation
        // Every line of the key's body: none may appear anywhere.
        let secrets = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        try #require(!secrets.isEmpty)
        let ways: [(String, [String], [String: String])] = [
            ("--private-key PEM", ["--private-key", pem], [:]),
            ("--private-key=PEM", ["--private-key=" + pem], [:]),
            ("ASC_PRIVATE_KEY_PATH", [], ["ASC_PRIVATE_KEY_PATH": pem]),
            ("--private-key PEM with \\n", ["--private-key", pem.replacingOccurrences(of: "\n", with: "\\n")], [:]),
        ]
        for (way, arguments, environment) in ways {
            for channel in [[], ["--json"], ["--github"], ["--dry-run", "--json"]] {
                let run = try build.upload(
                    [build.out, "--all"] + arguments + channel, standIn, environment: environment)
                #expect(run.status == 64, "\(way) \(channel): \(run.status)")
                #expect(
                    (run.stdout + run.stderr).contains(
                        "the key's text was given where a file is expected: pass it in ASC_PRIVATE_KEY"),
                    "\(way) \(channel)")
                for secret in secrets {
                    #expect(
                        !run.stdout.contains(secret) && !run.stderr.contains(secret),
                        "\(way) \(channel) printed the key")
                }
                #expect(!(run.stdout + run.stderr).contains("BEGIN"), "\(way) \(channel)")
                let record = (try? String(contentsOfFile: build.out + "/odrpack-upload.json", encoding: .utf8)) ?? ""
                #expect(secrets.allSatisfy { !record.contains($0) })
            }
        }
        #expect(standIn.requests.isEmpty)
        // The key where it belongs: the run uploads, and its outputs hold none of it.
        let good = try build.upload(
            [build.out, "--all", "--json"], standIn, environment: ["ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": pem])
        #expect(good.status == 0, "\(good.stderr)")
        let record = try String(contentsOfFile: build.out + "/odrpack-upload.json", encoding: .utf8)
        for secret in secrets {
            #expect(!good.stdout.contains(secret) && !good.stderr.contains(secret) && !record.contains(secret))
        }
    }

    @Test func withoutLibcurlUploadIsExit2AndEveryOtherCommandWorks() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        for extra in [[], ["--dry-run"], ["--dry-run", "--json"]] {
            let run = try build.upload(
                [build.out, "--all"] + extra, standIn, environment: ["ODRPACK_LIBCURL": "/nonexistent/libcurl.so.4"])
            #expect(run.status == 2, "\(extra)")
            #expect(
                run.stderr
                    == "odrpack: error: upload needs libcurl: install libcurl4 (Debian, Ubuntu) or curl (Fedora, Alpine)\n",
                "\(extra): \(run.stderr)")
        }
        #expect(standIn.requests.isEmpty)
        // A usage error is still said first.
        let usage = try build.upload(
            [build.out, "--all", "--api", "http://example.com"], standIn,
            environment: ["ODRPACK_LIBCURL": "/nonexistent"])
        #expect(usage.status == 64)
        let verify = try build.fixture.run(["verify", build.out], environment: ["ODRPACK_LIBCURL": "/nonexistent"])
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    @Test func anArchiveThatIsNotAnAppleArchiveIsRefusedBeforeAnyChange() throws {
        let fixture = try BackgroundAssetsFixture()
        let built = try fixture.build(environment: ["BA_STANDIN_NOT_ARCHIVE": "1"])
        try #require(built.status == 0, "\(built.stderr)")
        let manifest = try fixture.json("out/odrpack-manifest.json")
        let first = try #require((manifest["packs"] as? [[String: Any]])?.first)
        let id = try #require(first["assetPackId"] as? String)
        let file = try #require(first["file"] as? String)
        let standIn = try AppStoreConnectStandIn()
        var env = standIn.environment()
        env["BA_STANDIN_LOG"] = fixture.log.path
        let run = try CommandRunner.run(["upload", "out", "--all"], in: fixture.project.root, environment: env)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("odrpack: error: pack '\(id)': '"), "\(run.stderr)")
        #expect(
            run.stderr.hasSuffix("/\(file)' is not an Apple Archive: was it made by Apple's ba-package?\n"),
            "\(run.stderr)")
        #expect(standIn.requests.isEmpty)
        let verify = try fixture.run(["verify", "out", "--json"])
        #expect(verify.status == 1)
        let codes = (try verify.json()["diagnostics"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(codes.filter { $0 == "verify-ba-archive-format" }.count == (manifest["packs"] as? [Any])?.count)
    }

    @Test func anArchiveChangedSinceTheBuildIsRefusedBeforeTheFirstByte() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        let manifest = try build.fixture.json("out/odrpack-manifest.json")
        let file = try #require((manifest["packs"] as? [[String: Any]])?.first?["file"] as? String)
        var bytes = packs[0].bytes
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: URL(fileURLWithPath: build.out + "/" + file))
        let standIn = try AppStoreConnectStandIn()
        let run = try build.upload([build.out, "--all"], standIn)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "/\(file)' is not the archive the build wrote (its size or SHA-256 differs): run odrpack verify, and build again"
            ), "\(run.stderr)")
        #expect(standIn.requests.isEmpty)
    }

    @Test func theAPIURLsSchemeAndHostIgnoreCaseAndItsPortIsChecked() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let upper = try build.upload(
            [build.out, "--all", "--dry-run", "--api", "HTTP://127.0.0.1:\(standIn.port)"], standIn)
        #expect(upper.status == 0, "\(upper.stderr)")
        for port in ["0", "65536", "99999"] {
            let run = try build.upload([build.out, "--all", "--dry-run", "--api", "http://127.0.0.1:\(port)"], standIn)
            #expect(run.status == 64, "\(port)")
            #expect(run.stderr.contains("outside 1-65535"), "\(port): \(run.stderr)")
        }
    }

    @Test func theDryRunsQuotaSaturatesAndItsPacksAreInIDOrder() throws {
        let build = try UploadFixture()
        let ids = try build.packs().map(\.id)
        let standIn = try AppStoreConnectStandIn(config: [
            "assets": [
                ["assetPackIdentifier": "huge-1", "usedBytes": Int64.max],
                ["assetPackIdentifier": "huge-2", "usedBytes": Int64.max],
            ]
        ])
        let run = try build.upload([build.out, "--all", "--dry-run", "--json"], standIn)
        // Two ids holding Int64.max each: the sum holds at Int64.max (never wraps), over 200 GB: exit 1.
        #expect(run.status == 1, "\(run.stderr)")
        let document = try run.json()
        let quota = document["quota"] as? [String: Any] ?? [:]
        #expect((quota["bytes"] as? NSNumber)?.int64Value == Int64.max)
        let after = quota["after"] as? [String: Any] ?? [:]
        #expect(quota["ids"] as? Int == 2 && after["ids"] as? Int == 2 + ids.count)
        #expect((after["bytes"] as? NSNumber)?.int64Value == Int64.max)
        let codes = (document["diagnostics"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(codes == ["ba-quota-exceeded", "ba-packager-unknown"])
        let listed = (document["packs"] as? [[String: Any]] ?? []).compactMap { $0["assetPackId"] as? String }
        #expect(
            listed
                == ids.sorted {
                    Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes($1.unicodeScalars.map(\.value))
                })
        let text = try build.upload([build.out, "--all", "--dry-run"], standIn)
        #expect(
            text.stdout.contains("quota: \(2 + ids.count) of 100 asset pack ids after this upload (2 now), "),
            "\(text.stdout)")
    }

    @Test func aDryRunAfterTheUploadSaysWhetherEachIdIsArchived() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let sent = try build.upload([build.out, "--all"], standIn)
        #expect(sent.status == 0, "\(sent.stderr)")
        let run = try build.upload([build.out, "--all", "--dry-run", "--json"], standIn)
        let listed = try run.json()["packs"] as? [[String: Any]] ?? []
        #expect(listed.count == 4)
        #expect(
            listed.allSatisfy { $0["action"] as? String == "skipped" && $0["archived"] as? Bool == false }, "\(listed)")
    }

    @Test func verboseShowsEachRequestAndNoHeaderValueOrPresignedQuery() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [
                // Retry-After 0: the retry waits nothing, as the binary runs with the system's clock.
                [
                    "method": "POST", "path": "^/v1/backgroundAssetVersions$", "kind": "status", "status": 429,
                    "retryAfter": "0", "code": "STANDIN_BUSY",
                ]
            ]
        ])
        let run = try build.upload([build.out, "--all", "--verbose", "--jobs", "1"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("> GET /v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets"))
        #expect(
            lines.contains {
                $0.hasPrefix("< 429 POST /v1/backgroundAssetVersions (")
                    && $0.hasSuffix(" s): STANDIN_BUSY: injected by the stand-in")
            }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("< 200 PATCH /v1/backgroundAssetUploadFiles/") })
        #expect(lines.contains { $0.hasPrefix("< 200 PUT /upload/") })
        #expect(lines.filter { $0.hasPrefix("> ") }.count == standIn.requests.count)
        #expect(!run.stderr.contains("X-Amz") && !run.stderr.contains("Bearer") && !run.stderr.contains("odrpack/"))
    }
}

extension UploadTrustTests {
    @Test func uploadHoldsTheSharedLockForItsWholeRun() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [["method": "PUT", "path": "^/upload/", "kind": "sleep", "seconds": 3]]
        ])
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["upload", build.out, "--all", "--jobs", "1"]
        process.currentDirectoryURL = build.root
        process.environment = standIn.environment().merging(["PATH": "/usr/bin:/bin"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Once a reservation is made, the first part is on its way (held 3 s by the stand-in): a build must wait.
        #expect(standIn.waitFor { $0["path"] as? String == "/v1/backgroundAssetUploadFiles" })
        let blocked = try build.fixture.build(["--no-wait"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(blocked.status == 2, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("another odrpack build or thin is using 'out'"), "\(blocked.stderr)")
    }
}
