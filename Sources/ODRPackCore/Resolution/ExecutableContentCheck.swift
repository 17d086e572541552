import ODRPackPlatform

/// Finds tagged files that are executable code (ODR forbids it) by their first bytes, on every core. A clean build
/// checks in its writers instead, where it reads every file from its start anyway (`executableKind`).
package struct ExecutableContentCheck {
    /// The bytes of a file's start that `executableKind` looks at.
    package static let headSize = 64

    /// resources-root, links resolved.
    let root: FilePath
    let fileSystem: any ResourceFileSystem

    enum Finding {
        case executable(kind: String)
        case unreadable(reason: String)
    }

    func check(_ resources: PackFiles, location: (ResolvedResource) -> SourceLocation?) -> [Diagnostic] {
        // Chunks of 256 files per task keep the hand-off cost below the cost of the reads. `inspect` never throws.
        let chunks = Array(stride(from: 0, to: resources.count, by: 256))
        let findings = try! parallelMap(chunks) { start in
            inspect(resources[start..<min(resources.count, start + 256)])
        }.joined()
        var diagnostics: [Diagnostic] = []
        for (position, finding) in findings {
            let resource = resources[position]
            switch finding {
            case .executable(let kind):
                diagnostics.append(
                    .error(
                        .executableContent,
                        """
                        '\(resource.path)' is executable code (\(kind)); On-Demand Resources cannot hold code: untag \
                        it or move it out of the pack
                        """,
                        at: location(resource), subject: resource.path))
            case .unreadable(let reason):
                diagnostics.append(
                    .error(
                        .fileUnreadable, "cannot read '\(resource.path)': \(reason)",
                        at: location(resource), subject: resource.path))
            }
        }
        return diagnostics
    }

    /// The findings of consecutive resources, read a folder at a time (resources are sorted, so a folder's files
    /// are neighbours unless an entry's `into` moved some).
    /// Only the resources with a finding, by position: one entry per file would be 24 bytes each, a million times.
    func inspect(_ resources: Slice<PackFiles>) -> [(position: Int, finding: Finding)] {
        var findings: [(position: Int, finding: Finding)] = []
        var start = resources.startIndex
        while start < resources.endIndex {
            // Compared as the arena's bytes: no string per file but its name (short names need no allocation).
            var end = start + 1
            let folder = resources[start].withSource { first in
                let folder = Self.split(first).folder
                while end < resources.endIndex,
                    resources[end].withSource({ Self.split($0).folder.hasSameBytes(as: folder) })
                { end += 1 }
                return String(decoding: folder, as: UTF8.self)
            }
            let names = resources[start..<end].map {
                $0.withSource { String(decoding: Self.split($0).name, as: UTF8.self) }
            }
            let heads = fileSystem.readHeads(
                of: names, inFolder: root.joined(folder).string, count: Self.headSize)
            for (position, head) in zip(start..<end, heads) {
                // The path is made only for a DOS header (`finding` takes it lazily): not one per file.
                if let found = finding(head, path: root.joined(resources[position].source).string) {
                    findings.append((position, found))
                }
            }
            start = end
        }
        return findings
    }

    /// A resource's folder relative to the root (empty at the root) and its name in that folder, as bytes.
    static func split(_ path: UnsafeRawBufferPointer) -> (folder: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer)
    {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else {
            return (UnsafeRawBufferPointer(rebasing: path[0..<0]), path)
        }
        return (
            UnsafeRawBufferPointer(rebasing: path[..<slash]), UnsafeRawBufferPointer(rebasing: path[(slash + 1)...])
        )
    }

    /// What a file's first bytes (or the error reading them) say; a DOS header leads to one more read at `path`.
    /// `path` is made only for a DOS header: building it for every file would cost one allocation each.
    func finding(_ head: Result<[UInt8], SystemError>, path: @autoclosure () -> String) -> Finding? {
        switch head {
        case .failure(let error):
            return .unreadable(reason: error.reason)
        case .success(let header):
            let kind = Self.executableKind(header) { offset in
                guard case .success(let signature) = fileSystem.read(path(), count: 4, at: Int64(offset)),
                    signature.count == 4
                else { return nil }
                return signature
            }
            return kind.map { .executable(kind: $0) }
        }
    }

    /// Names the executable format of a file from its first bytes, or nil for data.
    /// `readAt` reads four bytes at an offset, for the PE signature that the DOS header points to.
    package static func executableKind(_ header: [UInt8], readAt: (Int) -> [UInt8]?) -> String? {
        guard header.count >= 4 else { return nil }
        let magic = header.prefix(4)
        switch Array(magic) {
        case [0x7F, 0x45, 0x4C, 0x46]: return "ELF"
        case [0xFE, 0xED, 0xFA, 0xCE], [0xCE, 0xFA, 0xED, 0xFE]: return "Mach-O"
        case [0xFE, 0xED, 0xFA, 0xCF], [0xCF, 0xFA, 0xED, 0xFE]: return "64-bit Mach-O"
        case [0xCA, 0xFE, 0xBA, 0xBE], [0xCA, 0xFE, 0xBA, 0xBF]:
            // Java class files share this magic; a fat Mach-O has a small architecture count next.
            guard header.count >= 8 else { return nil }
            let count = header[4...7].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return (1...30).contains(count) ? "universal (fat) Mach-O" : nil
        default:
            break
        }
        if header[0] == 0x4D, header[1] == 0x5A, header.count >= 64 {
            let offset = Int(header[60]) | Int(header[61]) << 8 | Int(header[62]) << 16 | Int(header[63]) << 24
            if offset >= 64, offset < 1 << 24, readAt(offset) == [0x50, 0x45, 0, 0] { return "Windows PE" }
        }
        return nil
    }
}
