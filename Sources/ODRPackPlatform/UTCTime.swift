#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A calendar time in UTC (never the local time zone), through the C library's gmtime_r and timegm.
package struct UTCTime: Equatable {
    package let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }

    /// The time `seconds` after 1970-01-01T00:00:00Z.
    package init(secondsSince1970 seconds: Int64) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        self.init(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// Seconds since 1970-01-01T00:00:00Z (fields out of range carry over, as timegm does).
    package var secondsSince1970: Int64 {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int64(timegm(&parts))
    }
}
