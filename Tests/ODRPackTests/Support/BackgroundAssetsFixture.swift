import Crypto
import Foundation
import Testing

/// A Background Assets project, the stand-in packager and what it recorded, shared by the section 12 tests.
struct BackgroundAssetsFixture {
    let project: TemporaryProject
    let log: URL

    /// The stand-in for Apple's ba-package (Tests/BackgroundAssets/ba-package-standin).
    static var standIn: String {
        TestPaths.testsFolder.appendingPathComponent("BackgroundAssets/ba-package-standin").path
    }

    static var packagerCommand: String { "'\(standIn)' {manifest} -o {output}" }

    /// A game with an essential, two prefetch and an on-demand pack, tags that need sanitizing, and an untagged file.
    init(manifest extra: String = "", background: String = "") throws {
        project = try TemporaryProject()
        log = project.root.appendingPathComponent("packager-calls")
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.bamboo
            resources-root: R
            resources:
              - {path: Level1, tags: [level1]}
              - {path: Level2, tags: [level 2]}
              - {path: Shared/paddle.png, tags: [level1, level 2]}
              - {path: Store, tags: [shared_ui]}
            initial-install: [level1]
            prefetch-order: [level 2, shared_ui]
            \(extra)
            \(background)
            """)
        try project.file("R/Level1/scene.json", "{\"level\": 1}")
        try project.file("R/Level1/music.caf", "caf-one")
        try project.file("R/Level2/scene.json", "{\"level\": 2}")
        try project.file("R/Level2/Deep/texture.png", "PNG-two")
        try project.file("R/Shared/paddle.png", "PNG-paddle")
        try project.file("R/Store/ünïcode skin.json", "{}")
        try project.file("R/UI/menu.json", "{}")
    }

    var resourcesRoot: String { project.path("R") }

    /// `odrpack ARGS` in the project, the stand-in recording into `log`.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandRunner.Output {
        var env = ["BA_STANDIN_LOG": log.path]
        for (key, value) in environment { env[key] = value }
        return try CommandRunner.run(arguments, in: project.root, environment: env)
    }

    @discardableResult
    func build(_ extra: [String] = [], output: String = "out", environment: [String: String] = [:]) throws
        -> CommandRunner.Output
    {
        try run(
            ["build", "--format", "background-assets", "-o", output, "--ba-package", Self.packagerCommand, "--json"]
                + extra,
            environment: environment)
    }

    /// One packager call the stand-in recorded: its working directory, paths and the manifest it was given.
    struct Call {
        var cwd: String
        var manifest: String
        var output: String
        var manifestText: String
        /// When it started and finished, in nanoseconds since 1970 (0 when it did not finish).
        var start: Int64
        var end: Int64
    }

    func calls() throws -> [Call] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: log.path)) ?? []
        return try names.filter { $0.hasSuffix(".txt") }.sorted().map { name in
            let text = try String(contentsOf: log.appendingPathComponent(name), encoding: .utf8)
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                fields[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            let json = try String(
                contentsOf: log.appendingPathComponent(String(name.dropLast(4)) + ".json"), encoding: .utf8)
            return Call(
                cwd: fields["cwd"] ?? "", manifest: fields["manifest"] ?? "", output: fields["output"] ?? "",
                manifestText: json,
                start: Int64(fields["start"] ?? "") ?? 0, end: Int64(fields["end"] ?? "") ?? 0)
        }
    }

    func clearCalls() { try? FileManager.default.removeItem(at: log) }

    func data(_ relative: String) throws -> Data { try Data(contentsOf: project.root.appendingPathComponent(relative)) }
    func text(_ relative: String) throws -> String { String(decoding: try data(relative), as: UTF8.self) }
    func json(_ relative: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try data(relative)) as? [String: Any] ?? [:]
    }
}

/// docs/background-assets.md's asset pack id, computed here from the text of the spec, independently of the product.
func expectedAssetPackID(_ tags: [String]) -> String {
    let sorted = tags.sorted()
    let parts = sorted.map { tag -> String in
        var out = ""
        var dash = false
        for scalar in tag.unicodeScalars {
            let plain =
                (65...90).contains(scalar.value) || (97...122).contains(scalar.value)
                || (48...57).contains(scalar.value)
            if plain {
                if dash && !out.isEmpty { out += "-" }
                dash = false
                out.unicodeScalars.append(scalar)
            } else {
                dash = true
            }
        }
        return out.isEmpty ? "tag" : out
    }
    var readable = String(parts.joined(separator: "-").prefix(50))
    while readable.hasSuffix("-") { readable.removeLast() }
    let md5 = Insecure.MD5.hash(data: Data(sorted.joined(separator: ":").utf8)).map { String(format: "%02x", $0) }
        .joined()
    return readable + "-" + md5.prefix(8)
}
