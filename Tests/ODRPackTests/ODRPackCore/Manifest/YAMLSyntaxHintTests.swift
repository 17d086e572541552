import Foundation
import ODRPackPlatform
import Testing

@testable import ODRPackCore

/// docs/manifest.md#syntax-errors: a YAML syntax error keeps libyaml's problem and its file:line:column, and adds
/// the fix for the common causes.
@Suite struct YAMLSyntaxHintTests {
    func syntaxError(_ text: String) -> String {
        let diagnostics = ManifestLoader().parse(
            data: Data(text.utf8), displayPath: "odrpack.yml", directory: FilePath("/tmp")
        ).diagnostics
        guard diagnostics.count == 1, let only = diagnostics.first, only.code == .manifestSyntax,
            let location = only.location
        else { return "not one syntax error: \(diagnostics)" }
        return "\(location.line):\(location.column): \(only.message)"
    }

    let head = "version: 1\nbundle-id: com.example.x\nresources:\n"

    @Test func anUnquotedValueStartingWithAnIndicatorIsToldToQuoteIt() {
        #expect(
            syntaxError(head + "  - glob: **/*.png\n    tags: [art]\n")
                == "4:12: invalid YAML: did not find expected alphabetic or numeric character while scanning an alias: quote it: glob: \"**/*.png\""
        )
        #expect(
            syntaxError(head + "  - {glob: *.png, tags: [art]}\n")
                == "4:13: invalid YAML: did not find expected alphabetic or numeric character while scanning an alias: quote it: glob: \"*.png\""
        )
        #expect(
            syntaxError(head + "  - path: &/hero.png\n    tags: [art]\n").hasSuffix(": quote it: path: \"&/hero.png\""))
        #expect(
            syntaxError(head + "  - path: @2x/hero.png\n    tags: [art]\n").hasSuffix(
                ": quote it: path: \"@2x/hero.png\""))
        #expect(
            syntaxError(head + "  - path: %20\n    tags: [art]\n").hasSuffix(": quote it: path: \"%20\""))
        #expect(
            syntaxError(head + "  - path: a\n    tags: [art]\nexclude:\n  - *.psd\n").hasSuffix(
                ": quote it: - \"*.psd\""))
    }

    /// `!` and `&` may parse, as a tag or an anchor, and leave the value empty: the problem found then gets the fix.
    @Test func aValueReadAsATagOrAnAnchorIsToldToQuoteIt() {
        func problems(_ text: String) -> [String] {
            ManifestLoader().parse(
                data: Data(text.utf8), displayPath: "odrpack.yml", directory: FilePath("/")
            )
            .diagnostics.map(\.message)
        }
        #expect(
            problems(head + "  - glob: !Levels/**/*.txt\n    tags: [art]\n") == [
                "'glob' must be a string, not an empty value: quote it: glob: \"!Levels/**/*.txt\""
            ])
        #expect(
            problems(head + "  - path: Levels\n    tags: [&lvl]\n") == [
                "empty tag in 'tags': remove it or give it a name: quote it: \"&lvl\""
            ])
        // Without an indicator on the line, the problem alone.
        #expect(
            problems(head + "  - path: Levels\n    tags: [\"\"]\n") == [
                "empty tag in 'tags': remove it or give it a name"
            ])
    }

    @Test func aTabInTheIndentationIsNamed() {
        let message = syntaxError(head + "  - path: a\n\ttags: [art]\n")
        #expect(message.hasPrefix("5:"))
        #expect(message.hasSuffix(": YAML does not allow tabs: indent with spaces"))
    }

    @Test func aKeyOutOfLineWithItsSiblingsIsNamed() {
        let deeper = syntaxError("version: 1\n  bundle-id: com.example.x\n")
        #expect(deeper.hasPrefix("2:"))
        #expect(
            deeper.hasSuffix(
                ": 'bundle-id' starts in column 3, the key above it in column 1: keys of one mapping start in the same column (indent with spaces, the same number for every sibling)"
            ))
        let shallower = syntaxError(head + "  - path: a\n   tags: [art]\n")
        #expect(
            shallower.hasSuffix(
                "'tags' starts in column 4, the key above it in column 5: keys of one mapping start in the same column (indent with spaces, the same number for every sibling)"
            ), "\(shallower)")
    }

    @Test func aDuplicateKeyIsReportedAtItsSecondOccurrence() {
        #expect(
            syntaxError("version: 1\nbundle-id: com.example.x\nversion: 1\n")
                == "3:1: duplicate key 'version' in one mapping: keep one")
        #expect(
            syntaxError(head + "  - path: a\n    tags: [a]\n  - path: b\n    tags: [b]\n    path: c\n")
                == "8:5: duplicate key 'path' in one mapping: keep one")
        #expect(
            syntaxError(head + "  - {path: a, tags: [a], path: b}\n")
                == "4:26: duplicate key 'path' in one mapping: keep one")
    }

    @Test func otherErrorsKeepLibyamlsWords() {
        let message = syntaxError(head + "  - path: [a\n")
        #expect(message.hasPrefix("5:1: invalid YAML: "))
        #expect(!message.contains("quote it") && !message.contains("tabs"))
    }
}
