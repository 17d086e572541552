import Foundation

/// A fuzz target's committed seed corpus (`Fuzz/Corpus/<target>`), for tests that replay it.
enum FuzzSeeds {
    static func of(_ target: String) throws -> [Data] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Fuzz/Corpus/" + target).standardizedFileURL
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    }
}
