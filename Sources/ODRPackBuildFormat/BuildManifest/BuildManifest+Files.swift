import Foundation
import ODRPackPlatform

extension BuildManifest {
    /// A pack's files, stored compactly: every path's bytes in one arena, sizes in one array, each SHA-256 as 32 raw
    /// bytes, and the few sources that differ from their path by index. A million files take their paths and about
    /// 50 bytes each, where an array of `File` values took several hundred (docs/build-output.md#bounded). It reads as
    /// a random-access collection of `File` values, so code that walks `pack.files` does not see the difference.
    ///
    /// Built by appending only, so two lists of the same files have the same storage and `==` compares it directly.
    package struct Files: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
        /// Every path's UTF-8 bytes, one after the other.
        private var arena: [UInt8] = []
        /// Where each path ends in `arena` (the next starts there), in 32 bits while the arena fits them.
        private var ends: [UInt32] = []
        /// The same in 64 bits, used instead of `ends` once the paths of one pack pass 4 GiB.
        private var wideEnds: [Int] = []
        private var sizes: [Int64] = []
        /// 32 bytes per file once any file has a hash (zeros for one without); empty while none has.
        private var hashes: [UInt8] = []
        /// The files without a hash, once `hashes` is in use: none in a build's manifest, every one in a plan's.
        private var unhashed: Set<Int> = []
        /// The files whose source differs from their path, by increasing index, and those sources' bytes (where each
        /// ends in `sourceBytes`): a build that moved every file with `into` holds a source a file, so not a
        /// dictionary entry and a String each (about 150 bytes), but the bytes and 16 more.
        private var sourced: [Int] = []
        private var sourceEnds: [Int] = []
        private var sourceBytes: [UInt8] = []

        package init() {}

        package init(_ files: some Sequence<File>) {
            reserveCapacity(files.underestimatedCount)
            for file in files { append(file) }
            shrinkToFit()
        }

        package init(arrayLiteral files: File...) { self.init(files) }

        package var startIndex: Int { 0 }
        package var endIndex: Int { sizes.count }

        package subscript(index: Int) -> File {
            File(path: path(at: index), source: source(at: index), size: sizes[index], sha256: sha256(at: index))
        }

        /// Room for `count` files whose paths take about `pathBytes` bytes.
        package mutating func reserveCapacity(_ count: Int, pathBytes: Int = 0) {
            ends.reserveCapacity(count)
            sizes.reserveCapacity(count)
            arena.reserveCapacity(pathBytes)
        }

        /// Drops the room that growing by appends left (up to half of each array): a reader calls it once a pack's list
        /// is complete, so the manifest holds its files and not twice their size.
        package mutating func shrinkToFit() {
            func exact<T>(_ array: inout [T]) {
                guard array.capacity > array.count + array.count / 8 + 16 else { return }
                var copy: [T] = []
                copy.reserveCapacity(array.count)
                copy.append(contentsOf: array)
                array = copy
            }
            exact(&arena)
            exact(&ends)
            exact(&wideEnds)
            exact(&sizes)
            exact(&hashes)
            exact(&sourced)
            exact(&sourceEnds)
            exact(&sourceBytes)
        }

        package mutating func append(_ file: File) {
            var path = file.path
            path.withUTF8 { arena.append(contentsOf: $0) }
            guard let hex = file.sha256 else { return appendRecord(source: file.source, size: file.size, sha256: nil) }
            Self.withDigest(hex: hex) { appendRecord(source: file.source, size: file.size, sha256: $0) }
        }

        /// Appends a file whose path is `path`'s bytes (UTF-8, checked by the caller) and whose hash is 32 raw bytes.
        package mutating func append(
            path: UnsafeBufferPointer<UInt8>, source: String?, size: Int64, sha256: UnsafeRawBufferPointer?
        ) {
            arena.append(contentsOf: path)
            appendRecord(source: source, size: size, sha256: sha256)
        }

        private mutating func appendRecord(source: String?, size: Int64, sha256: UnsafeRawBufferPointer?) {
            let index = sizes.count
            if wideEnds.isEmpty, let end = UInt32(exactly: arena.count) {
                ends.append(end)
            } else {
                if wideEnds.isEmpty {
                    wideEnds = ends.map { Int($0) }
                    ends = []
                }
                wideEnds.append(arena.count)
            }
            sizes.append(size)
            if var source {
                sourced.append(index)
                source.withUTF8 { sourceBytes.append(contentsOf: $0) }
                sourceEnds.append(sourceBytes.count)
            }
            if let sha256, sha256.count == 32 {
                if hashes.isEmpty && index > 0 {
                    hashes = [UInt8](repeating: 0, count: index * 32)
                    unhashed = Set(0..<index)
                }
                hashes.append(contentsOf: sha256)
            } else if !hashes.isEmpty {
                hashes.append(contentsOf: repeatElement(0, count: 32))
                unhashed.insert(index)
            }
        }

