import Foundation
import Testing

@testable import ODRPackPlatform

/// `InputRoot` (`--input-root`, docs/commands.md#input-root): a path is inside only once every link on its way is
/// resolved, whatever its spelling, and every link of an app or a build folder must lead inside it, never absolute.
@Suite struct InputRootTests {
    /// A project with the root `in/` (a file, a folder and a link inside) and a file beside it, outside.
    func project() throws -> (project: TemporaryProject, root: InputRoot) {
        let project = try TemporaryProject()
        try project.file("in/a/file.txt")
        try project.file("outside.txt")
        return (project, try InputRoot(project.path("in")))
    }

    func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theRootIsResolvedAndMustBeAFolder() throws {
        let project = try TemporaryProject()
        try project.file("real/x")
        try project.symlink("link", to: "real")
        #expect(try InputRoot(project.path("link")).path == FilePath(project.path("real")))
        #expect(try InputRoot(project.path("link")).given == project.path("link"))
        #expect(throws: ODRPackError.usage("--input-root is empty or holds a NUL: name the folder the inputs are in")) {
            try InputRoot("")
        }
        #expect(
            throws: ODRPackError.inputRoot(.notAFolder(project.path("real/x")))
        ) { try InputRoot(project.path("real/x")) }
        #expect(throws: ODRPackError.self) { try InputRoot(project.path("missing")) }
    }

    @Test func pathsInsideTheRootPass() throws {
        let (project, root) = try project()
        try root.check(FilePath(project.path("in/a/file.txt")), "x", fix: "y")
        try root.check(FilePath(project.path("in")), "x", fix: "y")
        // Not there yet: its nearest folder decides.
        try root.check(FilePath(project.path("in/a/missing/deeper")), "x", fix: "y")
        // `..` that comes back inside.
        try root.check(FilePath(project.path("in/a/../a/file.txt")), "x", fix: "y")
    }

    /// `..`, an absolute path and a link each lead out, and the message says where to.
    @Test func pathsLeadingOutAreRefusedNamingWhereTheyLead() throws {
        let (project, root) = try project()
        try project.symlink("in/escape", to: "../outside.txt")
        try project.symlink("in/folder-out", to: project.path(""))
        let outside = project.path("outside.txt")
        for (path, leads) in [
            (project.path("in/../outside.txt"), outside), ("/etc", "/etc"), (project.path("in/escape"), outside),
            (project.path("in/folder-out/missing"), project.path("missing")),
            (project.path("in/a/../.."), project.path("")),
        ] {
            #expect(
                message { try root.check(FilePath(path), "resources-root 'R'", fix: "fix it") }
                    == """
                    resources-root 'R' leads to '\(leads)', outside --input-root '\(project.path("in"))': odrpack \
                    reads no file outside it (the inputs a build system declared); fix it
                    """, "\(path)")
        }
        // A prefix of the root's name is not the root: "in2" is not inside "in".
        try project.file("in2/x")
        #expect(message { try root.check(FilePath(project.path("in2/x")), "x", fix: "y") } != nil)
    }

    @Test func linksThatStayInsideTheFolderPass() throws {
        let (project, root) = try project()
        try project.file("in/App.app/Frameworks/Kit.framework/Versions/A/Kit")
        try project.symlink("in/App.app/Frameworks/Kit.framework/Versions/Current", to: "A")
        try project.symlink("in/App.app/Frameworks/Kit.framework/Kit", to: "Versions/Current/Kit")
        try project.symlink("in/App.app/dangling", to: "not-there")
        try root.checkLinks(under: FilePath(project.path("in/App.app")), "the app")
    }

    func linkMessage(target: (TemporaryProject) -> String) throws -> (message: String?, project: TemporaryProject) {
        let project = try TemporaryProject()
        try project.file("in/App.app/Info.plist")
        try project.file("in/other/file")
        try project.file("outside.txt")
        try project.symlink("in/App.app/d/self", to: ".")
        try project.symlink("in/App.app/d/secret", to: target(project))
        let root = try InputRoot(project.path("in"))
        return (message { try root.checkLinks(under: FilePath(project.path("in/App.app")), "the app") }, project)
    }

    func expected(_ project: TemporaryProject, target: String, which: String) -> String {
        """
        the app holds the symbolic link 'd/secret' to '\(target)', which \(which): under --input-root \
        '\(project.path("in"))' odrpack reads only the inputs a build system declared; replace the link with the file, \
        or with a relative link to a file inside the app
        """
    }

    /// An absolute link is refused wherever it leads, inside the app too: it names a place of the machine that made it.
    @Test func absoluteLinksAreRefused() throws {
        let (message, project) = try linkMessage { _ in "/etc/hostname" }
        #expect(message == expected(project, target: "/etc/hostname", which: "is absolute"))
        var inside = ""
        let (insideMessage, insideProject) = try linkMessage {
            inside = $0.path("in/App.app/Info.plist")
            return inside
        }
        #expect(insideMessage == expected(insideProject, target: inside, which: "is absolute"))
    }

    /// A relative link that leads out of the app is refused, inside the root or not, and so is one that leads out
    /// only through another link: `d/self` is `d`, so `d/self/../..` is the folder above the app, though it reads as
    /// the app itself.
    @Test(arguments: [
        ("../../other/file", "in/other/file"), ("../../../outside.txt", "outside.txt"), ("self/../..", "in"),
    ])
    func relativeLinksLeadingOutAreRefused(target: String, leads: String) throws {
        let (message, project) = try linkMessage { _ in target }
        #expect(
            message == expected(project, target: target, which: "leads outside it, to '\(project.path(leads))'"))
    }
}
