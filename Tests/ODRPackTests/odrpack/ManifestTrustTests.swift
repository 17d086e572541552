import Foundation
import Testing

/// docs/commands.md#scripts (SPEC 6.2, "Finding the manifest"): a manifest found (not given) is named when it is not
/// in the current folder, used only when the user or root owns it and no one else may write it, found from the
/// folder as the shell names it (never through a symbolic link's real path), and a current folder that cannot be
/// searched from is a clear error, fast.
@Suite struct ManifestTrustTests {
    static let manifest = "version: 1\nbundle-id: com.example.trusted\nresources: []\n"

    /// repo/.git, repo/odrpack.yml, and the folder repo/a/b the commands run in.
    func repository() throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.folder("repo/.git")
        try project.folder("repo/a/b")
        try project.file("repo/odrpack.yml", Self.manifest)
        return project
    }

    /// `command` run by bash in `folder` (as the shell's `cd` sets `$PWD`), at most 20 s.
    func run(_ command: String, in folder: String, _ project: TemporaryProject) throws -> CommandRunner.Output {
        try CommandRunner.shell("cd '\(folder)' && timeout 20 \(command)", in: project.root)
    }

    /// Found above: a note names it (relative and absolute); found here, or given: no note; `--quiet`: no note.
    @Test func aManifestFoundAboveIsNamed() throws {
        let project = try repository()
        let absolute = project.path("repo/odrpack.yml")
        let above = try run("\"$ODRPACK\" validate", in: "repo/a/b", project)
        #expect(above.status == 0, "\(above.stderr)")
        #expect(
            above.stderr
                == "odrpack: note: using '../../odrpack.yml' ('\(absolute)'): there is no odrpack.yml in the current folder\n"
        )
        for (command, folder) in [
            ("\"$ODRPACK\" validate", "repo"), ("\"$ODRPACK\" validate ../../odrpack.yml", "repo/a/b"),
            ("\"$ODRPACK\" validate --quiet", "repo/a/b"),
        ] {
            let output = try run(command, in: folder, project)
            #expect(output.status == 0, "\(command): \(output.stderr)")
            #expect(output.stderr.isEmpty, "\(command): \(output.stderr)")
        }
    }

    /// A manifest anyone may write, here or above, is refused (exit 2, why and the fix); given as MANIFEST it is read.
    @Test(arguments: [(mode_t(0o666), "anyone may write it"), (0o646, "anyone may write it"), (0o602, "anyone")])
    func aManifestOthersMayWriteIsRefused(mode: mode_t, why: String) throws {
        let project = try repository()
        #expect(chmod(project.path("repo/odrpack.yml"), mode) == 0)
        for folder in ["repo/a/b", "repo"] {
            let output = try run("\"$ODRPACK\" plan", in: folder, project)
            #expect(output.status == 2, "\(folder): \(output.stderr)")
            #expect(output.stderr.hasPrefix("odrpack: error: the manifest found, '"), "\(output.stderr)")
            #expect(output.stderr.contains("is not used: \(why)"), "\(output.stderr)")
            #expect(output.stderr.contains("pass it as MANIFEST to use it anyway"), "\(output.stderr)")
        }
        #expect(try run("\"$ODRPACK\" plan ../../odrpack.yml", in: "repo/a/b", project).status == 0)
    }

    /// Group write: the user's own group (per-user groups, umask 002) is the user's, so the manifest is used; another
    /// group's is refused.
    @Test(.enabled(if: getuid() == 0, "needs root to give the file to another group"))
    func aManifestAnotherGroupMayWriteIsRefused() throws {
        let project = try repository()
        #expect(chmod(project.path("repo/odrpack.yml"), 0o664) == 0)
        let own = try run("\"$ODRPACK\" plan", in: "repo/a/b", project)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(chown(project.path("repo/odrpack.yml"), getuid(), 4321) == 0)
        let other = try run("\"$ODRPACK\" plan", in: "repo/a/b", project)
        #expect(other.status == 2)
        #expect(other.stderr.contains("is not used: its group (gid 4321) may write it"), "\(other.stderr)")
    }

    /// One another user owns is refused (root owns it, or the user running odrpack: used).
    @Test(.enabled(if: getuid() == 0, "needs root to give the file away"))
    func aManifestAnotherUserOwnsIsRefused() throws {
        let project = try repository()
        #expect(chown(project.path("repo/odrpack.yml"), 4321, 4321) == 0)
        let output = try run("\"$ODRPACK\" build -o out", in: "repo/a/b", project)
        #expect(output.status == 2)
        #expect(output.stderr.contains("is not used: it belongs to another user (uid 4321)"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.path("repo/a/b/out")))
        #expect(chown(project.path("repo/odrpack.yml"), 0, 0) == 0)
        #expect(try run("\"$ODRPACK\" plan", in: "repo/a/b", project).status == 0)
    }

    /// A current folder reached through a symbolic link is climbed from the link's side (`$PWD`): the manifest above
    /// the link, not the one above the link's target. `cd -P` (no logical path) climbs the real one.
    @Test func aLinkedCurrentFolderIsNotClimbedThroughItsRealPath() throws {
        let project = try repository()
        try project.folder("elsewhere/.git")
        try project.folder("elsewhere/work")
        try project.file("elsewhere/odrpack.yml", "version: 1\nbundle-id: com.example.elsewhere\nresources: []\n")
        try project.symlink("repo/work", to: project.path("elsewhere/work"))
        let logical = try run("\"$ODRPACK\" plan --json", in: "repo/work", project)
        #expect(logical.status == 0, "\(logical.stderr)")
        #expect(try logical.json()["bundleId"] as? String == "com.example.trusted")
        let physical = try CommandRunner.shell("cd -P repo/work && \"$ODRPACK\" plan --json", in: project.root)
        #expect(try physical.json()["bundleId"] as? String == "com.example.elsewhere")
        // A $PWD that names another folder is not believed.
        let stale = try CommandRunner.shell(
            "cd repo/work && PWD=\"$(dirname \"$PWD\")/a\" \"$ODRPACK\" plan --json", in: project.root)
        #expect(try stale.json()["bundleId"] as? String == "com.example.elsewhere")
    }

    /// A removed current folder, and one whose path is over 1,024 bytes, are exit 2 saying so, at once; a manifest
    /// given in the long folder is still read.
    @Test func aFolderThatCannotBeSearchedFromIsAClearError() throws {
        let project = try repository()
        let removed = try CommandRunner.shell(
            "mkdir gone && cd gone && rmdir ../gone && timeout 20 \"$ODRPACK\" plan", in: project.root)
        #expect(removed.status == 2)
        #expect(
            removed.stderr
                == "odrpack: error: the current folder no longer exists (was it removed?): cd to an existing folder, or pass MANIFEST\n"
        )
        let name = String(repeating: "d", count: 200)
        let long = (1...6).map { _ in name }.joined(separator: "/")
        try project.folder("repo/" + long)
        let deep = try run("\"$ODRPACK\" plan", in: "repo/" + long, project)
        #expect(deep.status == 2)
        #expect(
            deep.stderr.hasPrefix("odrpack: error: the current folder's path is over 1024 bytes ("), "\(deep.stderr)")
        try project.file("repo/" + long + "/odrpack.yml", Self.manifest)
        let given = try run("\"$ODRPACK\" validate odrpack.yml", in: "repo/" + long, project)
        #expect(given.status == 0, "\(given.stderr)")
    }

    /// A manifest is read whole only up to a bound: `/dev/zero` or a huge file fails at once, saying so.
    @Test(arguments: ["/dev/zero", "big.yml"])
    func aManifestWithoutEndIsRefusedFast(path: String) throws {
        let project = try repository()
        try project.sparseFile("repo/big.yml", size: 65 << 20)
        let output = try run("\"$ODRPACK\" validate \(path)", in: "repo", project)
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "odrpack: error: the manifest '\(path)' is over 67108864 bytes, more than it can be: is it the right file?\n"
        )
    }
}
