import Testing

@testable import ODRPackPlatform

/// docs/manifest.md: version-control folders are never packed, at any depth; names are compared by bytes.
@Suite struct VersionControlTests {
    @Test func theFiveFolderNames() {
        #expect(VersionControl.folderNames == [".git", ".svn", ".hg", ".bzr", "CVS"])
        for name in VersionControl.folderNames { #expect(VersionControl.isFolderName(name), "\(name)") }
        for name in [".gitignore", "cvs", ".GIT", "git", "", ".hg2", "CVS/"] {
            #expect(!VersionControl.isFolderName(name), "\(name)")
        }
        #expect(Array(".git".utf8).withUnsafeBufferPointer(VersionControl.isGit))
        #expect(!Array(".svn".utf8).withUnsafeBufferPointer(VersionControl.isGit))
    }

    @Test func anyComponentOfAPath() {
        #expect(VersionControl.containsFolderName("Levels/.svn/entries"))
        #expect(VersionControl.containsFolderName("CVS"))
        #expect(!VersionControl.containsFolderName("Levels/svn/.gitkeep"))
    }
}