        @inline(__always)
        private func end(of index: Int) -> Int { wideEnds.isEmpty ? Int(ends[index]) : wideEnds[index] }

        /// The path of file `index`.
        package func path(at index: Int) -> String {
            withPath(at: index) { String(decoding: $0, as: UTF8.self) }
        }

        /// Calls `body` with the bytes of file `index`'s path.
        package func withPath<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
            let start = index == 0 ? 0 : end(of: index - 1)
            return try arena.withUnsafeBufferPointer {
                try body(UnsafeBufferPointer(rebasing: $0[start..<end(of: index)]))
            }
        }

        /// The path bytes of file `index` of these files against those of file `other` of `files`: <0, 0 or >0 in
        /// code-point order (the order of UTF-8 bytes), the order every list of the manifest is written in.
        package func comparePath(_ index: Int, with other: Int, of files: Files) -> Int {
            withPath(at: index) { left in
                files.withPath(at: other) { right in
                    let common = Swift.min(left.count, right.count)
                    if common > 0 {
                        let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                        if order != 0 { return Int(order) }
                    }
                    return left.count - right.count
                }
            }
        }

        package func size(at index: Int) -> Int64 { sizes[index] }

        /// The source of file `index` where it differs from its path, found by binary search.
        package func source(at index: Int) -> String? {
            guard !sourced.isEmpty else { return nil }
            var low = 0
            var high = sourced.count
            while low < high {
                let middle = (low + high) / 2
                if sourced[middle] < index { low = middle + 1 } else { high = middle }
            }
            guard low < sourced.count, sourced[low] == index else { return nil }
            let start = low == 0 ? 0 : sourceEnds[low - 1]
            return String(decoding: sourceBytes[start..<sourceEnds[low]], as: UTF8.self)
        }

        /// Whether file `index` has a hash.
        package func hasSHA256(at index: Int) -> Bool {
            !hashes.isEmpty && (unhashed.isEmpty || !unhashed.contains(index))
        }

        /// The lowercase hex SHA-256 of file `index`, nil when it has none (a plan's files).
        package func sha256(at index: Int) -> String? {
            guard hasSHA256(at: index) else { return nil }
            return hashes.withUnsafeBytes {
                LowercaseHex.string(UnsafeRawBufferPointer(rebasing: $0[index * 32..<index * 32 + 32]))
            }
        }

        /// The contentHash of these files (`PackArchiveFacts.contentHash`), nil when one has no hash: written from
        /// the stored bytes, with no String per file.
        package func contentHash() -> String? {
            guard !hashes.isEmpty, unhashed.isEmpty else { return isEmpty ? ContentHasher().finalize() : nil }
            var hasher = ContentHasher()
            hashes.withUnsafeBufferPointer { digests in
                for index in indices {
                    withPath(at: index) { path in
                        hasher.add(
                            path: path, size: sizes[index],
                            digest: UnsafeRawBufferPointer(
                                UnsafeBufferPointer(rebasing: digests[index * 32..<index * 32 + 32])))
                    }
                }
            }
            return hasher.finalize()
        }

        /// Whether files `index` of these and `other` of `files` both have hashes and they are the same.
        package func sameSHA256(_ index: Int, as other: Int, of files: Files) -> Bool? {
            guard hasSHA256(at: index), files.hasSHA256(at: other) else { return nil }
            return hashes.withUnsafeBufferPointer { left in
                files.hashes.withUnsafeBufferPointer { right in
                    memcmp(left.baseAddress! + index * 32, right.baseAddress! + other * 32, 32) == 0
                }
            }
        }

        /// The total of the path bytes: what `reserveCapacity(_:pathBytes:)` takes for a copy.
        package var pathBytes: Int { arena.count }

        /// Calls `body` with the 32 bytes of a 64-digit lowercase hex SHA-256 (nil for anything else), parsed into a
        /// tuple: once per file of a manifest, so no array each.
        static func withDigest<T>(hex: String, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
            var text = hex
            var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            let valid = text.withUTF8 { text in
                withUnsafeMutableBytes(of: &digest) { LowercaseHex.parse(text, into: $0) }
            }
            return valid ? withUnsafeBytes(of: digest) { body($0) } : body(nil)
        }
    }
}
