import Foundation
import Testing

/// What an app bundle needs for `thin` and `ipa` to take it (docs/commands.md#thin): an Info.plist whose
/// CFBundleIdentifier is the build's bundle id.
enum AppBundleFixture {
    static func infoPlist(bundleId: String, format: PropertyListSerialization.PropertyListFormat = .xml) -> Data {
        try! PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": bundleId, "CFBundleExecutable": "Game"], format: format, options: 0
        )
    }

    /// Every entry under `root` (links and folders too): a file's bytes, a link's target prefixed with "-> ", a
    /// folder's "/" with its mode: what "byte for byte as it was" compares.
    static func snapshot(_ root: String) throws -> [String: Data] {
        var entries: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) {
            let full = root + "/" + path
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            let mode = (attributes[.posixPermissions] as? Int) ?? 0
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                entries[path] = Data(("-> " + (try FileManager.default.destinationOfSymbolicLink(atPath: full))).utf8)
            case .typeDirectory?: entries[path] = Data("/ \(String(mode, radix: 8))".utf8)
            default: entries[path] = try Data(contentsOf: URL(fileURLWithPath: full)) + Data(" \(mode)".utf8)
            }
        }
        return entries
    }

    /// Runs `body` with `path` immutable (`chattr +i`, which stops root too). Tests that call it are enabled by
    /// `SystemAbilities.canMakeImmutable`, so a refusal here is a failure, not a pass.
    static func withImmutable(_ path: String, _ body: () throws -> Void) throws {
        try #require(chattr("+i", path), "chattr +i '\(path)' was refused")
        defer { _ = chattr("-i", path) }
        try body()
    }

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["chattr", flag, path]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
