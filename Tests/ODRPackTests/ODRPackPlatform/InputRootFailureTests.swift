import Foundation
import Testing

@testable import ODRPackPlatform

/// `--input-root`'s failures carry their facts (the folder as given, what the input is, where it leads) and are said
/// in one place: each prints, byte for byte, the sentence `InputRoot` wrote before it held facts, and keeps the
/// `--json` code `unusable-input` (docs/commands.md#json).
@Suite struct InputRootFailureTests {
    static let expected: [(InputRootFailure, String)] = [
        (.notAFolder("in/x"), "--input-root 'in/x' is not a folder: name the folder the inputs are in"),
        (
            .leadsOutside(
                what: "the app 'Game.app'", leads: "/w/Game.app", root: "in", fix: "pass an app inside it"),
            "the app 'Game.app' leads to '/w/Game.app', outside --input-root 'in': odrpack reads no file outside it "
                + "(the inputs a build system declared); pass an app inside it"
        ),
        (
            .linkLeadsOutside(what: "the app", link: "Data/l", target: "/etc/hosts", leads: nil, root: "in"),
            "the app holds the symbolic link 'Data/l' to '/etc/hosts', which is absolute: under --input-root 'in' "
                + "odrpack reads only the inputs a build system declared; replace the link with the file, or with a "
                + "relative link to a file inside the app"
        ),
        (
            .linkLeadsOutside(what: "the build folder", link: "l", target: "../x", leads: "/w/x", root: "in"),
            "the build folder holds the symbolic link 'l' to '../x', which leads outside it, to '/w/x': under "
                + "--input-root 'in' odrpack reads only the inputs a build system declared; replace the link with "
                + "the file, or with a relative link to a file inside the build folder"
        ),
    ]

    @Test func eachFailurePrintsItsSentence() {
        for (failure, message) in Self.expected {
            #expect(failure.description == message)
            #expect(ODRPackError.inputRoot(failure).description == message)
            #expect(ODRPackError.inputRoot(failure).jsonCode == "unusable-input")
        }
    }

    /// The producer throws the facts: the link as found under the folder, its target as read, where it leads.
    @Test func aLinkLeadingOutsideIsThrownAsItsFacts() throws {
        let project = try TemporaryProject()
        try project.file("in/app/a")
        try project.file("out/x")
        try project.symlink("in/app/absolute", to: "/etc/hosts")
        let root = try InputRoot(project.path("in"))
        #expect(
            throws: ODRPackError.inputRoot(
                .linkLeadsOutside(
                    what: "the app", link: "absolute", target: "/etc/hosts", leads: nil, root: project.path("in")))
        ) { try root.checkLinks(under: FilePath(project.path("in/app")), "the app") }
    }
}
