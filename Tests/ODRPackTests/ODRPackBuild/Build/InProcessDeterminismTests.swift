import Foundation
import Testing
@testable import ODRPackBuild
@testable import ODRPackCore

/// Determinism is the library's own property: built in this process under two time zones and locales, without
/// any process-wide setup of the command line's, the output is the same bytes.
@Suite struct InProcessDeterminismTests {
    @Test func twoTimeZonesGiveTheSameBytes() throws {
        let project = try BuildCommandTests().gameProject()
        let result = try ProjectPlanner().plan(manifestPath: project.manifestPath)
        let plan = try #require(result.plan)
        let root = try #require(result.resolution?.rootPath)
        var outputs: [[String: Data]] = []
        let zone = ProcessInfo.processInfo.environment["TZ"]
        defer { TestSystem.setTimeZone(zone) }
        for (index, timeZone) in ["UTC", "Pacific/Kiritimati", "America/St_Johns"].enumerated() {
            TestSystem.setTimeZone(timeZone)
            var options = BuildOptions(outputDirectory: project.path("out\(index)"))
            options.useCache = false
            options.urlPrefix = "https://cdn.example.com/"
            _ = try PackBuilder(options: options).build(plan, rootPath: root)
            outputs.append(try BuildCommandTests().contents(project.root.appendingPathComponent("out\(index)")))
        }
        #expect(outputs[0].count == 7)
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0])
    }
}
