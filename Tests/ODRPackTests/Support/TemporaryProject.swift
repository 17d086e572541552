import Foundation

@testable import ODRPackCore

/// A throwaway project folder: a manifest plus resource files, removed when the test ends.
final class TemporaryProject {
    let root: URL

    /// - Parameter base: the folder to make it in (default: the temporary folder); tmpfs takes sparse files of any size.
    init(in parent: URL = FileManager.default.temporaryDirectory) throws {
        let base = parent.appendingPathComponent("odrpack-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = URL(fileURLWithPath: base.path.resolvingSymlinksInPath)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var manifestPath: String { root.appendingPathComponent("odrpack.yml").path }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    @discardableResult
    func manifest(_ text: String, name: String = "odrpack.yml") throws -> String {
        let path = root.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes a file under the project, creating folders.
    func file(_ relative: String, _ contents: String = "data") throws {
        try file(relative, bytes: Data(contents.utf8))
    }

    func file(_ relative: String, bytes: Data) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
    }

    /// A sparse file of exactly `size` bytes: large sizes without writing gigabytes.
    func sparseFile(_ relative: String, size: Int64) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TestSystem.makeSparseFile(url.path, size: size)
    }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    func symlink(_ relative: String, to target: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    func plan(profile: String? = nil) throws -> PlanResult {
        try ProjectPlanner().plan(manifestPath: manifestPath, profile: profile, format: .odr)
    }
}

extension String {
    var resolvingSymlinksInPath: String { TestSystem.realPath(self) }
}

extension PlanResult {
    var codes: [String] { diagnostics.map(\.code.rawValue) }
    func diagnostics(_ code: DiagnosticCode) -> [Diagnostic] { diagnostics.filter { $0.code == code } }
    func pack(tags: [String]) -> AssetPack? { plan?.packs.first { $0.tags == tags.sorted() } }
}
