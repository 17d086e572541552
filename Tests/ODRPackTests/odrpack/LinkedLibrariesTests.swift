import Foundation
import Testing

/// The product links zlib and the system's own libraries, never libarchive (the tests' reader only).
@Suite struct LinkedLibrariesTests {
    static let ldd = ["/usr/bin/ldd", "/bin/ldd"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: ldd != nil)) func theBinaryDoesNotLinkLibarchive() throws {
        let output = try CommandRunner.run([CommandRunner.executable.path], executable: URL(fileURLWithPath: Self.ldd!))
        #expect(output.status == 0)
        #expect(output.stdout.contains("libz.so"))
        #expect(!output.stdout.contains("libarchive"))
    }
}
