import ArgumentParser
import ODRPackKit

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-read every archive of a build folder and check it against odrpack-manifest.json.")

    @Argument(help: "The build folder (or its odrpack-manifest.json).")
    var directory: String

    @Flag(help: "Print one JSON document on stdout.")
    var json = false

    func run() throws {
        let console = Console()
        let report: BuildVerifier.Report
        do {
            report = try BuildVerifier().verify(directory)
        } catch {
            try console.printError("odrpack: error: \(error)\n")
            throw ExitCode(2)
        }
        let failed = report.packs.filter { !$0.ok }
        if json {
            try console.printOut(JSONValue.object([
                ("ok", .bool(report.ok)),
                ("packs", .array(report.packs.map { pack in
                    .object([("id", .string(pack.id)), ("file", .string(pack.file)),
                             ("status", .string(pack.ok ? "ok" : "mismatch")), ("problems", .strings(pack.problems))])
                })),
                ("extraArchives", .strings(report.extraArchives)),
                ("summary", .object([("packs", .int(Int64(report.packs.count))), ("failed", .int(Int64(failed.count)))])),
            ]).serialized())
        } else {
            var text = ""
            for pack in failed {
                for problem in pack.problems { text += "\(pack.file): error: \(problem)\n" }
            }
            for extra in report.extraArchives {
                text += "OnDemandResources/\(extra): error: archive is not listed in odrpack-manifest.json\n"
            }
            try console.printError(text)
            try console.printOut(report.ok
                ? "verified \(report.packs.count) pack\(report.packs.count == 1 ? "" : "s"): all match odrpack-manifest.json\n"
                : "\(failed.count) of \(report.packs.count) packs do not match odrpack-manifest.json\(report.extraArchives.isEmpty ? "" : ", \(report.extraArchives.count) unlisted archive(s)")\n")
        }
        if !report.ok { throw ExitCode(1) }
    }
}
