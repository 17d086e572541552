import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libarchive converts entry names through the C locale: without a UTF-8 one, non-ASCII paths are mangled.
enum ArchiveLocale {
    private static let setUp: Void = {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        if !current.uppercased().contains("UTF-8") && !current.uppercased().contains("UTF8") {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }()

    /// Makes the process's character type locale UTF-8, once.
    static func ensureUTF8() { _ = setUp }
}
