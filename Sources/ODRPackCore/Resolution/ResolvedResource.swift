import Foundation
import ODRPackFormats
import ODRPackPlatform

/// One regular file under resources-root with the tags the manifest gives it.
///
/// A project holds one of these per file, a million at the store's limit, so it is kept to 72 bytes, and its path's
/// bytes to the resolution's `PathArena` (docs/build-output.md, Bounded; docs/performance.md#scale): the source is
/// stored only when an entry's `into` moved the file, the size is the stamp's, the labels (tags, language, platforms) are one object shared by every
/// file of the tag set, and entry numbers are 32-bit. `path` and `source` make a `String` when asked; loops over
/// every resource compare and test the bytes instead (`withPath`, `pathPrecedes`).
package struct ResolvedResource: Sendable {
    /// Holds the bytes of `slot`: the destination; for a file an entry's `into` moved, the destination, a NUL and
    /// the source (a path holds no NUL); for a file of the resolution in a folder, the folder's number and the name
    /// (`PathArena.append(name:folder:)`).
    private let arena: PathArena
    private let slot: PathArena.Slot
    package let stamp: FileStamp
    /// Tags, language and platforms; files with the same ones share one object.
    package let labels: ResourceLabels
    /// `firstEntry`, or -1 for none.
    private var firstEntryNumber: Int32
    /// Bit 31: the slot holds a source of its own; bit 30: the slot holds a folder's number and a name; the other
    /// bits: `placedBy` + 1, 0 for none.
    private var placement: UInt32 = 0

    /// A resource whose path is stored in `arena` (the resolution's, while it is being made).
    init(
        path: String, source: String?, in arena: PathArena, size: Int64, stamp: FileStamp, labels: ResourceLabels,
        firstEntry: Int?
    ) {
        self.arena = arena
        if let source, !source.hasSameBytes(as: path) {
            slot = arena.append(path, source)
            placement = Self.ownSource
        } else {
            slot = arena.append(path)
        }
        var stamp = stamp
        stamp.size = size
        self.stamp = stamp
        self.labels = labels
        self.firstEntryNumber = Self.number(firstEntry)
    }

    /// A resource at `folder/name` whose folder is stored once in `arena` (`PathArena.addFolder`).
    init(
        name: String, folder: UInt32, in arena: PathArena, size: Int64, stamp: FileStamp, labels: ResourceLabels,
        firstEntry: Int?
    ) {
        self.arena = arena
        slot = arena.append(name: name, folder: folder)
        placement = Self.inFolder
        var stamp = stamp
        stamp.size = size
        self.stamp = stamp
        self.labels = labels
        self.firstEntryNumber = Self.number(firstEntry)
    }

    /// A resource with an arena of its own (tests, and resources made one at a time).
    package init(
        path: String, source: String? = nil, size: Int64, stamp: FileStamp, tags: [String], firstEntry: Int?,
        language: String? = nil, platforms: [String]? = nil
    ) {
        self.init(
            path: path, source: source, in: PathArena(), size: size, stamp: stamp,
            labels: ResourceLabels(tags: tags, language: language, platforms: platforms), firstEntry: firstEntry)
    }

    /// A resource in `arena` with tags alone (tests of the arena).
    init(
        path: String, source: String?, in arena: PathArena, size: Int64, stamp: FileStamp, tags: [String],
        firstEntry: Int?
    ) {
        self.init(
            path: path, source: source, in: arena, size: size, stamp: stamp, labels: ResourceLabels(tags: tags),
            firstEntry: firstEntry)
    }

    /// A resource of a folder in `arena` with tags alone (tests of the arena).
    init(
        name: String, folder: UInt32, in arena: PathArena, size: Int64, stamp: FileStamp, tags: [String],
        firstEntry: Int?
    ) {
        self.init(
            name: name, folder: folder, in: arena, size: size, stamp: stamp, labels: ResourceLabels(tags: tags),
            firstEntry: firstEntry)
    }

    /// Sorted tags; empty for a file that stays in the app bundle.
    package var tags: [String] { labels.tags }

    /// The file's language (docs/background-assets.md#languages); nil when it is not localized.
    package var language: String? { labels.language }

    /// The platforms the file is for (docs/background-assets.md#platforms); nil for every platform.
    package var platforms: [String]? { labels.platforms }

    /// The file's destination: its path inside the pack and the app bundle, `/`-separated (docs/manifest.md#destinations). Every document
    /// names the file by it.
    package var path: String { withPath { String(decoding: $0, as: UTF8.self) } }

    /// Where the file is: its path relative to resources-root, which is what is read. Equal to `path` unless an
    /// entry's `into` placed the file elsewhere.
    package var source: String { withSource { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with the destination's UTF-8 bytes, without making a string.
    package func withPath<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(arena) {
            let bytes = arena.bytes(slot)
            if placement & Self.inFolder != 0 { return try arena.withFolderPath(bytes, body) }
            guard isPlaced, let nul = bytes.firstIndex(of: 0) else { return try body(bytes) }
            return try body(UnsafeRawBufferPointer(rebasing: bytes[..<nul]))
        }
    }

    /// Calls `body` with the source's UTF-8 bytes, without making a string.
    package func withSource<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(arena) {
            let bytes = arena.bytes(slot)
            if placement & Self.inFolder != 0 { return try arena.withFolderPath(bytes, body) }
            guard isPlaced, let nul = bytes.firstIndex(of: 0) else { return try body(bytes) }
            return try body(UnsafeRawBufferPointer(rebasing: bytes[(nul + 1)...]))
        }
    }

    /// Whether this destination comes before `other`'s in code-point (byte) order.
    package func pathPrecedes(_ other: ResolvedResource) -> Bool {
        // Two files of one folder (of one arena): their names decide, with nothing joined.
        if placement & other.placement & Self.inFolder != 0 && arena === other.arena {
            let mine = arena.bytes(slot)
            let theirs = arena.bytes(other.slot)
            if PathArena.sameFolder(mine, theirs) {
                return UnsafeRawBufferPointer(rebasing: mine[4...])
                    .precedesByCodePoint(UnsafeRawBufferPointer(rebasing: theirs[4...]))
            }
        }
        return withPath { mine in other.withPath { mine.precedesByCodePoint($0) } }
    }

    /// Whether both destinations are the same bytes (NFC and NFD spellings of one name are not).
    package func hasSamePath(as other: ResolvedResource) -> Bool {
        withPath { mine in other.withPath { mine.hasSameBytes(as: $0) } }
    }

    /// Whether the destination is exactly `bytes` (`prefix`: starts with them).
    package func pathIs(_ bytes: StaticString, prefix: Bool = false) -> Bool {
        withPath { path in
            let wanted = UnsafeRawBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount)
            guard prefix ? path.count >= wanted.count : path.count == wanted.count else { return false }
            return UnsafeRawBufferPointer(rebasing: path[..<wanted.count]).hasSameBytes(as: wanted)
        }
    }

    package var size: Int64 { stamp.size }

    /// Whether an entry's `into` put the file somewhere other than its source path.
    package var isPlaced: Bool { placement & Self.ownSource != 0 }

    /// The first manifest entry that tagged the file, for diagnostics that point at the manifest.
    var firstEntry: Int? {
        get { firstEntryNumber < 0 ? nil : Int(firstEntryNumber) }
        set { firstEntryNumber = Self.number(newValue) }
    }

    /// The entry whose `into` gave the file its destination, for `destination-conflict` (at most 2^29).
    var placedBy: Int? {
        get { placement & Self.entryBits == 0 ? nil : Int(placement & Self.entryBits) - 1 }
        set {
            placement = placement & ~Self.entryBits | UInt32(Self.number(newValue.map { min($0, 1 << 29) }) + 1)
        }
    }

    private static let ownSource: UInt32 = 1 << 31
    private static let inFolder: UInt32 = 1 << 30
    private static let entryBits: UInt32 = inFolder - 1

    /// An entry's index as stored, -1 for none; a manifest holds far fewer than 2^30 entries.
    private static func number(_ entry: Int?) -> Int32 { entry.map { Int32(clamping: min($0, 1 << 30)) } ?? -1 }
}
