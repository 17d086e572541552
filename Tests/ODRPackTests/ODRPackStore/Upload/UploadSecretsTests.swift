import Foundation
import Testing

/// docs/store.md#credentials and #trust-boundaries: credential-bearing values that are not what they should be are
/// refused without being echoed (the key's body or its base64 given as a path, a key in ASC_APP_ID), every file
/// upload reads whole has a bound, App Store Connect's text is escaped, `--wait` and `--api` take only what they
/// say, a huge header block is named as one, and two uploads of one build never both send.
@Suite(
    .enabled(
        if: AppStoreConnectStandIn.available,
        "python3 with cryptography (make test installs it) and Tests/AppStoreConnect/api"))
struct UploadSecretsTests {
    /// The key's body without its armour, the .p8 file in base64 (`base64 -w0 AuthKey.p8`), and a value with a line
    /// break, each as `--private-key` and as `ASC_PRIVATE_KEY_PATH`: exit 64, none of it in any output, no request.
    @Test func keyMaterialGivenAsAPathIsNeverEchoed() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let pem = standIn.privateKey.pemRepresentation
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        let base64 = Data(pem.utf8).base64EncodedString()
        let values: [(String, String, String)] = [
            ("body, lines", body.joined(separator: "\n"), "the key itself (base64"),
            ("body, one line", body.joined(), "the key itself (base64"),
            ("body, literal \\n", body.joined(separator: "\\n"), "the key itself (base64"),
            ("base64 -w0 of the .p8", base64, "the key itself (base64"),
            ("a line break", "keys/Auth\nKey.p8", "cannot read the private key given in "),
        ]
        for (what, value, said) in values {
            for (way, arguments, environment) in [
                ("--private-key", ["--private-key", value], [String: String]()),
                ("ASC_PRIVATE_KEY_PATH", [], ["ASC_PRIVATE_KEY_PATH": value]),
            ] {
                for channel in [[], ["--json"]] {
                    let run = try build.upload(
                        [build.out, "--all"] + arguments + channel, standIn, environment: environment)
                    let printed = run.stdout + run.stderr
                    #expect(run.status == 64, "\(what) \(way) \(channel): \(run.status) \(printed)")
                    #expect(printed.contains(said), "\(what) \(way) \(channel): \(printed)")
                    for line in body + [base64, "Auth\nKey", "Auth\\nKey"] {
                        #expect(!printed.contains(line), "\(what) \(way) \(channel) printed the value")
                    }
                }
            }
        }
        #expect(standIn.requests.isEmpty)
    }

    /// A key file without end or too large fails at once, saying so.
    @Test(arguments: ["/dev/zero", "big.p8"])
    func aKeyFileIsBounded(path: String) throws {
        let build = try UploadFixture()
        try build.fixture.project.sparseFile("big.p8", size: 1 << 30)
        let standIn = try AppStoreConnectStandIn()
        let run = try build.upload([build.out, "--all", "--private-key", path], standIn)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "odrpack: error: the private key '\(path)' is over 65536 bytes: pass the .p8 file App Store Connect gave\n"
        )
        #expect(standIn.requests.isEmpty)
    }

    /// An upload record that never ends (a link to /dev/zero) is exit 2 at once, naming it.
    @Test func theUploadRecordIsBounded() throws {
        let build = try UploadFixture()
        try FileManager.default.createSymbolicLink(
            atPath: build.out + "/odrpack-upload.json", withDestinationPath: "/dev/zero")
        let standIn = try AppStoreConnectStandIn()
        let run = try build.upload([build.out, "--all"], standIn)
        #expect(run.status == 2)
        #expect(run.stderr.contains("odrpack-upload.json': File too large"), "\(run.stderr)")
    }

    /// `build --published` that never ends is exit 2 at once, naming it.
    @Test func thePublishedManifestIsBounded() throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        let run = try fixture.build(["--url-prefix", "https://cdn.example.com/packs", "--published", "/dev/zero"])
        #expect(run.status == 2)
        #expect(
            (run.stdout + run.stderr).contains(
                "cannot read the published download manifest '/dev/zero': File too large"), "\(run.stderr)")
    }

    /// `--app`/`ASC_APP_ID` is digits only: anything else is exit 64, never echoed, never sent.
    @Test func theAppIDIsDigitsOnly() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn()
        let pem = standIn.privateKey.pemRepresentation
        for (arguments, environment) in [
            ([String](), ["ASC_APP_ID": pem]), ([], ["ASC_APP_ID": "12a4"]), (["--app", "../v1/apps"], [:]),
            (["--app", "1234567890123456789012"], [:]), (["--app", "１２３"], [:]),
        ] {
            let run = try build.upload([build.out, "--all", "--json"] + arguments, standIn, environment: environment)
            #expect(run.status == 64, "\(arguments) \(environment.keys)")
            #expect(run.stdout.contains("must be digits only"), "\(run.stdout)")
            let value = arguments.last ?? environment["ASC_APP_ID"]!
            #expect(!(run.stdout + run.stderr).contains(value), "echoed")
            #expect(!(run.stdout + run.stderr).contains("PRIVATE KEY"), "echoed")
        }
        #expect(standIn.requests.isEmpty)
    }

    /// `--wait=` takes whole seconds; `--api ""` is a bad command line, not production.
    @Test func waitAndAPITakeOnlyWhatTheySay() throws {
        let build = try UploadFixture()
        for argument in ["--wait=1.5", "--wait=nan", "--wait=", "--wait=1e3", "--wait=-5", "--wait=99999999999"] {
            let run = try build.upload([build.out, "--all", argument], nil)
            #expect(run.status == 64, "\(argument): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("odrpack: error: --wait takes whole seconds (e.g. --wait=600), not '"),
                "\(argument): \(run.stderr)")
        }
        let empty = try build.upload([build.out, "--all", "--dry-run", "--api", ""], nil)
        #expect(empty.status == 64)
        #expect(
            empty.stderr
                == "odrpack: error: --api is empty (an unset variable?): give the API's base URL, or leave --api out for Apple's\n"
        )
    }

    /// App Store Connect's error text under `--verbose` has its control characters escaped: ESC, BEL, C1 CSI.
    @Test func verboseEscapesTheServersText() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [
                [
                    "method": "POST", "path": "^/v1/backgroundAssetVersions$", "kind": "status", "status": 409,
                    "code": "STANDIN", "detail": "clear\u{1b}[2J bell\u{07} csi\u{9b}31m end",
                ]
            ]
        ])
        let run = try build.upload([build.out, "--all", "--verbose", "--jobs", "1"], standIn)
        #expect(run.status == 2)
        #expect(run.stderr.contains("STANDIN: clear\\x1b[2J bell\\x07 csi\\u{9b}31m end"), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
    }

    /// A header block over 256 KiB is named as what it is, not as a body over 16 MiB.
    @Test func aHugeHeaderBlockIsNamed() throws {
        let build = try UploadFixture()
        let standIn = try AppStoreConnectStandIn(config: [
            "faults": [["method": "GET", "path": "/backgroundAssets$", "kind": "hugeHeaders", "times": 100]]
        ])
        let run = try build.upload([build.out, "--all", "--jobs", "1"], standIn)
        #expect(run.status == 2)
        #expect(
            run.stderr.hasPrefix("odrpack: error: GET ")
                && run.stderr.contains(
                    "/v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets answered with headers over 256 KiB, which no App Store Connect answer holds"
                ), "\(run.stderr)")
        #expect(!run.stderr.contains("16 MiB"))
    }

    /// Two `upload --all` of one build at once: the second refuses at once (exit 2, saying another upload is sending),
    /// so no pack is sent twice; a dry run runs beside it.
    @Test func aSecondUploadOfTheSameBuildRefuses() throws {
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
        #expect(standIn.waitFor { $0["path"] as? String == "/v1/backgroundAssetUploadFiles" })
        var environment = standIn.environment()
        environment["PATH"] = "/usr/bin:/bin"
        let second = try CommandRunner.run(
            ["upload", build.out, "--all", "--jobs", "1"], in: build.root, environment: environment)
        let dryRun = try CommandRunner.run(
            ["upload", build.out, "--all", "--dry-run"], in: build.root, environment: environment)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(second.status == 2, "\(second.stderr)")
        #expect(second.stderr.contains("another odrpack upload is sending the packs of '"), "\(second.stderr)")
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let versions = standIn.requests.filter {
            $0["method"] as? String == "POST" && $0["path"] as? String == "/v1/backgroundAssetVersions"
        }
        #expect(versions.count == (try build.packs().count))
    }
}
