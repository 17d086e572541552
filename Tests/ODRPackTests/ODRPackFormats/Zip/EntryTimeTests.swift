import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// docs/build-output.md#deterministic: entry times are `SOURCE_DATE_EPOCH`, else 2000-01-01T00:00:00Z; an invalid
/// value is exit 64.
@Suite struct EntryTimeTests {
    @Test func withoutTheVariableItIs2000() throws {
        #expect(try EntryTime.read(environment: [:]) == 946_684_800)
        #expect(EntryTime.standard == 946_684_800)
    }

    @Test func theVariableIsWholeSecondsBefore2100() throws {
        #expect(try EntryTime.read(environment: ["SOURCE_DATE_EPOCH": " 1700000000 "]) == 1_700_000_000)
        #expect(try EntryTime.read(environment: ["SOURCE_DATE_EPOCH": "0"]) == 0)
        #expect(try EntryTime.read(environment: ["SOURCE_DATE_EPOCH": "4102444799"]) == 4_102_444_799)
        for bad in ["4102444800", "-1", "1.5", "", "soon"] {
            let error = #expect(throws: ODRPackError.self, "\(bad)") {
                try EntryTime.read(environment: ["SOURCE_DATE_EPOCH": bad])
            }
            #expect(error?.jsonCode == "usage", "\(bad)")
        }
    }
}
