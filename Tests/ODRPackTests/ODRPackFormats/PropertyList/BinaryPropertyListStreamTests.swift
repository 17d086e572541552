import Foundation
import Testing

@testable import ODRPackBuildFormat
@testable import ODRPackFormats
@testable import ODRPackPlatform

/// docs/build-output.md#bounded: the plists are written as streams, and are the same bytes as the in-memory writer
/// made (`ReferenceBinaryPropertyList`, the writer before streaming), whatever the tree.
@Suite struct BinaryPropertyListStreamTests {
    typealias Generator = SplitMix64

    static let pieces = ["", "a", "Levels/level 1.json", "ünï", "🎮", "\u{0}", "é", "e\u{301}", "x\"y\\z", "long-"]

    static func string(_ random: inout Generator) -> String {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            + (Bool.random(using: &random) ? String(repeating: "s", count: Int.random(in: 0...40, using: &random)) : "")
    }

    static func tree(_ random: inout Generator, depth: Int) -> PropertyListValue {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 7), using: &random) {
        case 0: return .bool(Bool.random(using: &random))
        case 1:
            return .int(
                [0, 255, 256, 65_535, 65_536, -1, Int64.max, Int64.min, 1 << 32].randomElement(using: &random)!
                    + Int64.random(in: -2...2, using: &random) / 3)
        case 2: return .real(Double.random(in: -1e9...1e9, using: &random))
        case 3:
            return .data(
                (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 4: return .date(Double(Int.random(in: 0...1_000_000_000, using: &random)))
        case 5, 6: return .string(string(&random))
        case 7, 8:
            return .array((0..<Int.random(in: 0...16, using: &random)).map { _ in tree(&random, depth: depth - 1) })
        default:
            var pairs: [String: PropertyListValue] = [:]
            for _ in 0..<Int.random(in: 0...16, using: &random) {
                pairs[string(&random)] = tree(&random, depth: depth - 1)
            }
            return .dictionary(pairs)
        }
    }

    /// Random trees, the empty ones included: the streamed bytes are the reference writer's.
    @Test func randomTreesGiveTheReferenceBytes() {
        var random = Generator(state: 38)
        for round in 0..<TestLevel.rounds(60, full: 300) {
            let value = Self.tree(&random, depth: round % 5)
            #expect(value.binaryData() == ReferenceBinaryPropertyList.data(value), "round \(round)")
        }
        for value: PropertyListValue in [.array([]), .dictionary([:]), .string(""), .dictionary(["": .array([])])] {
            #expect(value.binaryData() == ReferenceBinaryPropertyList.data(value))
        }
    }

    /// References are one byte up to 255 objects, two up to 65,535, four beyond; offsets one byte while the table
    /// starts below 256, two below 65,536, four beyond: each side of each boundary, through a sink handing on chunks.
    @Test(arguments: [254, 255, 256, 65_534, 65_535, 65_536, 70_000])
    func widthsChangeAtTheirBoundaries(objects: Int) throws {
        let value = PropertyListValue.array((1..<objects).map { .string("s\($0 % 7)") })
        let reference = ReferenceBinaryPropertyList.data(value)
        #expect(value.binaryData() == reference)
        var chunks: [Int] = []
        var collected: [UInt8] = []
        var sink = DocumentSink { chunk in
            chunks.append(chunk.count)
            collected.append(contentsOf: chunk)
        }
        try value.write(to: &sink)
        try sink.flush()
        #expect(Data(collected) == reference)
        #expect(chunks.allSatisfy { $0 <= DocumentSink.chunkSize + 64 })
        let trailer = Array(reference.suffix(32))
        #expect(Int(trailer[7]) == (objects < 256 ? 1 : objects < 65_536 ? 2 : 4))
    }

    /// Offsets widen with the table's offset: a body just below and above 256 and 65,536 bytes.
    @Test(arguments: [200, 240, 250, 60_000, 65_500, 65_600])
    func offsetWidthsFollowTheBodySize(bytes: Int) {
        let value = PropertyListValue.array([.data([UInt8](repeating: 1, count: bytes))])
        #expect(value.binaryData() == ReferenceBinaryPropertyList.data(value))
    }

    /// OnDemandResources.plist written object by object is the tree's bytes: random tags and packs, unicode names, a
    /// repeated name (a dictionary keeps the first key and the last value), packs without files.
    @Test func onDemandResourcesStreamedIsTheTreesBytes() throws {
        var random = Generator(state: 7)
        for round in 0..<60 {
            let ids = (0..<Int.random(in: 0...6, using: &random)).map { _ in "p." + Self.string(&random) }
            let packs = ids.map { id in
                (id: id, paths: (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.string(&random) })
            }
            let tags = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                (name: Self.string(&random), packs: ids.shuffled(using: &random).prefix(3).map { $0 })
            }
            let tree = AppleManifests.onDemandResources(tags: tags, packs: packs)
            let streamed = try DocumentSink.bytes { sink in
                try AppleManifests.writeOnDemandResources(
                    tags: tags, packIDs: packs.map(\.id), paths: { packs[$0].paths }, to: &sink)
            }
            #expect(Data(streamed) == tree.binaryData(), "round \(round)")
            #expect(Data(streamed) == ReferenceBinaryPropertyList.data(tree), "round \(round)")
        }
    }

    /// A large document (more than 65,535 objects, several chunks) compared with a file: the same file compares the
    /// same; a file one byte longer, shorter or other differs; a missing file is missing.
    @Test func aStreamedDocumentComparesWithAFileChunkByChunk() throws {
        let project = try TemporaryProject()
        let paths = (0..<80_000).map { "Levels/level-\($0).json" }
        let document = StreamedDocument { sink in
            try AppleManifests.writeOnDemandResources(
                tags: [(name: "t", packs: ["p"])], packIDs: ["p"], paths: { _ in paths }, to: &sink)
        }
        let bytes = try document.bytes()
        #expect(bytes.count > 2 * DocumentSink.chunkSize)
        let path = project.path("OnDemandResources.plist")
        #expect(document.compare(withFileAt: FilePath(path)) == .missing)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(document.compare(withFileAt: FilePath(path)) == .same)
        try Data(bytes + [0]).write(to: URL(fileURLWithPath: path))
        #expect(document.compare(withFileAt: FilePath(path)) == .differs)
        try Data(bytes.dropLast()).write(to: URL(fileURLWithPath: path))
        #expect(document.compare(withFileAt: FilePath(path)) == .differs)
        var changed = bytes
        changed[DocumentSink.chunkSize + 5] ^= 1
        try Data(changed).write(to: URL(fileURLWithPath: path))
        #expect(document.compare(withFileAt: FilePath(path)) == .differs)
    }
}
