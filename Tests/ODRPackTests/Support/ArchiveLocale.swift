import Foundation

/// libarchive converts entry names through the C locale: without a UTF-8 one, non-ASCII paths are mangled.
enum ArchiveLocale {
    private static let setUp: Void = TestSystem.ensureUTF8CharacterLocale()

    /// Makes the process's character type locale UTF-8, once.
    static func ensureUTF8() { _ = setUp }
}
