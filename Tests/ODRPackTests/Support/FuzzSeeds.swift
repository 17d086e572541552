import Foundation

/// A fuzz target's committed seed corpus (`Fuzz/Corpus/<target>`), for tests that replay it one seed per test case.
enum FuzzSeeds {
    static func folder(_ target: String) -> URL {
        TestPaths.repository.appendingPathComponent("Fuzz/Corpus/" + target)
    }

    /// The seeds' file names; empty when the folder cannot be read (a test of the corpus itself then fails).
    static func names(_ target: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder(target).path)) ?? []).sorted()
    }

    static func seed(_ target: String, _ name: String) throws -> Data {
        try Data(contentsOf: folder(target).appendingPathComponent(name))
    }
}
