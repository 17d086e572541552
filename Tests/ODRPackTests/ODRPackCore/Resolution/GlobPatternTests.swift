import Testing

@testable import ODRPackCore

@Suite struct GlobPatternTests {
    func matches(_ pattern: String, _ path: String) -> Bool { GlobPattern(pattern)!.matches(path) }

    @Test func starStaysInsideOneComponent() {
        #expect(matches("*.png", "a.png"))
        #expect(!matches("*.png", "dir/a.png"))
        #expect(matches("Levels/*/scene.json", "Levels/L1/scene.json"))
        #expect(!matches("Levels/*/scene.json", "Levels/L1/x/scene.json"))
    }

    @Test func doubleStarMatchesAnyDepth() {
        #expect(matches("Audio/**/*.caf", "Audio/a.caf"))
        #expect(matches("Audio/**/*.caf", "Audio/x/y/a.caf"))
        #expect(!matches("Audio/**/*.caf", "Other/a.caf"))
        #expect(matches("**/*.psd", "a.psd"))
        #expect(matches("**/*.psd", "x/y/a.psd"))
        #expect(matches("Art/**", "Art/x/y.png"))
        #expect(!matches("Art/**", "Art"))
        #expect(matches("**", "anything/at/all"))
    }

    @Test func questionMarkAndClassesMatchCharactersNotBytes() {
        #expect(matches("level?.json", "level1.json"))
        #expect(matches("level?.json", "levelé.json"))
        #expect(!matches("level?.json", "level12.json"))
        #expect(matches("level[0-9].json", "level7.json"))
        #expect(!matches("level[!0-9].json", "level7.json"))
        #expect(matches("[éa]b", "éb"))
        #expect(matches("a\\*b", "a*b"))
        #expect(!matches("a\\*b", "axb"))
    }

    @Test func prunesFoldersThatCannotMatch() {
        let glob = GlobPattern("Audio/Music/*.caf")!
        #expect(glob.couldMatch(filesIn: ["Audio", "Music"]))
        #expect(!glob.couldMatch(filesIn: ["Audio"]))
        #expect(!glob.couldMatch(filesIn: ["Video", "Music"]))
        let deep = GlobPattern("Audio/**/*.caf")!
        #expect(deep.couldMatch(filesIn: ["Audio", "x", "y"]))
        #expect(!deep.couldMatch(filesIn: ["Levels"]))
        #expect(!deep.couldMatch(filesIn: []))
    }

    @Test func reportsAnUnclosedClass() {
        #expect(GlobPattern.syntaxProblem("a[b") != nil)
        #expect(GlobPattern.syntaxProblem("a[b]") == nil)
        #expect(GlobPattern("a[b") == nil)
    }

    /// Found by make fuzz: many `**` segments made matching take exponential time.
    @Test(.timeLimit(.minutes(1)))
    func manyDoubleStarsMatchInPolynomialTime() throws {
        let pattern = try #require(GlobPattern(String(repeating: "**/", count: 24) + "*.png"))
        let deep = (0..<40).map { "d\($0)" }.joined(separator: "/")
        #expect(!pattern.matches(deep + "/file.jpg"))
        #expect(pattern.matches(deep + "/file.png"))
        let mixed = try #require(GlobPattern("**/a*/**/b*/**/c*/**/d*/**/e*/**/*.x"))
        #expect(!mixed.matches(Array(repeating: "ab", count: 60).joined(separator: "/") + "/f.x"))
    }
}
