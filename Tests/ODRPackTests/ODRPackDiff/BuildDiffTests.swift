import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackCore
@testable import ODRPackDiff
@testable import ODRPackPlatform

/// diff compares the file lists by a merge in path order: what it finds is what maps of paths found (the rules of
/// docs/commands.md#diff), on random builds with moves, edits, NFC and NFD spellings, unsorted lists, repeated paths
/// and repeated pack ids.
@Suite struct BuildDiffTests {
    /// The comparison of files as diff made it with maps keyed by path: the reference.
    static func reference(old: BuildManifest, new: BuildManifest) -> String {
        func same(_ a: BuildManifest.File, _ b: BuildManifest.File) -> Bool {
            if let first = a.sha256, let second = b.sha256 { return first == second && a.size == b.size }
            return a.size == b.size
        }
        let oldPacks = Dictionary(old.packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newPacks = Dictionary(new.packs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var oldHome: [PathKey: (pack: String, file: BuildManifest.File)] = [:]
        for pack in old.packs { for file in pack.files { oldHome[PathKey(file.path)] = (pack.id, file) } }
        var newHome: [PathKey: (pack: String, file: BuildManifest.File)] = [:]
        for pack in new.packs { for file in pack.files { newHome[PathKey(file.path)] = (pack.id, file) } }
        var moves: [(String, String, String, Bool)] = []
        var moved = Set<PathKey>()
        for (path, now) in newHome {
            guard let before = oldHome[path], before.pack != now.pack else { continue }
            moves.append((path.path, before.pack, now.pack, !same(before.file, now.file)))
            moved.insert(path)
        }
        moves.sort { $0.0.precedesByCodePoint($1.0) }
        var text = "moves: \(moves)\n"
        for id in Set(oldPacks.keys).union(newPacks.keys).sorted() {
            let oldFiles = Dictionary(
                (oldPacks[id]?.files.map { $0 } ?? []).map { (PathKey($0.path), $0) },
                uniquingKeysWith: { first, _ in first })
            let newFiles = Dictionary(
                (newPacks[id]?.files.map { $0 } ?? []).map { (PathKey($0.path), $0) },
                uniquingKeysWith: { first, _ in first })
            let order: (String, String) -> Bool = { $0.precedesByCodePoint($1) }
            let added = newFiles.keys.filter { oldFiles[$0] == nil && !moved.contains($0) }.map(\.path).sorted(
                by: order)
            let removed = oldFiles.keys.filter { newFiles[$0] == nil && !moved.contains($0) }.map(\.path).sorted(
                by: order)
            let modified = newFiles.keys.filter { path in oldFiles[path].map { !same($0, newFiles[path]!) } ?? false }
                .map(\.path).sorted(by: order)
            let sameFiles =
                oldFiles.count == newFiles.count
                && newFiles.allSatisfy { path, file in oldFiles[path].map { same($0, file) } ?? false }
            text += "\(id): +\(added) -\(removed) ~\(modified) same: \(sameFiles)\n"
        }
        return text
    }

    /// The diff in the reference's form: a pack both sides have is unchanged exactly when its files are the same here
    /// (no content hash, archive hash, category or priority differs).
    static func describe(_ diff: BuildDiff) -> String {
        var text = "moves: \(diff.moves.map { ($0.path, $0.fromPack, $0.toPack, $0.modified) })\n"
        for pack in diff.packs {
            text +=
                "\(pack.id): +\(Array(pack.added)) -\(Array(pack.removed)) ~\(Array(pack.modified)) same: \(pack.status == .unchanged)\n"
        }
        return text
    }

    /// The reference's line with `same` as the status it gives a pack both sides have (nothing else differs here).
    static func expected(old: BuildManifest, new: BuildManifest) -> String {
        let ids = Set(old.packs.map(\.id)).intersection(new.packs.map(\.id))
        return reference(old: old, new: new).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let id = line.split(separator: ":").first.map(String.init), !line.hasPrefix("moves:") else {
                return String(line)
            }
            return ids.contains(id) ? String(line) : line.replacingOccurrences(of: "same: true", with: "same: false")
        }.joined(separator: "\n")
    }

    typealias Generator = SplitMix64

    static func build(_ random: inout Generator) -> BuildManifest {
        let paths = ["a", "b", "c/d", "caf\u{E9}", "cafe\u{301}", "z", "\u{1F3AE}"]
        var packs: [BuildManifest.Pack] = []
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let id = ["p1", "p2", "p3"].randomElement(using: &random)!
            var files = paths.filter { _ in Bool.random(using: &random) }.map { path in
                BuildManifest.File(
                    path: path, size: Int64.random(in: 1...2, using: &random),
                    sha256: Int.random(in: 0..<5, using: &random) == 0
                        ? nil : String(repeating: ["1", "2"].randomElement(using: &random)!, count: 64))
            }
            if Int.random(in: 0..<4, using: &random) == 0 { files.shuffle(using: &random) }
            if Int.random(in: 0..<4, using: &random) == 0, let file = files.randomElement(using: &random) {
                files.append(file)
            }
            packs.append(
                BuildManifest.Pack(
                    id: id, file: "OnDemandResources/\(id).assetpack", tags: [id], category: .onDemand, priority: nil,
                    size: 1, archiveSize: 1, archiveSha256: nil, contentHash: nil, files: .init(files)))
        }
        return BuildManifest(
            schemaVersion: 1, format: .odr, bundleId: "com.x", profile: "default", limits: [], initialInstallTags: [],
            prefetchOrder: [], appBundleFiles: 0, appBundleSize: 0,
            totals: .init(packs: 0, size: 0, archiveSize: 0, initialInstallSize: 0, initialPrefetchSize: 0), tags: [],
            packs: packs)
    }

    @Test func theMergeFindsWhatMapsOfPathsFound() {
        var random = Generator(state: 38)
        for round in 0..<TestLevel.rounds(300, full: 3000) {
            let old = Self.build(&random)
            let new = Self.build(&random)
            let got = Self.describe(BuildDiff(old: old, new: new))
            #expect(got == Self.expected(old: old, new: new), "round \(round)")
            if got != Self.expected(old: old, new: new) { return }  // one failure says it all
        }
    }
}
