import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

/// `InputRoot.check(manifestPath:)` (docs/commands.md#input-root): the manifest and its resources-root must lie inside
/// `--input-root`, links resolved, before anything under resources-root is read.
@Suite struct InputRootManifestTests {
    /// A package `in/game/` (the root is `in/`) with a resource, and a host file beside the root.
    func project(resourcesRoot: String) throws -> TemporaryProject {
        let project = try TemporaryProject()
        try project.file("in/game/Resources/Level/one.json")
        try project.file("host/secret.txt")
        try project.manifest(
            """
            version: 1
            bundle-id: com.example.game
            resources-root: \(resourcesRoot)
            resources:
              - path: Level
                tags: [level]
            """, name: "in/game/odrpack.yml")
        return project
    }

    func message(_ project: TemporaryProject) throws -> String? {
        let root = try InputRoot(project.path("in"))
        do {
            try root.check(manifestPath: project.path("in/game/odrpack.yml"))
            return nil
        } catch {
            return "\(error)"
        }
    }

    func outside(_ project: TemporaryProject, resourcesRoot: String, leads: String) -> String {
        """
        resources-root '\(resourcesRoot)' leads to '\(leads)', outside --input-root '\(project.path("in"))': odrpack \
        reads no file outside it (the inputs a build system declared); make resources-root a relative path to a \
        folder inside it (Bazel: in the manifest's package, its files in srcs)
        """
    }

    @Test(arguments: ["Resources", ".", "..", "../game/Resources", "Missing"])
    func aResourcesRootInsidePasses(resourcesRoot: String) throws {
        #expect(try message(project(resourcesRoot: resourcesRoot)) == nil)
    }

    /// `../..` from `in/game/` is the folder that holds the root; `../../host` a folder beside it.
    @Test(arguments: [("../..", ""), ("../../host", "host"), ("../../host/missing", "host/missing")])
    func aRelativeResourcesRootLeadingOutIsRefused(resourcesRoot: String, leads: String) throws {
        let project = try project(resourcesRoot: resourcesRoot)
        #expect(
            try message(project)
                == outside(project, resourcesRoot: resourcesRoot, leads: project.path(leads)))
    }

    /// An absolute resources-root names a folder of the machine: refused (here the host folder beside the root, and
    /// `/etc`).
    @Test func anAbsoluteResourcesRootIsRefused() throws {
        let project = try project(resourcesRoot: "/etc")
        #expect(try message(project) == outside(project, resourcesRoot: "/etc", leads: "/etc"))
        let host = project.path("host")
        try project.manifest(
            "version: 1\nbundle-id: com.example.game\nresources-root: \(host)\n", name: "in/game/odrpack.yml")
        #expect(try message(project) == outside(project, resourcesRoot: host, leads: host))
    }

    /// resources-root named inside, but a link that leads out: what counts is where it leads.
    @Test func aResourcesRootThatIsALinkLeadingOutIsRefused() throws {
        let project = try project(resourcesRoot: "Linked")
        try project.symlink("in/game/Linked", to: project.path("host"))
        #expect(try message(project) == outside(project, resourcesRoot: "Linked", leads: project.path("host")))
    }

    /// The manifest itself must be inside, and a manifest that cannot be read is left to the planner.
    @Test func theManifestMustBeInside() throws {
        let project = try project(resourcesRoot: "Resources")
        try project.manifest("version: 1\n", name: "outside.yml")
        let root = try InputRoot(project.path("in"))
        #expect(
            throws: ODRPackError.inputRoot(
                .leadsOutside(
                    what: "the manifest '\(project.path("outside.yml"))'", leads: FilePath(project.path("outside.yml")),
                    root: project.path("in"), fix: "pass a manifest inside it (Bazel: the rule's manifest)"))
        ) { try root.check(manifestPath: project.path("outside.yml")) }
        try project.file("in/broken.yml", "resources: [")
        try root.check(manifestPath: project.path("in/broken.yml"))
    }
}
