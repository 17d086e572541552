// The one path type (docs/architecture.md#paths): swift-system's `FilePath`, whose equality and hash are on raw bytes
// (an NFC and an NFD spelling of one name are two paths, as they are two files on Linux). Joining, relative paths,
// inside-checks and comparisons live here, so no caller glues a slash between texts, asks NSString, or checks a string
// prefix.
import Foundation
@_exported import SystemPackage

extension FilePath {
    /// The path of `text`, or nil when `text` holds a NUL. `FilePath(text)` stops at the first NUL, as a C call would,
    /// so "a\0b" and "a" would reach one file (docs/manifest.md#rules); text from outside (a manifest, an argument) comes
    /// in through here. Like `FilePath(text)`, repeated and trailing slashes are dropped ("a//b/" is "a/b").
    package init?(checking text: String) {
        guard !text.utf8.contains(0) else { return nil }
        self.init(text)
    }

    /// The path of these bytes exactly, whatever they hold (a name that is not UTF-8 stays itself); nil when they hold
    /// a NUL, for the reason `init?(checking:)` gives.
    package init?(bytes: some Collection<UInt8>) {
        guard !bytes.contains(0) else { return nil }
        var terminated = bytes.map { CChar(bitPattern: $0) }
        terminated.append(0)
        self = terminated.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }

    /// The path's bytes as the file system gets them, without the closing NUL.
    package var bytes: [UInt8] {
        withPlatformString { Array(UnsafeRawBufferPointer(start: $0, count: length)) }
    }

    /// The path as a file URL for Foundation's calls (`FileManager`, `Process`), handed over as the file system's
    /// bytes. Darwin's Foundation keeps them; corelibs Foundation (Linux) holds a URL as text and repairs bytes that
    /// are not UTF-8, so a call that must reach such a name goes through the C calls instead.
    package var fileURL: URL {
        withPlatformString { URL(fileURLWithFileSystemRepresentation: $0, isDirectory: false, relativeTo: nil) }
    }

    /// The path as text for messages and documents. A byte that is not part of valid UTF-8 is shown as `\xNN`
    /// (`shownText(of:)`), as a folder's names are, so `out\xE9` reads as itself; never use this to reach the file
    /// again: pass the `FilePath` itself.
    package var text: String {
        let repaired = string
        // Text that needed no repair is the path's own (a U+FFFD there may also be the path's own character).
        guard repaired.unicodeScalars.contains("\u{FFFD}") else { return repaired }
        return Self.shownText(of: bytes)
    }

    /// Bytes as text for a message: valid UTF-8 as it is, every other byte as `\xNN`; with `escapingControls`, every
    /// control character (C0, DEL, C1) as `\xNN` too, so a name can neither break a line nor drive a terminal.
    package static func shownText(of bytes: some Collection<UInt8>, escapingControls: Bool = false) -> String {
        let bytes = Array(bytes)
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return "\\x" + (digits.count < 2 ? "0" : "") + digits
        }
        if !escapingControls, let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out = ""
        var index = 0
        while index < bytes.count {
            // The valid UTF-8 sequence at this byte (one length at most fits), else the byte escaped.
            var decoded: String?
            var length = 1
            for candidate in 1...min(4, bytes.count - index) {
                if let text = String(validating: bytes[index..<index + candidate], as: UTF8.self) {
                    decoded = text
                    length = candidate
                    break
                }
            }
            if let decoded {
                for scalar in decoded.unicodeScalars {
                    if escapingControls && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
                        out += hex(scalar.value)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            } else {
                out += hex(UInt32(bytes[index]))
            }
            index += length
        }
        return out
    }

    /// `self` joined with a path relative to it, written with `/` ("Levels/one.json"). An empty `relative` is `self`.
    /// `relative` must hold no NUL (see `init?(checking:)`): text from outside is checked where it comes in.
    package func joined(_ relative: String) -> FilePath {
        relative.isEmpty ? self : appending(relative)
    }

    /// `self` joined with one name given as the file system's bytes (a folder's listing): a name that is not UTF-8
    /// reaches the file again, where its repaired text would name another file. Nil when `name` is not one name (empty,
    /// ".", "..", or holding a "/" or a NUL).
    package func joined(name: some Collection<UInt8>) -> FilePath? {
        guard !name.contains(UInt8(ascii: "/")), let path = FilePath(bytes: name), let component = path.lastComponent,
            component.kind == .regular
        else { return nil }
        return appending(component)
    }

