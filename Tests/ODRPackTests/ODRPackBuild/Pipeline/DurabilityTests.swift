import Foundation
import Testing

/// docs/build-output.md#durable: every pack is on stable storage before a plist or the manifest that names it is renamed into
/// place, and the manifest's rename itself before exit 0. A power cut cannot be staged here, so the order of the
/// system calls is read with strace (Linux), which names each flushed file (`-y`).
@Suite struct DurabilityTests {
    /// strace, when it is installed (`make test` installs it on Linux) and may trace here (a container may forbid ptrace).
    static let strace = ["/usr/bin/strace", "/bin/strace"].first {
        FileManager.default.isExecutableFile(atPath: $0)
            && (try? CommandRunner.run(["-o", "/dev/null", "/bin/true"], executable: URL(fileURLWithPath: $0)))?.status
                == 0
    }

    /// The build's renames, syncfs and fsync calls, in order (syncfs is traced to find it: it must never be called).
    func calls(_ arguments: [String], in project: TemporaryProject) throws -> [String] {
        // Outside the project, whose files are resources.
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("odrpack-trace-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let output = try CommandRunner.run(
            [
                "-f", "-y", "-e", "trace=fsync,syncfs,rename,renameat,renameat2", "-o", trace,
                CommandRunner.executable.path,
            ] + arguments,
            in: project.root, executable: URL(fileURLWithPath: Self.strace!))
        #expect(output.status == 0, "\(output.stderr)")
        return Self.joined(try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init))
    }

    /// One line per call, at the place where it returned: a call that another thread interrupted is split in two
    /// lines ("... <unfinished ...>", then "<... call resumed> ..."), which are joined here.
    static func joined(_ lines: [String]) -> [String] {
        var started: [Substring: String] = [:]
        var calls: [String] = []
        for line in lines where !line.contains("exited") {
            let thread = line.prefix { $0 != " " }
            if let cut = line.range(of: " <unfinished ...>") {
                started[thread] = String(line[..<cut.lowerBound])
            } else if let resumed = line.range(of: " resumed>"), let start = started.removeValue(forKey: thread) {
                calls.append(start + line[resumed.upperBound...])
            } else {
                calls.append(line)
            }
        }
        return calls
    }

    func index(_ calls: [String], _ predicate: (String) -> Bool) -> Int? { calls.firstIndex(where: predicate) }
    func lastIndex(_ calls: [String], _ predicate: (String) -> Bool) -> Int? { calls.lastIndex(where: predicate) }

    /// The path a traced rename moved to: its last quoted argument.
    func renameTarget(_ line: String) -> String {
        line.split(separator: "\"", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? ""
    }

    /// A pack is flushed after its rename and before `end`: an fsync of the pack (of every file in a pack folder) and
    /// one of its folder. Never a syncfs, which would wait for what other programs wrote (docs/build-output.md#durable).
    func expectFlushed(
        _ trace: [String], pack renamed: Int, files: [String], before end: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let target = renameTarget(trace[renamed])
        let folder = (target as NSString).deletingLastPathComponent
        let flushes = trace[(renamed + 1)..<end]
        #expect(
            !target.isEmpty && flushes.contains { $0.contains("fsync(") && $0.contains("<\(target)>") },
            "\(target) is not flushed before the plists: \(flushes)", sourceLocation: sourceLocation)
        #expect(
            flushes.contains { $0.contains("fsync(") && $0.contains("<\(folder)>") }, "\(folder)",
            sourceLocation: sourceLocation)
        for file in files {
            #expect(
                flushes.contains { $0.contains("fsync(") && $0.contains("<\(target)/\(file)>") }, "\(target)/\(file)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: strace != nil), arguments: [["--layout", "zip"], ["--layout", "folder"]])
    func packsReachTheDiskBeforeTheManifestsThatNameThem(layout: [String]) throws {
        let project = try TemporaryProject()
        // Eight packs: more than the few a rebuild writes, which once took a syncfs of the whole file system.
        let extra = (0..<6).map { "  - {path: R/x\($0), tags: [x\($0)]}\n" }.joined()
        try project.manifest(
            "version: 1\nbundle-id: com.example.durable\nresources:\n  - {path: R/a, tags: [a]}\n  - {path: R/b, tags: [b]}\n"
                + extra)
        try project.file("R/a/one.json", "{}")
        try project.file("R/b/two.json", "{\"two\": 2}")
        for index in 0..<6 { try project.file("R/x\(index)/f.json", "\(index)") }
        let folderFiles = layout.last == "folder" ? ["Info.plist"] : []
        for build in 0..<2 {
            // The second build rewrites one pack over the one it replaces.
            if build == 1 { try project.file("R/b/two.json", "{\"two\": 22}") }
            let trace = try calls(["build", "-o", "out"] + layout, in: project)
            // Renames into place, not the old pack's move aside.
            let packs = trace.indices.filter {
                trace[$0].contains("rename(")
                    && renameTarget(trace[$0]).contains("/OnDemandResources/com.example.durable.")
            }
            #expect(packs.count == (build == 0 ? 8 : 1), "\(trace)")
            #expect(!trace.contains { $0.contains("syncfs(") }, "\(trace)")
            let manifest = try #require(
                index(trace) { $0.contains("rename(") && $0.contains("odrpack-manifest.json\")") })
            // A plist whose bytes did not change is not written again.
            let plists = ["OnDemandResources.plist", "AssetPackManifestTemplate.plist"].compactMap { plist in
                index(trace) { $0.contains("rename(") && $0.contains(plist + "\")") }
            }
            #expect(plists.count == 2 - build, "\(trace)")
            for pack in packs {
                expectFlushed(trace, pack: pack, files: folderFiles, before: (plists + [manifest]).min()!)
            }
            for renamed in plists {
                #expect(renamed < manifest)
                #expect(trace[renamed - 1].contains("fsync("), "the plist's bytes are flushed before its rename")
            }
            // Staged while the packs reach the disk: its temporary is flushed before the rename, not just before it.
            let staged =
                trace[manifest].split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(
                    String.init) ?? "-"
            #expect(
                trace[..<manifest].contains { $0.contains("fsync(") && $0.contains("<\(staged)>") },
                "the manifest's bytes are flushed before its rename: \(trace)")
            #expect(
                trace.indices.contains(manifest + 1) && trace[manifest + 1].contains("fsync("),
                "the rename is flushed before exit")
        }
    }

    /// A Background Assets build commits in the same order (`OutputCommit`): every archive and its `site/` copy is
    /// flushed before any document that names it (`<id>.json`, AssetPackTags.json, download-manifest.json) is renamed
    /// into place, and odrpack-manifest.json is renamed last.
    @Test(.enabled(if: strace != nil)) func backgroundAssetsArchivesReachTheDiskBeforeTheDocuments() throws {
        let fixture = try BackgroundAssetsFixture(background: "background-assets: {hosting: self}")
        let trace = try calls(
            [
                "build", "--format", "background-assets", "-o", "out", "--ba-package",
                BackgroundAssetsFixture.packagerCommand, "--url-prefix", "https://cdn.example.com/packs",
            ], in: fixture.project)
        let packs = fixture.project.path("out/BackgroundAssets")
        let renames = trace.indices.filter { trace[$0].contains("rename(") }
        let archives = renames.filter {
            renameTarget(trace[$0]).hasPrefix(packs + "/") && renameTarget(trace[$0]).hasSuffix(".aar")
        }
        let copies = renames.filter {
            renameTarget(trace[$0]).hasPrefix(packs + "/site/") && !renameTarget(trace[$0]).hasSuffix(".json")
        }
        // Not the packager's manifests, which it reads in its hidden folder before the commit.
        let documents = renames.filter {
            let target = renameTarget(trace[$0])
            return target.hasPrefix(fixture.project.path("out") + "/") && target.hasSuffix(".json")
                && !target.contains("/" + ".odrpack-tmp-")
        }
        #expect(archives.count == 4 && copies.count == 4, "\(trace)")
        // Four <id>.json, AssetPackTags.json, download-manifest.json and the manifest.
        #expect(documents.count == 7, "\(trace)")
        let manifest = try #require(documents.last)
        #expect(renameTarget(trace[manifest]) == fixture.project.path("out/odrpack-manifest.json"))
        for pack in archives + copies { expectFlushed(trace, pack: pack, files: [], before: documents[0]) }
        #expect(!trace.contains { $0.contains("syncfs(") }, "\(trace)")
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
