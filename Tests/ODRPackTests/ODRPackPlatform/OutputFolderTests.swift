import Foundation
import Testing

@testable import ODRPackPlatform

/// docs/build-output.md#atomic: the temporaries of interrupted builds go, except the previous manifest an interrupted
/// commit kept, which only the build that recovers it removes.
@Suite struct OutputFolderTests {
    @Test func removingTemporariesKeepsThePreviousManifestOfAnInterruptedCommit() throws {
        let project = try TemporaryProject()
        for name in [
            TemporaryName.previousManifest, ".odrpack-tmp-1-abc", ".odrpack-tmp-2-def-replaced",
            TemporaryName.processPrefix + "mine", "user.json",
        ] {
            try project.file("out/" + name, name)
        }
        try OutputFolder.removeTemporaries(in: FilePath(project.path("out")), except: [TemporaryName.processPrefix])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out")).sorted()
                == [
                    TemporaryName.previousManifest, TemporaryName.processPrefix + "mine", "user.json",
                ].sorted())
        try OutputFolder.removeTemporaries(in: FilePath(project.path("out")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out")).sorted()
                == [
                    TemporaryName.previousManifest, "user.json",
                ].sorted())
    }
}
