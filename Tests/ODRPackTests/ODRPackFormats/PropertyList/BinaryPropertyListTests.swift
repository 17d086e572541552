import Foundation
import Testing

@testable import ODRPackFormats
@testable import ODRPackFuzzing

/// The binary plist writer against Foundation's reader: what the device reads is what was meant.
@Suite struct BinaryPropertyListTests {
    func roundTrips(_ value: PropertyListValue) throws -> Bool {
        let decoded = try PropertyListSerialization.propertyList(from: value.binaryData(), format: nil)
        return PropertyListValue.matches(decoded, value)
    }

    @Test func numbersStringsAndNestingAtTheirEdges() throws {
        let value = PropertyListValue.dictionary([
            "": .int(Int64.min), "max": .int(Int64.max), "minus one": .int(-1), "byte": .int(255),
            "two bytes": .int(256),
            "short": .int(65_535), "four": .int(65_536), "word": .int(Int64(UInt32.max)), "five": .int(1 << 32),
            "zero": .real(-0.0), "infinity": .real(.infinity), "tiny": .real(1e-300),
            "priority": .real(0.9500000000000001),
            "é": .string("é"), "🎮": .string("🎮 outside the BMP, \u{0} and \u{7F}"),
            "ascii": .string(String(repeating: "x", count: 15)),
            "long": .string(String(repeating: "y", count: 16)), "yes": .bool(true), "no": .bool(false),
            "nested": .array([.array([]), .dictionary([:]), .array([.bool(true), .string("")])]),
            "data": .data([0, 1, 2, 255] + Array(repeating: 7, count: 20)), "empty data": .data([]),
            "date": .date(-1.5), "epoch": .date(0), "now": .date(817_000_000.25),
        ])
        #expect(try roundTrips(value))
        // Keys are written in code-point order whatever the dictionary's own order, so equal values give equal bytes.
        let data = [UInt8](value.binaryData())
        let keys = [
            "byte", "data", "date", "empty data", "epoch", "five", "four", "max", "minus one", "nested", "no", "now",
        ]
        let positions = keys.map { key in
            (0...(data.count - key.utf8.count)).first { data[$0..<($0 + key.utf8.count)].elementsEqual(key.utf8) } ?? -1
        }
        #expect(!positions.contains(-1) && positions == positions.sorted())
    }

    /// What Foundation reads converts to the same value, its kinds kept (a Bool is not the integer 1, a real 1.0 is not
    /// the integer 1). XML dates are whole seconds, so the date here is too.
    @Test func foundationValuesConvertWithTheirKinds() throws {
        let value = PropertyListValue.dictionary([
            "yes": .bool(true), "one": .int(1), "half": .real(0.5), "text": .string("t"), "bytes": .data([1, 2]),
            "when": .date(12), "list": .array([.bool(false), .int(0), .real(1.25), .real(1.0), .real(-3.0)]),
        ])
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoded =
                format == .binary
                ? value.binaryData()
                : try PropertyListSerialization.data(
                    fromPropertyList: try PropertyListSerialization.propertyList(from: value.binaryData(), format: nil),
                    format: .xml, options: 0)
            let decoded = try PropertyListSerialization.propertyList(from: encoded, format: nil)
            #expect(PropertyListValue(foundation: decoded) == value)
        }
        #expect(PropertyListValue(foundation: NSObject()) == nil)
        // Swift's own numbers convert by their type too.
        #expect(
            PropertyListValue(foundation: [2.0, 2, Int64(-7)] as [Any]) == .array([.real(2.0), .int(2), .int(-7)]))
    }

    /// Over 65,536 objects and offsets: four-byte object references and offsets.
    @Test func largeListsUseWideReferencesAndOffsets() throws {
        let value = PropertyListValue.array((0..<70_000).map { .string("OnDemandResources/pack-\($0).assetpack") })
        let data = value.binaryData()
        #expect(data.count > 1 << 20)
        #expect(data[data.count - 26] == 4 && data[data.count - 25] == 4)  // offset size, reference size
        #expect(try roundTrips(value))
    }

    /// The fuzz target's seeds, as regression tests: each must round-trip.
    @Test(arguments: FuzzSeeds.names("FuzzBinaryPlist"))
    func theFuzzSeedRoundTrips(name: String) throws {
        let seed = try FuzzSeeds.seed("FuzzBinaryPlist", name)
        #expect(seed.withUnsafeBytes { FuzzEntryPoints.binaryPlistMismatch($0) } == nil)
    }
}
