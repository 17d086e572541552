import Foundation
import Testing

@testable import ODRPackCore

/// Docs that stay true (docs/install.md): every odrpack version the README, docs/ and bazel/ name is the package's
/// own, and the README's command synopsis and docs/commands.md name every subcommand and option `--help` shows. A new
/// subcommand fails here until both documents have it.
@Suite struct DocsInStepTests {
    /// Versions in those files that are not odrpack's, with what they are.
    static let foreignVersions: [String: String] = [
        "4.2.3": "Bazel (Debian's bazel-bootstrap)", "4.4.1": "the App Store Connect API",
        "0.0.10": "the Bazel platforms module", "3.4.30": "libstdc++'s symbol version GLIBCXX_3.4.30",
        // The symbol versions of docs/install.md#what-the-linux-binary-needs-the-c-library.
        "3.4.29": "libstdc++'s GLIBCXX_3.4.29 (GCC 11)", "1.3.11": "libstdc++'s CXXABI_1.3.11",
        "2.2.5": "glibc's first x86_64 version GLIBC_2.2.5", "3.3.1": "libgcc_s's GCC_3.3.1",
        "4.2.0": "libgcc_s's GCC_4.2.0", "7.0.0": "libgcc_s's GCC_7.0.0",
    ]

    /// The files whose versions are odrpack's: the README, docs/ (but performance.md, which records measurements of
    /// earlier releases) and bazel/.
    static func documents() throws -> [(path: String, text: String)] {
        let root = TestPaths.repository
        var paths = ["README.md"]
        for folder in ["docs", "bazel"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let name = enumerator?.nextObject() as? String {
                guard [".md", ".bazel", ".bzl", ".1", "WORKSPACE"].contains(where: { name.hasSuffix($0) }),
                    name != "performance.md"
                else { continue }
                paths.append(folder + "/" + name)
            }
        }
        return try paths.sorted().map { path in
            (path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// Every `x.y.z` (not part of a longer dotted number, such as an IP address) that is neither `current` nor a
    /// known foreign version: `path:line: version`.
    static func staleVersions(in documents: [(path: String, text: String)], current: String) -> [String] {
        // NSRegularExpression: Swift's own regexes have no lookbehind.
        let pattern = try! NSRegularExpression(pattern: #"(?<![\d.])\d+\.\d+\.\d+(?![\d.]*\d)"#)
        var stale: [String] = []
        for (path, text) in documents {
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                for match in pattern.matches(in: line, range: range) {
                    let version = String(line[Range(match.range, in: line)!])
                    if version != current && foreignVersions[version] == nil {
                        stale.append("\(path):\(number + 1): \(version)")
                    }
                }
            }
        }
        return stale
    }

    @Test func everyVersionInTheDocsIsThePackages() throws {
        let documents = try Self.documents()
        #expect(documents.contains { $0.path == "bazel/MODULE.bazel" })
        #expect(documents.contains { $0.path == "docs/bazel.md" })
        #expect(Self.staleVersions(in: documents, current: ToolVersion.current) == [])
        // A version planted in a copy is found, with its place; IP addresses and foreign versions are not.
        var planted = documents
        let index = try #require(planted.firstIndex { $0.path == "docs/bazel.md" })
        planted[index].text += "\nbazel_dep(name = \"rules_odrpack\", version = \"0.6.9\")  # 127.0.0.1, Bazel 4.2.3\n"
        let lines = planted[index].text.components(separatedBy: "\n").count
        #expect(
            Self.staleVersions(in: planted, current: ToolVersion.current) == ["docs/bazel.md:\(lines - 1): 0.6.9"])
    }

    /// The subcommands of `odrpack --help`.
    static func subcommands() throws -> [String] {
        let root = try CommandRunner.run(["--help"]).stdout
        let list = root.components(separatedBy: "SUBCOMMANDS:\n").last?.components(separatedBy: "\n\n").first ?? ""
        return list.split(separator: "\n").compactMap { line -> String? in
            let name = line.drop(while: { $0 == " " }).prefix(while: { $0 != " " })
            return line.hasPrefix("  ") && !line.hasPrefix("   ") && !name.isEmpty && name != "help"
                ? String(name) : nil
        }
    }

    /// The long options a command's `--help` lists, without ArgumentParser's own (`--help`, `--version`).
    static func options(of command: String) throws -> Set<String> {
        let help = try CommandRunner.run([command, "--help"]).stdout
        let options = help.components(separatedBy: "OPTIONS:\n").last?.components(separatedBy: "\nEXAMPLES:").first
        return Set(
            (options ?? "").split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
                line.split(separator: " ").prefix(while: { $0.hasPrefix("-") || $0.hasPrefix("<") }).map {
                    $0.hasSuffix(",") ? String($0.dropLast()) : String($0)
                }.filter { $0.hasPrefix("--") }
            }
        ).subtracting(["--help", "--version"])
    }

    /// The synopsis of `command` in a document's code blocks: each line `odrpack <command> …` with the lines that
    /// continue it (indented, starting with `[`), and the sentences after the block that name it in backticks or say
    /// "every command".
    static func synopsis(of command: String, in text: String) -> String {
        let lines = text.components(separatedBy: "\n")
        var found = ""
        for (index, line) in lines.enumerated()
        where line == "odrpack \(command)" || line.hasPrefix("odrpack \(command) ") {
            found += line + "\n"
            var next = index + 1
            while next < lines.count, lines[next].hasPrefix(" "),
                lines[next].trimmingCharacters(in: .whitespaces).hasPrefix("[")
            {
                found += lines[next] + "\n"
                next += 1
            }
            // The prose right after the block, up to the next heading or table.
            if let close = lines[next...].firstIndex(of: "```") {
                for sentence in lines[(close + 1)...].prefix(while: { !$0.hasPrefix("#") && !$0.hasPrefix("|") })
                    .joined(separator: " ")
                    .components(separatedBy: ". ")
                where sentence.lowercased().contains("every command") || sentence.contains("`\(command)`") {
                    found += sentence + "\n"
                }
            }
        }
        return found
    }

    @Test(arguments: ["README.md", "docs/commands.md"])
    func theSynopsisNamesEveryCommandAndOption(document: String) throws {
        let text = try String(contentsOf: TestPaths.repository.appendingPathComponent(document), encoding: .utf8)
        let commands = try Self.subcommands()
        #expect(commands.count >= 11)
        for command in commands {
            let synopsis = Self.synopsis(of: command, in: text)
            #expect(!synopsis.isEmpty, "\(document) has no synopsis line for \(command)")
            for option in try Self.options(of: command).sorted() where !synopsis.contains(option) {
                Issue.record("\(document): the synopsis of \(command) lacks \(option)")
            }
        }
    }
}
