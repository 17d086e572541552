import Foundation
import Testing

/// docs/build-output.md#bounded: verify streams every entry and holds at most 1 MiB of any one, so an archive whose Info.plist
/// inflates to 512 MiB from 0.5 MB is a mismatch, not a gigabyte of memory. The hostile archive is made by
/// Python's zipfile (an independent writer); verify runs under a 400 MB address-space limit, which the whole entry
/// could never fit in.
@Suite(.tags(.memory)) struct BoundedVerifyTests {
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: python != nil)) func aDeflateBombIsAMismatchInBoundedMemory() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.bomb\nresources:\n  - {path: R, tags: [a]}\n")
        try project.file("R/one.json", "{}")
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        let pack = try #require(
            try FileManager.default.contentsOfDirectory(atPath: project.path("out/OnDemandResources")).first)
        try project.file(
            "bomb.py",
            """
            import sys, zipfile
            path = sys.argv[1]
            with zipfile.ZipFile(path, 'w') as out:
                info = zipfile.ZipInfo('META-INF/com.apple.ZipMetadata.plist', date_time=(2000, 1, 1, 0, 0, 0))
                out.writestr(info, b'x')
                info = zipfile.ZipInfo('Info.plist', date_time=(2000, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with out.open(info, 'w', force_zip64=True) as w:
                    for _ in range(512): w.write(bytes(1 << 20))

            """)
        let made = try CommandRunner.run(
            ["bomb.py", project.path("out/OnDemandResources/" + pack)], in: project.root,
            executable: URL(fileURLWithPath: Self.python!))
        #expect(made.status == 0, "\(made.stderr)")
        let verify = try CommandRunner.run(
            ["-c", "ulimit -v 400000; exec '\(CommandRunner.executable.path)' verify out"],
            in: project.root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(verify.status == 1, "\(verify.stderr)")
        #expect(verify.stderr.contains("'Info.plist': is larger than 1048576 bytes"))
    }
}
