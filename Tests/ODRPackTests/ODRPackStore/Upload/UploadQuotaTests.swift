import Foundation
import ODRPackCore
import Testing

@testable import ODRPackStore

extension UploadFixture {
    /// Edits the build manifest as a build of the Background Assets languages and platforms writes it (a pack's
    /// `language` and `platforms`, the packager's version), for the store's checks of them.
    func editManifest(_ change: (inout [String: Any]) -> Void) throws {
        let url = root.appendingPathComponent("out/odrpack-manifest.json")
        var document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        change(&document)
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: url)
    }

    /// Sets members of the pack whose asset pack id is `id`.
    func editPack(_ id: String, _ members: [String: Any]) throws {
        try editManifest { document in
            var packs = document["packs"] as? [[String: Any]] ?? []
            for index in packs.indices where packs[index]["assetPackId"] as? String == id {
                for (key, value) in members { packs[index][key] = value }
            }
            document["packs"] = packs
        }
    }
}

/// docs/store.md#the-quota, the packager's record and `--wait`'s read-back, against the App Store Connect stand-in
/// (one for the suite, reset before each test).
@Suite(
    .serialized,
    .enabled(
        if: AppStoreConnectStandIn.available,
        "python3 with cryptography (make test installs it) and Tests/AppStoreConnect/api"))
struct UploadQuotaTests {
    nonisolated(unsafe) static let shared = try? AppStoreConnectStandIn()

    func fresh(_ config: [String: Any] = [:]) throws -> AppStoreConnectStandIn {
        let standIn = try #require(Self.shared)
        try standIn.reset(config: config)
        return standIn
    }

