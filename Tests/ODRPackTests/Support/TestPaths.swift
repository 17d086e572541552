import Foundation

/// Folders of the repository the tests read from, found from this file whatever folder a test lives in.
enum TestPaths {
    /// The repository's `Tests/` folder.
    static let testsFolder: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.lastPathComponent != "Tests" && folder.path != "/" { folder.deleteLastPathComponent() }
        return folder
    }()

    /// The repository's root.
    static var repository: URL { testsFolder.deletingLastPathComponent() }

    /// `Tests/ODRPackTests/Fixtures/<name>`.
    static func fixtures(_ name: String) -> URL {
        testsFolder.appendingPathComponent("ODRPackTests/Fixtures/" + name)
    }
}