    /// `self` with `.` folded away and each `..` taking away the name before it, without reading the disk (resolve
    /// links first where they matter: `link/..` is not always the link's folder). At the root a `..` stays the root;
    /// a relative path keeps the `..`s it starts with; "." and "" give the empty path. swift-system's
    /// `lexicallyNormalized()` means the same, but its debug build traps on some relative paths ("./.././..") and
    /// checks its storage again after every change; this works on the bytes, in one pass.
    package var normalized: FilePath {
        let (absolute, names) = Self.normalNames(bytes)
        var folded: [UInt8] = absolute ? [Self.slash] : []
        for (index, name) in names.enumerated() {
            if index > 0 { folded.append(Self.slash) }
            folded.append(contentsOf: name)
        }
        // The bytes came from a path, so they hold no NUL.
        return FilePath(bytes: folded) ?? self
    }

    /// Whether `self` is `folder` or lies below it, compared name by name on bytes once both are `normalized`:
    /// "/a/bc" is not inside "/a/b", and an absolute path is never inside a relative one (the empty path holds every
    /// relative path). Lexical: resolve links first where they matter.
    package func isInside(_ folder: FilePath) -> Bool {
        let (absolute, names) = Self.normalNames(bytes)
        let (folderIsAbsolute, folderNames) = Self.normalNames(folder.bytes)
        return absolute == folderIsAbsolute && names.starts(with: folderNames)
    }

    /// `self` relative to `base` ("Levels/one.json"), or nil when `self` is not inside `base`. `base` itself is "".
    /// The result is text (a manifest-relative path): bytes that are not UTF-8 are repaired, as `text` does.
    package func relative(to base: FilePath) -> String? {
        let (absolute, names) = Self.normalNames(bytes)
        let (baseIsAbsolute, baseNames) = Self.normalNames(base.bytes)
        guard absolute == baseIsAbsolute, names.starts(with: baseNames) else { return nil }
        return String(decoding: Array(names.dropFirst(baseNames.count).joined(separator: [Self.slash])), as: UTF8.self)
    }

    private static let slash = UInt8(ascii: "/")

    /// Whether the path whose bytes are `bytes` is absolute, and its names with `.` and `..` folded (`normalized`).
    private static func normalNames(_ bytes: [UInt8]) -> (absolute: Bool, names: [ArraySlice<UInt8>]) {
        let dot = UInt8(ascii: ".")
        let absolute = bytes.first == slash
        var names: [ArraySlice<UInt8>] = []
        for name in bytes.split(separator: slash, omittingEmptySubsequences: true) {
            if name.count == 1 && name.first == dot { continue }
            if name.count == 2 && name.allSatisfy({ $0 == dot }) {
                if let last = names.last, !(last.count == 2 && last.allSatisfy({ $0 == dot })) {
                    names.removeLast()
                } else if !absolute {
                    names.append(name)
                }
                continue
            }
            names.append(name)
        }
        return (absolute, names)
    }

    /// The byte key of this path, for dictionaries and sets of paths kept as text.
    package var key: PathKey { PathKey(string) }

    /// The last component as text ("one.json"), or "" for "/" and the empty path.
    package var name: String { lastComponent?.string ?? "" }

    /// The folder that holds `self`: "/a" for "/a/b", "/" for "/a" and "/", and "." for a single relative name ("b"),
    /// where `removingLastComponent()` gives the empty path, which no C call opens.
    package var parent: FilePath {
        let folder = removingLastComponent()
        return folder.isEmpty ? "." : folder
    }

    /// `self` without the extension of its last name ("Levels/one" for "Levels/one.json"); `self` when that name has
    /// none. A leading dot starts no extension (".hidden" stays), as for NSString's `deletingPathExtension`.
    package var deletingExtension: FilePath {
        var path = self
        path.extension = nil
        return path
    }
}

extension FilePath.Component {
    /// The name's bytes as the file system holds them ("caf\xE9" stays 4 bytes where its `string` repairs it).
    package var bytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }
}
