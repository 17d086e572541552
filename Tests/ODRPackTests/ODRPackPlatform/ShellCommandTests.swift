import Testing

@testable import ODRPackPlatform

/// A user's command template (docs/build-output.md `--sign-command`, docs/background-assets.md `--ba-package`): each
/// placeholder becomes its value in single quotes, in one pass.
@Suite struct ShellCommandTests {
    @Test func everyPathPlaceholderBecomesTheQuotedPath() {
        #expect(
            ShellCommand.filling("codesign -s \"$ID\" {} && ls {}", path: "/b/it's.app")
                == "codesign -s \"$ID\" '/b/it'\\''s.app' && ls '/b/it'\\''s.app'")
        #expect(ShellCommand.filling("echo none", path: "/x") == "echo none")
        #expect(ShellCommand.filling("{ {x} {}", path: "p") == "{ {x} 'p'")
    }

    @Test func aValueHoldingAnotherPlaceholderKeepsIt() {
        let filled = ShellCommand.filling(
            "ba-package {manifest} -o {output}", with: ["{manifest}": "/o/{output}/m.json", "{output}": "/o/p.aar"])
        #expect(filled == "ba-package '/o/{output}/m.json' -o '/o/p.aar'")
    }
}
