import Foundation
import Testing

/// docs/build-output.md#bounded: a thread the system refuses (`ulimit -u`) never makes a build wait forever: the
/// work runs on the threads it got. Run as an unprivileged user (root is exempt from the limit), under `timeout`, so
/// a hang fails the test as exit 124 instead of stalling the suite.
@Suite(
    .enabled(
        if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
        "needs root and setpriv to run the build as another user under a process limit"),
    // One at a time: the limit counts every process and thread of the user, across test cases.
    .serialized)
struct ThreadLimitTests {
    @Test(arguments: [(64, 8), (256, 6), (40, 1000)])
    func aBuildRunsWithTheThreadsItGets(jobs: Int, processes: Int) throws {
        let project = try TemporaryProject()
        var manifest = "version: 1\nbundle-id: com.example.threads\nresources:\n"
        for pack in 0..<40 {
            try project.file("R/P\(pack)/f.txt", "\(pack)")
            manifest += "  - {path: R/P\(pack), tags: [t\(pack)]}\n"
        }
        try project.manifest(manifest)
        #expect(chmod(project.root.path, 0o777) == 0)
        let output = try CommandRunner.run(
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/bash", "-c",
                "ulimit -u \(processes) && exec timeout -s KILL 60 \"$0\" build -o out --jobs \(jobs) --no-cache",
                CommandRunner.executable.path,
            ], in: project.root, environment: ["HOME": project.root.path],
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        #expect(output.status == 0, "jobs \(jobs), ulimit -u \(processes): \(output.status) \(output.stderr)")
        #expect(output.stdout.hasPrefix("Built 40 packs into out: 40 written"), "\(output.stdout)")
    }
}
