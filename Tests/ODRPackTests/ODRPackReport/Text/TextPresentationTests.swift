import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackCore
@testable import ODRPackReport

/// SPEC 6.1, "Text that reads": tables pad by display width, one size format in text and HTML, amber for a gauge
/// that only warns; and a folder-layout build's summary does not say "archives".
@Suite struct TextPresentationTests {
    @Test func displayWidthCountsWideCharactersTwice() {
        #expect(DisplayWidth.of("level1") == 6)
        #expect(DisplayWidth.of("ステージ") == 8)
        #expect(DisplayWidth.of("关卡") == 4)
        #expect(DisplayWidth.of("레벨") == 4)
        #expect(DisplayWidth.of("🎮") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Über") == 4)
    }

    @Test func tablesLineUpWithCJKAndEmoji() {
        var table = TextTable([("TAG", .left), ("SIZE", .right)])
        table.add(["ステージ1", "1 KB"])
        table.add(["level2", "12 KB"])
        table.add(["🎮", "3 B"])
        #expect(
            table.render()
                == "  TAG         SIZE\n  ステージ1   1 KB\n  level2     12 KB\n  🎮           3 B\n")
    }

    @Test func aGaugeThatOnlyWarnsIsAmberNeverRed() throws {
        func row(_ key: LimitProfile.Key, _ value: Int64, _ limit: Int64?) -> LimitUsage {
            var row = LimitUsage(name: key.rawValue, key: key, value: value)
            row.limit = limit
            return row
        }
        #expect(ReportModel.gaugeLevel(row(.recommendedSize, 70, 64)) == "warn")
        #expect(ReportModel.gaugeLevel(row(.maxPackSize, 513, 512)) == "over")
        #expect(ReportModel.gaugeLevel(row(.maxPackSize, 512, 512)) == "warn")  // at the limit passes, but near it
        #expect(ReportModel.gaugeLevel(row(.maxPackSize, 409, 512)) == "ok")
        #expect(ReportModel.gaugeLevel(row(.maxPackSize, 410, 512)) == "warn")
        #expect(ReportModel.gaugeLevel(row(.maxInitialInstallSize, 5, nil)) == "ok")
        // The page draws the model's level, and amber is not the red of a broken limit.
        let css = EmbeddedAssets.reportCss
        let warn = try #require(css.range(of: "--warn:#")).upperBound
        let over = try #require(css.range(of: "--over:#")).upperBound
        #expect(css[warn...].prefix(6) != css[over...].prefix(6))
        #expect(css[warn...].prefix(6) == "e3a008")
        #expect(EmbeddedAssets.reportJs.contains("row.level === \"over\""))
    }

    @Test func htmlSizesAreFormattedAsTextSizesAre() {
        // report.js's fmt mirrors ByteCount.format: integers below 1000, one decimal above, ".0" dropped.
        let js = EmbeddedAssets.reportJs
        #expect(js.contains("if (t.slice(-2) === \".0\") t = t.slice(0, -2);"))
        #expect(js.contains("while (v >= 999.95"))
        #expect(ByteCount.format(512_000_000) == "512 MB")
        #expect(ByteCount.format(999_960) == "1 MB")
    }

    @Test func aFolderLayoutSummarySaysPackFolders() {
        let summary = BuildSummary(
            packs: 2, written: 2, reused: 0, removed: 0, bytesRead: 10, bytesWritten: 20, contentBytes: 10,
            archiveBytes: 20, seconds: 0.5)
        #expect(
            BuildReport.text(summary, outputDirectory: "out", layout: .folder)
                == "Built 2 packs into out: 2 written, 0 unchanged\n  read 10 B, wrote 20 B; packs hold 10 B in 20 B of pack folders; 0.50 s\n"
        )
        #expect(
            BuildReport.text(summary, outputDirectory: "out")
                == "Built 2 packs into out: 2 written, 0 unchanged\n  read 10 B, wrote 20 B; packs hold 10 B in 20 B of archives; 0.50 s\n"
        )
    }

    @Test func theProgressLineSaysDoneOfTotalThroughputAndTimeLeft() {
        #expect(
            ProgressBar.status(
                unitsDone: 3, totalUnits: 7, unit: "packs", bytesDone: 120_000_000, totalBytes: 400_000_000, seconds: 2)
                == "3/7 packs, 120 MB of 400 MB, 60 MB/s, 5s left")
    }
}
