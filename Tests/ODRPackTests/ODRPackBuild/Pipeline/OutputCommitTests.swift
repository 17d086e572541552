import Foundation
import ODRPackCore
import Testing

@testable import ODRPackBuild
@testable import ODRPackBuildFormat
@testable import ODRPackPlatform

/// docs/build-output.md#atomic, on `OutputCommit` itself: a commit that fails at any step leaves the folder byte for
/// byte as it was (the previous manifest included); one that succeeds leaves no journal; an interrupted folder
/// (the journal, no manifest) stays interrupted until a commit finishes.
@Suite struct OutputCommitTests {
    struct Failure: Error {}

    /// A build folder as a previous build left it: a manifest, a pack to replace, a stale one, a document.
    func folder() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.file("out/odrpack-manifest.json", "old manifest")
        try project.file("out/OnDemandResources/a.assetpack", "old a")
        try project.file("out/OnDemandResources/b.assetpack", "stale b")
        try project.file("out/OnDemandResources/user.assetpack", "the user's")
        try project.file("out/OnDemandResources.plist", "old plist")
        try project.file("out/.odrpack.lock", "")
        return project
    }

    /// The folder open for writing, as a build holds it while it commits.
    static func writer(_ path: String) throws -> BuildFolderSession.Writer {
        try BuildFolderSession.open(forWriting: FilePath(path), shownAs: path, wait: false)
    }

    /// Every file and folder under `path` with its bytes (folders as nil).
    func snapshot(_ path: String) throws -> [String: Data?] {
        var result: [String: Data?] = [:]
        for entry in try FolderWalk.entries(under: FilePath(path)) {
            let full = path + "/" + entry.path
            result[entry.path] =
                entry.status.kind == .directory ? nil : try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return result
    }

    /// The new packs written beside their names, and the changes that move them.
    func changes(_ project: TemporaryProject) throws -> OutputCommit.Changes {
        try project.file("out/OnDemandResources/\(TemporaryName.processPrefix)a", "new a")
        try project.file("out/OnDemandResources/\(TemporaryName.processPrefix)c", "new c")
        var changes = OutputCommit.Changes()
        changes.placements = [
            (
                FilePath(project.path("out/OnDemandResources/\(TemporaryName.processPrefix)a")),
                FilePath(project.path("out/OnDemandResources/a.assetpack"))
            ),
            (
                FilePath(project.path("out/OnDemandResources/\(TemporaryName.processPrefix)c")),
                FilePath(project.path("out/OnDemandResources/c.assetpack"))
            ),
        ]
        changes.removals = [FilePath(project.path("out/OnDemandResources/b.assetpack"))]
        changes.writes = ["OnDemandResources/a.assetpack", "OnDemandResources/c.assetpack", "OnDemandResources.plist"]
        changes.temporaryFolders = [FilePath(project.path("out/OnDemandResources"))]
        return changes
    }

    func documents(_ project: TemporaryProject) -> OutputCommit.Documents {
        OutputCommit.Documents(
            manifest: Array("new manifest".utf8),
            files: [
                (FilePath(project.path("out/OnDemandResources.plist")), Data("new plist".utf8)),
                (FilePath(project.path("out/AssetPackManifestTemplate.plist")), Data("new template".utf8)),
            ])
    }

    /// Removes this process's temporaries (what `PackOutput.removeTemporaryFiles` does after a failed commit).
    func removeOwnTemporaries(_ project: TemporaryProject) throws {
        for folder in ["out", "out/OnDemandResources"] {
            try OutputFolder.removeTemporaries(in: FilePath(project.path(folder)), prefix: TemporaryName.processPrefix)
        }
    }

    @Test func aCommitReplacesWhatItOwnsAndLeavesNoJournal() throws {
        let project = try folder()
        let changes = try changes(project)
        try OutputCommit(folder: try Self.writer(project.path("out"))).run(
            changes, make: { (documents(project), ()) }, finish: { _ in })
        let after = try snapshot(project.path("out"))
        #expect(
            after == [
                ".odrpack.lock": Data(), "odrpack-manifest.json": Data("new manifest".utf8),
                "OnDemandResources": nil, "OnDemandResources/a.assetpack": Data("new a".utf8),
                "OnDemandResources/c.assetpack": Data("new c".utf8),
                "OnDemandResources/user.assetpack": Data("the user's".utf8),
                "OnDemandResources.plist": Data("new plist".utf8),
                "AssetPackManifestTemplate.plist": Data("new template".utf8),
            ])
    }

    /// A failure while the documents are made, once every pack is placed, or just before the manifest's rename: each
    /// rolls back to the folder as it was, its manifest in place and no journal.
    @Test(arguments: ["make", "finish", "placement"])
    func aFailedCommitLeavesTheFolderAsItWas(step: String) throws {
        let project = try folder()
        let before = try snapshot(project.path("out"))
        var changes = try changes(project)
        if step == "placement" {
            // The second pack's temporary is gone: its rename fails after the first pack replaced the old one.
            try FileManager.default.removeItem(atPath: changes.placements[1].from.string)
            changes.placements[1].from = FilePath(changes.placements[1].from.string + "-missing")
        }
        #expect(throws: (any Error).self) {
            try OutputCommit(folder: try Self.writer(project.path("out"))).run(
                changes,
                make: {
                    if step == "make" { throw Failure() }
                    return (documents(project), ())
                },
                finish: { _ in if step == "finish" { throw Failure() } })
        }
        try removeOwnTemporaries(project)
        #expect(try snapshot(project.path("out")) == before)
    }

    /// A folder a killed commit left (the previous manifest as the journal, no manifest): a failed commit leaves it so,
    /// a finished one removes the journal.
    @Test func anInterruptedFolderStaysInterruptedUntilACommitFinishes() throws {
        let project = try folder()
        try FileManager.default.moveItem(
            atPath: project.path("out/odrpack-manifest.json"),
            toPath: project.path("out/" + OutputOwnership.journalName))
        let before = try snapshot(project.path("out"))
        #expect(throws: Failure.self) {
            try OutputCommit(folder: try Self.writer(project.path("out"))).run(
                try changes(project), make: { (documents(project), ()) }, finish: { _ in throw Failure() })
        }
        try removeOwnTemporaries(project)
        #expect(try snapshot(project.path("out")) == before)
        try OutputCommit(folder: try Self.writer(project.path("out"))).run(
            try changes(project), make: { (documents(project), ()) }, finish: { _ in })
        #expect(!FileManager.default.fileExists(atPath: project.path("out/" + OutputOwnership.journalName)))
        #expect(!FileManager.default.fileExists(atPath: project.path("out/" + OutputOwnership.writesName)))
        #expect(
            try Data(contentsOf: project.root.appendingPathComponent("out/odrpack-manifest.json"))
                == Data("new manifest".utf8))
    }

    /// The record of what a commit creates is there while it places packs, so the build after a kill owns them.
    @Test func theCommitRecordsWhatItCreatesBeforeItMovesAnything() throws {
        let project = try folder()
        var recorded: [String] = []
        var journaled = false
        try OutputCommit(folder: try Self.writer(project.path("out"))).run(
            try changes(project),
            make: {
                (documents(project), ())
            },
            finish: { _ in
                let ownership = try OutputOwnership.load(
                    BuildFolder(FilePath(project.path("out"))), state: BuildState(), needsManifest: true)
                recorded = ["OnDemandResources/a.assetpack", "OnDemandResources/c.assetpack"].filter(ownership.owns)
                journaled = FileManager.default.fileExists(atPath: project.path("out/" + OutputOwnership.journalName))
            })
        #expect(recorded == ["OnDemandResources/a.assetpack", "OnDemandResources/c.assetpack"])
        #expect(journaled)
    }

    /// A commit after an interrupted one carries its record on: if it is killed too, the build after it still owns
    /// what the first one created.
    @Test func theRecordOfAnInterruptedCommitIsCarriedOn() throws {
        let project = try folder()
        try FileManager.default.moveItem(
            atPath: project.path("out/odrpack-manifest.json"),
            toPath: project.path("out/" + OutputOwnership.journalName))
        try project.file("out/OnDemandResources/x.assetpack", "the first commit's")
        try Data("OnDemandResources/x.assetpack\0".utf8).write(
            to: project.root.appendingPathComponent("out/" + OutputOwnership.writesName))
        var owned: [String] = []
        try OutputCommit(folder: try Self.writer(project.path("out"))).run(
            try changes(project), make: { (documents(project), ()) },
            finish: { _ in
                let ownership = try OutputOwnership.load(
                    BuildFolder(FilePath(project.path("out"))), state: BuildState(), needsManifest: true)
                owned = ["OnDemandResources/x.assetpack", "OnDemandResources/a.assetpack"].filter(ownership.owns)
            })
        #expect(owned == ["OnDemandResources/x.assetpack", "OnDemandResources/a.assetpack"])
    }

    /// A record, journal or manifest that is there but cannot be read (here a folder: EISDIR, which bites as root
    /// too, as EACCES would not) is an error naming the path and the errno, never read as absent: reading it so
    /// would forget what an interrupted commit created (docs/build-output.md#atomic).
    @Test(arguments: [OutputOwnership.writesName, OutputOwnership.journalName])
    func anUnreadableRecordIsAnErrorNeverAbsent(name: String) throws {
        let project = try folder()
        if name == OutputOwnership.journalName {
            try FileManager.default.removeItem(atPath: project.path("out/odrpack-manifest.json"))
        }
        try FileManager.default.createDirectory(atPath: project.path("out/" + name), withIntermediateDirectories: false)
        let error = try #require(throws: ODRPackError.self) {
            try OutputOwnership.load(
                BuildFolder(FilePath(project.path("out"))), state: BuildState(), needsManifest: true)
        }
        #expect(error.path == FilePath(project.path("out/" + name)))
        #expect(error.systemError == SystemError(EISDIR))
        guard name == OutputOwnership.writesName else { return }
        // The commit reads the record too: it fails before anything moves.
        let before = try snapshot(project.path("out"))
        let failure = try #require(throws: ODRPackError.self) {
            try OutputCommit(folder: try Self.writer(project.path("out"))).run(
                try changes(project), make: { (documents(project), ()) }, finish: { _ in })
        }
        #expect(failure.systemError == SystemError(EISDIR))
        try removeOwnTemporaries(project)
        #expect(try snapshot(project.path("out")) == before)
    }

    /// The same for a manifest its owner cannot read (EACCES; modes do not bite as root).
    @Test(.enabled(if: getuid() != 0)) func anUnreadableManifestIsAnErrorNeverAbsent() throws {
        let project = try folder()
        let manifest = project.path("out/odrpack-manifest.json")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: manifest)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: manifest) }
        let error = try #require(throws: ODRPackError.self) {
            try OutputOwnership.load(
                BuildFolder(FilePath(project.path("out"))), state: BuildState(), needsManifest: true)
        }
        #expect(error.path == FilePath(manifest))
        #expect(error.systemError == SystemError(EACCES))
    }

    /// A document streamed in chunks that fails part way (its maker throws after 3 MiB, or the sink's file fails): the
    /// manifest or the plist is never renamed into place half-written, and the folder is as it was.
    @Test(arguments: ["manifest", "plist"])
    func aDocumentThatFailsMidStreamLeavesTheFolderAsItWas(document: String) throws {
        let project = try folder()
        let before = try snapshot(project.path("out"))
        let failing = StreamedDocument { sink in
            for _ in 0..<(3 * DocumentSink.chunkSize / 4096) {
                sink.buffer.append(contentsOf: [UInt8](repeating: 0x61, count: 4096))
                try sink.flushIfFull()
            }
            throw Failure()
        }
        var documents = documents(project)
        if document == "manifest" { documents.manifest = failing } else { documents.files[0].document = failing }
        let made = documents
        #expect(throws: Failure.self) {
            try OutputCommit(folder: try Self.writer(project.path("out"))).run(
                try changes(project), make: { (made, ()) }, finish: { _ in })
        }
        let manifestTemporary = TemporaryName.path(beside: project.path("out/odrpack-manifest.json"))
        let plistTemporary = TemporaryName.path(beside: project.path("out/OnDemandResources.plist"))
        #expect(!FileManager.default.fileExists(atPath: manifestTemporary))
        #expect(!FileManager.default.fileExists(atPath: plistTemporary))
        try removeOwnTemporaries(project)
        #expect(try snapshot(project.path("out")) == before)
    }

    /// A full disk while the streamed manifest is written (a 1 MB tmpfs, as root; the manifest 3 MiB): the commit fails
    /// with the disk's error through the Platform write helpers, and the folder is as it was.
    @Test(.enabled(if: SystemAbilities.canMountTmpfs, "needs root and tmpfs mounts"))
    func aFullDiskWhileTheManifestStreamsLeavesTheFolderAsItWas() throws {
        let project = try TemporaryProject()
        let disk = project.path("Disk")
        try project.folder("Disk")
        try #require(ThinSafetyTests.shell("mount -t tmpfs -o size=1m tmpfs '\(disk)'"), "mount was refused")
        defer { _ = ThinSafetyTests.shell("umount '\(disk)'") }
        try project.file("Disk/out/odrpack-manifest.json", "old manifest")
        try project.file("Disk/out/OnDemandResources.plist", "old plist")
        try project.file("Disk/out/.odrpack.lock", "")
        let before = try snapshot(disk + "/out")
        let large = [UInt8](repeating: 0x62, count: 3 * DocumentSink.chunkSize)
        var changes = OutputCommit.Changes()
        changes.writes = ["OnDemandResources.plist"]
        let documents = OutputCommit.Documents(
            manifest: StreamedDocument { sink in
                for start in stride(from: 0, to: large.count, by: 65_536) {
                    sink.buffer.append(contentsOf: large[start..<(start + 65_536)])
                    try sink.flushIfFull()
                }
            },
            files: [(FilePath(disk + "/out/OnDemandResources.plist"), StreamedDocument(bytes: Array("new plist".utf8)))]
        )
        do {
            try OutputCommit(folder: try Self.writer(disk + "/out")).run(
                changes, make: { (documents, ()) }, finish: { _ in })
            Issue.record("a 3 MiB manifest fit on a 1 MB disk")
        } catch {
            #expect("\(error)".contains("No space left on device"), "\(error)")
        }
        for folder in ["Disk/out"] {
            try OutputFolder.removeTemporaries(in: FilePath(project.path(folder)), prefix: TemporaryName.processPrefix)
        }
        #expect(try snapshot(disk + "/out") == before)
    }
}
