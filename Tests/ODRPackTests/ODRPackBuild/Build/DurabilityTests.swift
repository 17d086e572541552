import Foundation
import Testing

/// SPEC 7, "Durable": every pack is on stable storage before a plist or the manifest that names it is renamed into
/// place, and the manifest's rename itself before exit 0. A power cut cannot be staged here, so the order of the
/// system calls is read with strace (Linux).
@Suite struct DurabilityTests {
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The build's renames, syncfs and fsync calls, in order.
    func calls(_ arguments: [String], in project: TemporaryProject) throws -> [String] {
        // Outside the project, whose files are resources.
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-trace-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let output = try CommandRunner.run(["-f", "-e", "trace=fsync,syncfs,rename,renameat,renameat2", "-o", trace,
                                            CommandRunner.executable.path] + arguments,
                                           in: project.root, executable: URL(fileURLWithPath: Self.strace!))
        #expect(output.status == 0, "\(output.stderr)")
        return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.contains("resumed") && !$0.contains("unfinished") && !$0.contains("exited") }
    }

    func index(_ calls: [String], _ predicate: (String) -> Bool) -> Int? { calls.firstIndex(where: predicate) }
    func lastIndex(_ calls: [String], _ predicate: (String) -> Bool) -> Int? { calls.lastIndex(where: predicate) }

    @Test(.enabled(if: strace != nil), arguments: [["--layout", "zip"], ["--layout", "folder"]])
    func packsReachTheDiskBeforeTheManifestsThatNameThem(layout: [String]) throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.durable\nresources:\n  - {path: R/a, tags: [a]}\n  - {path: R/b, tags: [b]}\n")
        try project.file("R/a/one.json", "{}")
        try project.file("R/b/two.json", "{\"two\": 2}")
        let trace = try calls(["build", "-o", "out"] + layout, in: project)
        let barrier = try #require(index(trace) { $0.contains("syncfs(") })
        let lastPack = try #require(lastIndex(trace) { $0.contains("rename(") && $0.contains("/OnDemandResources/com.example.durable.") })
        let manifest = try #require(index(trace) { $0.contains("rename(") && $0.contains("odrpack-manifest.json\")") })
        #expect(lastPack < barrier)
        for plist in ["OnDemandResources.plist", "AssetPackManifestTemplate.plist"] {
            let renamed = try #require(index(trace) { $0.contains("rename(") && $0.contains(plist + "\")") })
            #expect(barrier < renamed && renamed < manifest, "\(plist)")
            #expect(trace[renamed - 1].contains("fsync("), "\(plist)'s bytes are flushed before its rename")
        }
        #expect(trace[manifest - 1].contains("fsync("), "the manifest's bytes are flushed before its rename")
        #expect(trace.indices.contains(manifest + 1) && trace[manifest + 1].contains("fsync("), "the rename is flushed before exit")
    }

    @Test(.enabled(if: strace != nil)) func aNoOpBuildWaitsForNothing() throws {
        let project = try TemporaryProject()
        try project.manifest("version: 1\nbundle-id: com.example.durable\nresources:\n  - {path: R, tags: [a]}\n")
        try project.file("R/one.json", "{}")
        #expect(try CommandRunner.run(["build", "-o", "out"], in: project.root).status == 0)
        let trace = try calls(["build", "-o", "out"], in: project)
        #expect(!trace.contains { $0.contains("syncfs(") || $0.contains("fsync(") }, "\(trace)")
    }
}
