import Foundation

extension String {
    /// Code-point order (UTF-8 byte order): the order every sorted path list uses, independent of locale.
    package func precedesByCodePoint(_ other: String) -> Bool {
        let result = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
        return (result ?? nil) ?? utf8.lexicographicallyPrecedes(other.utf8)
    }

    /// Byte equality: paths are compared as stored, not by Unicode canonical equivalence as `==` does.
    package func hasSameBytes(as other: String) -> Bool {
        let result = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                left.count == right.count
                    && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        return (result ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

/// A path as a dictionary or set key, equal by its UTF-8 bytes and hashed by them: Swift's `String` compares and
/// hashes by canonical equivalence, which makes NFC `café` and NFD `café` one key (docs/manifest.md#tags: paths are bytes).
package struct PathKey: Hashable, Sendable {
    package let path: String

    package init(_ path: String) { self.path = path }

    package static func == (lhs: PathKey, rhs: PathKey) -> Bool { lhs.path.hasSameBytes(as: rhs.path) }

    package func hash(into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
