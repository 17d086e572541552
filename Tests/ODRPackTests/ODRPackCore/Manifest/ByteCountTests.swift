import Testing

@testable import ODRPackCore

@Suite struct ByteCountTests {
    @Test func parsesUnitsInPowersOfOneThousandAndOneThousandTwentyFour() {
        #expect(ByteCount.parse("512MB") == 512_000_000)
        #expect(ByteCount.parse("512 MB") == 512_000_000)
        #expect(ByteCount.parse("2GB") == 2_000_000_000)
        #expect(ByteCount.parse("1KB") == 1000)
        #expect(ByteCount.parse("1KiB") == 1024)
        #expect(ByteCount.parse("3MiB") == Int64(3_145_728))
        #expect(ByteCount.parse("1GiB") == 1_073_741_824)
        #expect(ByteCount.parse("17B") == 17)
        #expect(ByteCount.parse("1000") == 1000)
        #expect(ByteCount.parse("1.5GB") == 1_500_000_000)
        #expect(ByteCount.parse("0.5B") == nil)
        #expect(ByteCount.parse("12 parsecs") == nil)
        #expect(ByteCount.parse("-5MB") == nil)
        #expect(ByteCount.parse("") == nil)
    }

    @Test func formatsLikeTheSpecExample() {
        #expect(ByteCount.format(530_100_000) == "530.1 MB")
        #expect(ByteCount.format(512_000_000) == "512 MB")
        #expect(ByteCount.format(999) == "999 B")
        #expect(ByteCount.format(20_000_000_000) == "20 GB")
    }
}
