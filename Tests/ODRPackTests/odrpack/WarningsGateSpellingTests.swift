import Foundation
import Testing

/// docs/commands.md#scripts: `ODRPACK_WARNINGS_AS_ERRORS` takes the usual spellings of on and off, in any letter
/// case; any other value is a bad command line (exit 64), never a gate silently left open.
@Suite struct WarningsGateSpellingTests {
    @Test(arguments: ["1", "true", "TRUE", "yes", "Yes", "on", "ON"])
    func onSpellingsCloseTheGate(value: String) throws {
        let project = try WarningsGateTests().warned()
        let output = CommandRunner.runInProcess(
            ["validate"], in: project.root, environment: ["ODRPACK_WARNINGS_AS_ERRORS": value])
        #expect(output.status == 1, "\(value)")
        #expect(output.stderr.hasSuffix("odrpack: error: 1 warning treated as error (--warnings-as-errors)\n"))
    }

    @Test(arguments: ["0", "false", "False", "no", "NO", "off", "Off", ""])
    func offSpellingsLeaveItOpen(value: String) throws {
        let project = try WarningsGateTests().warned()
        let output = CommandRunner.runInProcess(
            ["validate"], in: project.root, environment: ["ODRPACK_WARNINGS_AS_ERRORS": value])
        #expect(output.status == 0, "\(value): \(output.stderr)")
    }

    @Test(arguments: ["2", "enabled", "y", "true!", "\u{1b}[2J"])
    func anyOtherValueIsABadCommandLine(value: String) throws {
        let project = try WarningsGateTests().warned()
        for command in [["validate"], ["build", "-o", project.path("out")]] {
            let output = CommandRunner.runInProcess(
                command, in: project.root, environment: ["ODRPACK_WARNINGS_AS_ERRORS": value])
            #expect(output.status == 64, "\(value) \(command)")
            #expect(
                output.stderr.hasPrefix("odrpack: error: ODRPACK_WARNINGS_AS_ERRORS='")
                    && output.stderr.contains(
                        "' is neither on (1, true, yes, on) nor off (0, false, no, off, empty): set one of those"),
                "\(output.stderr)")
            #expect(!output.stderr.contains("\u{1b}"))
        }
        #expect(!FileManager.default.fileExists(atPath: project.path("out")))
    }
}
