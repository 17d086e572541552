import Crypto
import Foundation
import Testing

/// Tests/AppStoreConnect/standin.py, running on 127.0.0.1 for one test: App Store Connect's background-assets API as
/// Apple's description states it, with the test's API key, failures injected from `config`, and a log of every
/// request it received (`requests`).
final class AppStoreConnectStandIn {
    static let keyID = "TESTKEY123"
    static let issuerID = "69a6de70-0000-47e3-e053-5b8c7c11a4d1"
    static let appID = "1234567890"

    /// python3 with `cryptography` (make test installs it when missing), and Apple's API description beside the
    /// stand-in (Tests/AppStoreConnect/api: in the repository, so a clone anywhere has it).
    static let available: Bool = {
        let description = TestPaths.testsFolder.appendingPathComponent(
            "AppStoreConnect/api/app-store-connect-api-4.4.1-background-assets.json")
        guard FileManager.default.fileExists(atPath: description.path) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import cryptography"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    let folder: URL
    let port: Int
    let privateKey = P256.Signing.PrivateKey()
    private let process: Process
    private let configURL: URL
    /// The token of the last `reset`, kept by `configure` so that steering does not reset.
    private var currentReset: String?
    /// The config in force (as given, without the defaults), so that a test can steer one part and keep the rest.
    private(set) var currentConfig: [String: Any] = [:]

    var keyPath: String { folder.appendingPathComponent("AuthKey_\(Self.keyID).p8").path }
    var base: String { "http://127.0.0.1:\(port)" }

    /// - Parameter individual: an individual key's tokens (`sub: user`, no `iss`) are expected instead of a team key's.
    init(config: [String: Any] = [:], individual: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("asc-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(privateKey.pemRepresentation.utf8).write(to: folder.appendingPathComponent("AuthKey_\(Self.keyID).p8"))
        let publicKey = folder.appendingPathComponent("public.pem")
        try Data(privateKey.publicKey.pemRepresentation.utf8).write(to: publicKey)
        configURL = folder.appendingPathComponent("config.json")
        try Self.write(config, to: configURL, reset: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", TestPaths.testsFolder.appendingPathComponent("AppStoreConnect/standin.py").path,
                "--state", folder.appendingPathComponent("state").path, "--public-key", publicKey.path,
                "--key-id", Self.keyID, "--config", configURL.path,
            ] + (individual ? ["--individual"] : ["--issuer", Self.issuerID])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("port "),
            let number = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            kill(process.processIdentifier, SIGKILL)
            throw StandInError.didNotStart(text)
        }
        port = number
    }

    deinit {
        // SIGKILL: a child of the test process inherits its blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    enum StandInError: Error { case didNotStart(String) }

    /// The config with the tests' defaults (the app, parts of 100 bytes), written whole and renamed into place: the
    /// stand-in re-reads it when it changes.
    private static func write(_ config: [String: Any], to url: URL, reset: String?) throws {
        var full = config
        if full["apps"] == nil { full["apps"] = [["id": Self.appID, "bundleId": "com.example.bamboo"]] }
        if full["partSize"] == nil { full["partSize"] = 100 }
        if let reset { full["reset"] = reset }
        try JSONSerialization.data(withJSONObject: full).write(to: url, options: .atomic)
    }

    /// A suite that shares one stand-in starts each test here: every app, asset, version, submission and log line
    /// of the previous test is gone, and `config` is the one in force.
    func reset(config: [String: Any] = [:]) throws {
        let token = UUID().uuidString
        try Self.write(config, to: configURL, reset: token)
        // The stand-in forgets at its next request; the log is empty from now, for a test that sends none.
        try Data().write(to: folder.appendingPathComponent("state/requests.log"))
        currentReset = token
        currentConfig = config
    }

    /// Steers the running stand-in (review outcomes, derived locales, faults) without forgetting what it holds.
    func configure(_ config: [String: Any]) throws {
        var full = config
        if let token = currentReset { full["reset"] = token }
        try Self.write(full, to: configURL, reset: nil)
        currentConfig = config
    }

    /// The environment `odrpack upload` runs with: the key and the stand-in's URL. Waits are the product's: a run
    /// that retries with a back-off or polls runs in-process with a FakeUploadClock (`UploadFixture.uploadInProcess`).
    func environment(app: Bool = true) -> [String: String] {
        var environment = [
            "ASC_KEY_ID": Self.keyID, "ASC_ISSUER_ID": Self.issuerID, "ASC_PRIVATE_KEY_PATH": keyPath,
            "ODRPACK_ASC_API": base,
        ]
        if app { environment["ASC_APP_ID"] = Self.appID }
        return environment
    }

    /// Every line of the log: requests (`method`, `path`, `query`, `status`, `rejected`, `fault`, `part`,
    /// `uploadFile`, `token`, `body`) and events (`event`: `commit` with `asset`, `sha256`; `hang`).
    var log: [[String: Any]] {
        let url = folder.appendingPathComponent("state/requests.log")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Requests in the order they arrived. The log is in the order they were answered, and two requests answered on
    /// two threads can swap there (a redirected part's answer logged after its retry's).
    var requests: [[String: Any]] {
        log.enumerated()
            .filter { $0.element["method"] != nil && $0.element["trap"] == nil }
            .sorted {
                let (a, b) = ($0.element["time"] as? Double ?? 0, $1.element["time"] as? Double ?? 0)
                return a != b ? a < b : $0.offset < $1.offset
            }
            .map(\.element)
    }
    /// What reached the trap, the other origin every injected redirect points at (`method`, `path`, `authorization`,
    /// `bytes`): a client that follows a redirect shows up here.
    var trapped: [[String: Any]] { log.filter { $0["trap"] as? Bool == true } }
    var commits: [[String: Any]] { log.filter { $0["event"] as? String == "commit" } }
    var rejected: [String] { requests.compactMap { $0["rejected"] as? String } }

    /// `POST /v1/...` and the like, in the order received.
    var calls: [String] { requests.map { "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "")" } }

    /// The bytes the stand-in received for an upload file.
    func received(_ uploadFile: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent("state/received/" + uploadFile))
    }

    /// Waits until the log stops growing (200 ms without a new line, at most 5 s): the stand-in logs a request once it
    /// has answered it, so a client that stops at its last answer can be quicker than that answer's line.
    func settle() {
        let deadline = Date().addingTimeInterval(5)
        var count = log.count
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            let now = log.count
            if now == count { return }
            count = now
        }
    }

    /// Waits (at most 30 s) until the log holds a line `matching`.
    func waitFor(_ matching: ([String: Any]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if log.contains(where: matching) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}

/// A Background Assets build of `BackgroundAssetsFixture` (four packs) to upload.
struct UploadFixture {
    let fixture: BackgroundAssetsFixture

    init(manifest extra: String = "", background: String = "") throws {
        fixture = try BackgroundAssetsFixture(manifest: extra, background: background)
        let built = try fixture.build()
        #expect(built.status == 0, "\(built.stderr)")
    }

    var root: URL { fixture.project.root }
    var out: String { fixture.project.path("out") }

    /// The build's packs: asset pack id -> (archive bytes, archive SHA-256), in the manifest's order.
    func packs(_ folder: String = "out") throws -> [(id: String, bytes: Data, sha256: String)] {
        let manifest = try fixture.json(folder + "/odrpack-manifest.json")
        return try (manifest["packs"] as? [[String: Any]] ?? []).map { pack in
            let bytes = try fixture.data(folder + "/" + (pack["file"] as? String ?? ""))
            return (pack["assetPackId"] as? String ?? "", bytes, pack["archiveSha256"] as? String ?? "")
        }
    }

    @discardableResult
    func upload(
        _ arguments: [String], _ standIn: AppStoreConnectStandIn?, app: Bool = true, environment: [String: String] = [:]
    )
        throws -> CommandRunner.Output
    {
        var env = standIn?.environment(app: app) ?? [:]
        for (key, value) in environment { env[key] = value }
        defer { standIn?.settle() }
        return try CommandRunner.run(["upload"] + arguments, in: root, environment: env)
    }

    var record: [String: Any]? {
        try? JSONSerialization.jsonObject(with: fixture.data("out/odrpack-upload.json")) as? [String: Any]
    }
}