    /// Over 100 ids after the upload: `ba-quota-exceeded` (exit 1) naming the ids this build no longer makes, and
    /// nothing sent; the `--json` document is the upload's, with the quota.
    @Test func overTheLimitAfterTheUploadNothingIsSent() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        var assets: [[String: Any]] = [["assetPackIdentifier": packs[0].id, "usedBytes": 5]]
        for index in 0..<97 { assets.append(["assetPackIdentifier": "old-\(index)", "usedBytes": 1]) }
        let standIn = try fresh(["assets": assets])
        let run = try build.upload([build.out, "--all", "--json"], standIn)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        #expect(standIn.calls == ["GET /v1/apps/\(AppStoreConnectStandIn.appID)/backgroundAssets"])
        let document = try run.json()
        #expect((document["packs"] as? [Any])?.isEmpty == true)
        let quota = document["quota"] as? [String: Any] ?? [:]
        let afterBytes = 97 + max(5, packs[0].bytes.count) + packs.dropFirst().reduce(0) { $0 + $1.bytes.count }
        #expect(quota["ids"] as? Int == 98 && quota["bytes"] as? Int == 102)
        #expect(quota["after"] as? [String: Int] == ["ids": 101, "bytes": afterBytes])
        let diagnostics = document["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["code"] as? String } == ["ba-quota-exceeded", "ba-packager-unknown"])
        let message = diagnostics.first?["message"] as? String ?? ""
        #expect(message.contains("101 of 100 asset pack ids"), "\(message)")
        #expect(message.contains("old-0, old-1, old-10, "), "\(message)")
        #expect(!message.contains(packs[0].id))
        #expect(build.record == nil || (build.record?["packs"] as? [String: Any])?.isEmpty == true)
        let text = try build.upload([build.out, "--all"], standIn)
        #expect(text.status == 1)
        #expect(
            text.stdout.hasPrefix(
                "nothing uploaded to app \(AppStoreConnectStandIn.appID): the quota would be exceeded"))
        #expect(text.stderr.contains("[ba-quota-exceeded]"))
        #expect(!standIn.calls.contains { !$0.hasPrefix("GET ") })
    }

    /// A `usedBytes` of 2^63 or more (past what int64 holds) is held at the most, never read as 0 or wrapped: over
    /// 200 GB, exit 1 before anything is sent. At 80% of the bytes, `ba-quota` on a real upload too.
    @Test func aHugeUsedBytesSaturatesAndEightyPercentWarns() throws {
        let build = try UploadFixture()
        let standIn = try fresh([
            "assets": [["assetPackIdentifier": "huge", "usedBytes": UInt64(1) << 63]]
        ])
        let run = try build.upload([build.out, "--all", "--json"], standIn)
        #expect(run.status == 1, "\(run.stderr)")
        let quota = try run.json()["quota"] as? [String: Any] ?? [:]
        #expect((quota["bytes"] as? NSNumber)?.int64Value == Int64.max)
        #expect(((quota["after"] as? [String: Any])?["bytes"] as? NSNumber)?.int64Value == Int64.max)
        #expect(standIn.calls.count == 1)

        let near = try fresh(["assets": [["assetPackIdentifier": "big", "usedBytes": 160_000_000_000]]])
        let warned = try build.upload([build.out, "--all", "--json"], near)
        #expect(warned.status == 0, "\(warned.stderr)")
        let codes = (try warned.json()["diagnostics"] as? [[String: Any]] ?? []).map { $0["code"] as? String }
        #expect(codes == ["ba-quota", "ba-packager-unknown"])
        #expect(near.commits.count == 4)
    }

    /// `ba-packager-unknown` only when the build's packager recorded no version.
    @Test func aPackagerOfKnownVersionIsNoWarning() throws {
        let build = try UploadFixture()
        try build.editManifest { document in
            var settings = document["backgroundAssets"] as? [String: Any] ?? [:]
            settings["packager"] = ["command": "ba-package {manifest} -o {output}", "version": "ba-package 1.0"]
            document["backgroundAssets"] = settings
        }
        let standIn = try fresh()
        let run = try build.upload([build.out, "--all", "--dry-run", "--json"], standIn)
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try run.json()["diagnostics"] as? [Any])?.isEmpty == true)
    }

    /// `--wait`: each COMPLETE version's `locale` and `platforms` read back, recorded, and compared with the pack's;
    /// a language App Store Connect did not derive is `asc-pack-mismatch` (exit 1) naming both.
    @Test func waitReadsBackLocaleAndPlatforms() throws {
        let build = try UploadFixture()
        let packs = try build.packs()
        try build.editPack(packs[0].id, ["language": "fr"])
        let standIn = try fresh(["derived": [packs[1].id: ["locale": "de", "platforms": ["IOS", "TV_OS"]]]])
        let run = try build.upload([build.out, "--all", "--wait", "0", "--json"], standIn)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(standIn.rejected.isEmpty, "\(standIn.rejected)")
        let diagnostics = try run.json()["diagnostics"] as? [[String: Any]] ?? []
        let mismatches = diagnostics.filter { $0["code"] as? String == "asc-pack-mismatch" }
        #expect(
            Set(mismatches.compactMap { $0["subject"] as? String }) == [packs[0].id, packs[1].id], "\(diagnostics)")
        let first = mismatches.first { $0["subject"] as? String == packs[0].id }?["message"] as? String ?? ""
        #expect(
            first.contains(
                "the manifest says language fr and platforms IOS, but App Store Connect derived language none and platforms IOS"
            ), "\(first)")
        let second = mismatches.first { $0["subject"] as? String == packs[1].id }?["message"] as? String ?? ""
        #expect(second.contains("derived language de and platforms IOS, TV_OS"), "\(second)")
        let entries = build.record?["packs"] as? [String: [String: Any]] ?? [:]
        #expect(entries[packs[0].id]?["locale"] is NSNull)
        #expect(entries[packs[0].id]?["platforms"] as? [String] == ["IOS"])
        #expect(entries[packs[1].id]?["locale"] as? String == "de")
        #expect(entries[packs[2].id]?["platforms"] as? [String] == ["IOS"])
        // Each version read once it is COMPLETE: App Store Connect numbered them; the state is COMPLETE.
        #expect(entries.values.allSatisfy { $0["state"] as? String == "COMPLETE" && $0["version"] as? String == "1" })
    }

    /// SPEC 15.4: `locale` must be the pack's language, the same string, absent or null for a pack without one; an
    /// empty string or another case is `asc-pack-mismatch`, and so are other `platforms`.
    @Test func readBackComparesTheSameString() {
        let ios = ["IOS"]
        #expect(PackReadBack.mismatch(pack: "a", language: nil, platforms: ios, locale: nil, derived: ios) == nil)
        #expect(PackReadBack.mismatch(pack: "a", language: "fr", platforms: ios, locale: "fr", derived: ios) == nil)
        #expect(
            PackReadBack.mismatch(pack: "a", language: nil, platforms: ios, locale: "", derived: ios)?.code
                == .ascPackMismatch)
        #expect(
            PackReadBack.mismatch(pack: "a", language: "pt-BR", platforms: ios, locale: "pt-br", derived: ios)?.code
                == .ascPackMismatch)
        #expect(
            PackReadBack.mismatch(pack: "a", language: nil, platforms: ios, locale: nil, derived: ["IOS", "TV_OS"])?
                .code == .ascPackMismatch)
    }
}
