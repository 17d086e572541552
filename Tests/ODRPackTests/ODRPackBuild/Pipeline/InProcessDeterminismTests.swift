import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackCore

/// Determinism is the library's own property: built in this process under three time zones and two locales, without
/// any process-wide setup of the command line's, the output is the same bytes.
@Suite(.serialized) struct InProcessDeterminismTests {
    /// A locale whose decimal separator is a comma and whose collation is not code-point order, when the machine has
    /// it (`make test` generates it on Linux; Macs have it).
    static let germanLocale: String? = {
        let current = setlocale(LC_ALL, nil).map { String(cString: $0) } ?? "C"
        defer { setlocale(LC_ALL, current) }
        return setlocale(LC_ALL, "de_DE.UTF-8") != nil ? "de_DE.UTF-8" : nil
    }()

    @Test func twoTimeZonesGiveTheSameBytes() throws {
        _ = try build(locale: nil)
    }

    @Test(.enabled(if: germanLocale != nil)) func aLocaleWithCommasGivesTheSameBytes() throws {
        #expect(try build(locale: Self.germanLocale) == build(locale: nil))
    }

    /// Builds the game under three time zones (and `locale`); returns the one output they all give.
    func build(locale: String?) throws -> [String: Data] {
        let project = try BuildCommandTests().gameProject()
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath, format: .odr)
        let plan = try #require(result.plan)
        let root = try #require(result.resolution?.rootPath)
        var outputs: [[String: Data]] = []
        let zone = ProcessInfo.processInfo.environment["TZ"]
        let previousLocale = setlocale(LC_ALL, nil).map { String(cString: $0) } ?? "C"
        let previousLanguage = ProcessInfo.processInfo.environment["LANG"]
        defer {
            TestSystem.setTimeZone(zone)
            setlocale(LC_ALL, previousLocale)
            if let previousLanguage { setenv("LANG", previousLanguage, 1) } else { unsetenv("LANG") }
        }
        if let locale {
            #expect(setlocale(LC_ALL, locale) != nil)
            setenv("LANG", locale, 1)
            // The locale is in force: C formatting now writes a decimal comma.
            #expect(String(cString: localeconv().pointee.decimal_point) == ",")
        }
        for (index, timeZone) in ["UTC", "Pacific/Kiritimati", "America/St_Johns"].enumerated() {
            TestSystem.setTimeZone(timeZone)
            var options = BuildOptions(
                outputDirectory: project.path("out\(index)"), format: .odr,
                environment: ProcessInfo.processInfo.environment)
            options.useCache = false
            options.urlPrefix = "https://cdn.example.com/"
            _ = try PackBuilder(options: options).build(plan, rootPath: root)
            outputs.append(try BuildCommandTests().contents(project.root.appendingPathComponent("out\(index)")))
        }
        // Seven files the build writes, and the lock file of the folder it held open for writing.
        #expect(outputs[0].count == 8)
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0])
        return outputs[0]
    }
}
