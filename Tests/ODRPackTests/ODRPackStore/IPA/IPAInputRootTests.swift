import Foundation
import Testing

/// `ipa --input-root` (docs/commands.md#input-root): an app or build folder outside the root, or an app (a folder or
/// an .ipa) holding a symbolic link that is absolute or leads out of it, is exit 2 with no IPA written; relative links
/// inside the app are kept as always, and without the option nothing changes.
extension IPACommandTests {
    func refusal(_ link: String, target: String, which: String, root: String = ".") -> String {
        """
        odrpack: error: the app holds the symbolic link '\(link)' to '\(target)', which \(which): under --input-root \
        '\(root)' odrpack reads only the inputs a build system declared; replace the link with the file, or with a \
        relative link to a file inside the app

        """
    }

    @Test func anAppWithAnAbsoluteLinkIsRefused() throws {
        let project = try thinTests.builtGame()
        try project.symlink("Game.app/Secrets/hostname", to: "/etc/hostname")
        let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--input-root", "."])
        #expect(output.status == 2)
        #expect(output.stderr == refusal("Secrets/hostname", target: "/etc/hostname", which: "is absolute"))
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
        // Without the option, the link is stored as a link, as before.
        let plain = try ipa(project, ["Game.app", "out", "-o", "Game.ipa"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(
            try Self.read(project.path("Game.ipa")).entries["Payload/Game.app/Secrets/hostname"]?.link
                == "/etc/hostname")
    }

    @Test func anAppWithALinkLeadingOutIsRefused() throws {
        let project = try thinTests.builtGame()
        try project.file("outside.txt", "host file")
        try project.symlink("Game.app/outside.txt", to: "../outside.txt")
        let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--input-root", "."])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == refusal(
                    "outside.txt", target: "../outside.txt",
                    which: "leads outside it, to '\(project.path("outside.txt"))'"))
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
    }

    /// An .ipa's links are checked once it is unpacked, before thinning reads through them.
    @Test func anIPAWithAnAbsoluteLinkIsRefused() throws {
        let project = try thinTests.builtGame()
        try project.symlink("Game.app/hostname", to: "/etc/hostname")
        #expect(try ipa(project, ["Game.app", "out", "-o", "Input.ipa"]).status == 0)
        let output = try ipa(project, ["Input.ipa", "out", "-o", "Game.ipa", "--input-root", "."])
        #expect(output.status == 2)
        #expect(output.stderr == refusal("hostname", target: "/etc/hostname", which: "is absolute"))
        #expect(!FileManager.default.fileExists(atPath: project.path("Game.ipa")))
    }

    @Test func anAppOutsideTheRootIsRefused() throws {
        let project = try thinTests.builtGame()
        let output = try ipa(project, ["Game.app", "out", "-o", "Game.ipa", "--input-root", "out"])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == """
                odrpack: error: the app 'Game.app' leads to '\(project.path("Game.app"))', outside --input-root \
                'out': odrpack reads no file outside it (the inputs a build system declared); pass one inside it \
                (Bazel: a declared input of odrpack_ipa)

                """)
    }

    /// A framework's relative links stay inside the app: the IPA is the one written without the option.
    @Test func relativeLinksInsideTheAppPassUnchanged() throws {
        let project = try signedGame()
        let confined = try ipa(project, ["Game.app", "out", "-o", "confined.ipa", "--input-root", "."])
        #expect(confined.status == 0, "\(confined.stderr)")
        #expect(try ipa(project, ["Game.app", "out", "-o", "plain.ipa"]).status == 0)
        #expect(
            FileManager.default.contents(atPath: project.path("confined.ipa"))
                == FileManager.default.contents(atPath: project.path("plain.ipa")))
        #expect(
            try Self.read(project.path("confined.ipa")).entries["Payload/Game.app/Frameworks/Kit.framework/Kit"]?.link
                == "Versions/A/Kit")
    }
}
