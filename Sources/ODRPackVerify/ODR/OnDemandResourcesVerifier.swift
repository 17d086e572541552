import Foundation
import ODRPackBuildFormat
import ODRPackCore
import ODRPackFormats
import ODRPackPlatform

/// `verify` of an On-Demand Resources build (either layout): every pack against its manifest entry and against the
/// format of docs/build-output.md (each zip must read completely front to back through its local headers alone),
/// Apple's two plists regenerated from the manifest byte for byte, and nothing in `OnDemandResources/` that the
/// manifest does not name.
struct OnDemandResourcesVerifier {
    let manifest: BuildManifest
    let folder: FilePath
    /// Counts each pack's archive bytes as they are read.
    var progress = ProgressBar.silent()

    func verify() throws -> BuildVerifier.Report {
        let reports = try parallelMap(manifest.packs) { pack in
            var report = check(pack)
            report.diagnostics =
                BuildVerifier.recordProblems(pack, bundleId: manifest.bundleId, format: .odr) + report.diagnostics
            return report
        }
        let extra = try BuildVerifier.unlistedNames(in: folder.joined(AppleManifests.packsFolder), manifest: manifest)
        var diagnostics = documentProblems()
        for name in extra {
            let path = AppleManifests.packsFolder.slashJoined(name)
            diagnostics.append(
                BuildVerifier.problem(
                    .verifyForeignFile, path,
                    """
                    is not a pack of \(BuildManifest.fileName): an upload of \(AppleManifests.packsFolder)/ would carry \
                    it; move it out of the build folder
                    """
                ))
        }
        return BuildVerifier.Report(packs: reports, extraArchives: extra, diagnostics: diagnostics)
    }

    /// OnDemandResources.plist and the asset-pack manifest, regenerated from the build manifest with the functions
    /// build writes them with, byte for byte.
    func documentProblems() -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let plist = AppleManifests.onDemandResourcesFile
        if let problem = DocumentComparison.problem(
            folder.joined(plist), name: plist, document: AppleManifests.onDemandResourcesDocument(manifest))
        {
            problems.append(BuildVerifier.problem(.verifyDocumentMismatch, plist, problem))
        }
        let present = [AppleManifests.templateFile, AppleManifests.manifestFile].filter {
            SystemCall.status(folder.joined($0), followingLinks: false) != nil
        }
        guard present.count == 1, let name = present.first else {
            let file = present.isEmpty ? AppleManifests.templateFile : AppleManifests.manifestFile
            problems.append(
                BuildVerifier.problem(
                    .verifyDocumentMismatch, file,
                    present.isEmpty
                        ? """
                        neither '\(AppleManifests.templateFile)' nor '\(AppleManifests.manifestFile)' (--url-prefix) \
                        is there: build again
                        """
                        : """
                        both '\(AppleManifests.templateFile)' and '\(AppleManifests.manifestFile)' are there; a build \
                        writes one: build again
                        """
                ))
            return problems
        }
        if let problem = assetPackManifestProblem(name) {
            problems.append(BuildVerifier.problem(.verifyDocumentMismatch, name, problem))
        }
        return problems
    }

    /// The asset-pack manifest's URLs hold what the build was told (`--url-prefix`) or where it wrote (the template's
    /// absolute path, docs/build-output.md): that part is read from the file, checked to have its form (any absolute
    /// path ending in `/OnDemandResources/`, so a copied or moved build folder verifies; an http(s) prefix), and the
    /// whole document is regenerated with it.
    func assetPackManifestProblem(_ name: String) -> String? {
        let isTemplate = name == AppleManifests.templateFile
        let path = folder.joined(name)
        let differs =
            "'\(name)' differs from what \(BuildManifest.fileName) makes of it (edited, or from another build): build again"
        var base = isTemplate ? Self.templateHost.slashJoined(AppleManifests.packsFolder) + "/" : "https://"
        if let first = manifest.packs.min(by: { $0.id < $1.id }) {
            // Room for a URL of any length the file may hold, yet bounded: the regenerated document with an empty base,
            // and PATH_MAX bytes percent-encoded (x3) per pack.
            let bound =
                Int64(
                    AppleManifests.assetPackManifest(manifest, urlPrefix: isTemplate ? nil : "", packsURL: "")
                        .binaryData().count) + Int64(manifest.packs.count) * 3 * 4096 + 4096
            guard let data = DocumentComparison.contents(path, limit: bound) else {
                return SystemCall.status(path, followingLinks: false)?.kind == .regular
                    ? differs : "'\(name)' is not a regular file"
            }
            guard let url = Self.url(of: first.id, in: data) else { return differs }
            let encoded = AppleManifests.percentEncoded(
                first.file.splitAtLastSlash().map { String($0.name) } ?? first.file)
            guard url.hasSuffix(encoded) else { return differs }
            base = String(url.dropLast(encoded.count))
            if isTemplate {
                guard base.isPath(inside: Self.templateHost), base.hasSuffix("/" + AppleManifests.packsFolder + "/")
                else {
                    return """
                        '\(name)' gives pack '\(first.id)' the URL '\(url)', not \(Self.templateHost) followed by an \
                        absolute path ending in /\(AppleManifests.packsFolder)/ and the pack's file name: build again
                        """
                }
            } else {
                guard base.hasPrefix("https://") || base.hasPrefix("http://") else {
                    return "'\(name)' gives pack '\(first.id)' the URL '\(url)', not an http(s) URL: build again"
                }
            }
        }
        let expected = AppleManifests.assetPackManifest(
            manifest, urlPrefix: isTemplate ? nil : base, packsURL: base
        ).binaryData()
        return DocumentComparison.problem(path, name: name, expected: expected)
    }

    /// What precedes the percent-encoded absolute path in the template's URLs.
    static let templateHost = "http://127.0.0.1"

    /// The `URL` the asset-pack manifest gives the pack `id`, if it is a plist with that shape.
    static func url(of id: String, in data: Data) -> String? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let resources = plist["resources"] as? [Any]
        else { return nil }
        for case let resource as [String: Any] in resources where resource["bundleKey"] as? String == id {
            return resource["URL"] as? String
        }
        return nil
    }

    /// The most of one entry verify holds in memory (the ZipMetadata and Info.plist it compares byte for byte).
    static let keptEntryLimit = 1 << 20

    func check(_ pack: BuildManifest.Pack) -> BuildVerifier.PackReport {
        var share = ProgressBar.Share(of: progress, bytes: pack.archiveSize ?? 0)
        defer { share.finish() }
        var report = BuildVerifier.PackReport(id: pack.id, file: pack.file, diagnostics: [])
        let path = folder.joined(pack.file)
        guard let status = SystemCall.status(path, followingLinks: false) else {
            report.diagnostics.append(
                BuildVerifier.problem(.verifyMissingPack, pack.file, "the pack is missing: build again"))
            return report
        }
        var check = PackContentCheck(pack: pack)
        do {
            switch status.kind {
            case .directory: try checkFolder(path, &check, &share)
            case .regular: try checkZip(path, &check, &share)
            case .symbolicLink, .other:
                // A pipe would block the read for ever; build writes only files and folders.
                report.diagnostics.append(
                    BuildVerifier.problem(
                        .verifyArchiveMismatch, pack.file,
                        "the pack is neither a file nor a folder (a link, pipe or device)"))
                return report
            }
        } catch {
            check.problem(.verifyArchiveMismatch, "the pack cannot be read: \(error)")
        }
        check.finish()
        report.diagnostics = check.diagnostics
        return report
    }

    /// One read of the archive: the reader checks the local headers front to back and hashes the raw bytes on the way.
    private func checkZip(_ path: FilePath, _ check: inout PackContentCheck, _ share: inout ProgressBar.Share) throws {
        let reader = try StreamingZipReader(path: path, hashing: true)
        defer {
            if let (size, sha256) = try? reader.digestToEnd() { check.compareArchive(size: size, sha256: sha256) }
        }
        var locals: [StreamingZipReader.LocalEntry] = []
        var metadata: [UInt8] = []
        var contentCount: Int64 = 0
        var contentBytes: Int64 = 0
        var previous: String?
        var folders = Set<PathKey>()
        while let entry = try reader.nextEntry() {
            share.advance(to: Int64(clamping: entry.offset))
            let index = locals.count
            locals.append(entry)
            func problem(_ text: String) {
                check.problem(.verifyEntryMismatch, "entry \(index + 1) '\(entry.name)': \(text)")
            }
            for text in Self.headerProblems(entry) { problem(text) }
            var hasher = SHA256Hasher.paired()
            let keep = index == 1 || entry.name == PackEntry.infoPlistName
            let (crc, size, bytes, tooLarge) = try Self.read(reader, hashingInto: &hasher, keeping: keep)
            if tooLarge { problem("is larger than \(Self.keptEntryLimit) bytes, far more than odrpack writes there") }
            if crc != entry.crc {
                problem("its data has CRC-32 \(Self.hex(crc)), its local header says \(Self.hex(entry.crc))")
            }
            if size != entry.size { problem("its data is \(size) bytes, its local header says \(entry.size)") }
            switch index {
            case 0:
                if entry.name != ZipMetadata.folderName {
                    problem("the first entry must be the folder '\(ZipMetadata.folderName)'")
                }
            case 1:
                if entry.name != ZipMetadata.fileName { problem("the second entry must be '\(ZipMetadata.fileName)'") }
                metadata = bytes
            default:
                if let previous, !previous.precedesByCodePoint(entry.name) {
                    problem("is out of order: it comes after '\(previous)'")
                }
                previous = entry.name
                if let folder = Self.folderEntry(of: entry.name), !folders.contains(PathKey(String(folder))) {
                    problem("comes without an entry for its folder '\(folder)' before it")
                }
                contentCount += 1
                if entry.name.hasSuffix("/") {
                    folders.insert(PathKey(entry.name))
                    if size != 0 { problem("is a folder with \(size) bytes of data") }
                } else {
                    contentBytes = [contentBytes, Int64(clamping: size)].saturatingSum
                    check.file(entry.name, size: Int64(clamping: size), sha256: hasher.finalize(), bytes: bytes)
                }
            }
        }
        Self.checkCentralDirectory(try reader.centralDirectory(), against: locals, &check)
        if locals.count >= 2, let problem = Self.metadataProblem(metadata, count: contentCount, bytes: contentBytes) {
            check.problem(.verifyArchiveMismatch, problem)
        }
    }

    /// The name of the folder entry that must precede entry `name` ("a/b/" for "a/b/c" and "a/b/c/"), nil at the top:
    /// found by bytes, from the end.
    static func folderEntry(of name: String) -> Substring? {
        let bytes = name.utf8
        let slash = UInt8(ascii: "/")
        let end = bytes.last == slash ? bytes.index(before: bytes.endIndex) : bytes.endIndex
        guard let last = bytes[..<end].lastIndex(of: slash) else { return nil }
        return Substring(bytes[...last])
    }

    /// The second entry must be the ZipMetadata of the pack's content entries, byte for byte.
    private static func metadataProblem(_ metadata: [UInt8], count: Int64, bytes: Int64) -> String? {
        let expected = [UInt8](ZipMetadata(recordCount: count, totalUncompressedBytes: bytes).propertyList.binaryData())
        guard metadata != expected else { return nil }
        return """
            '\(ZipMetadata.fileName)' does not hold Version 2, RecordCount \(count), TotalUncompressedBytes \(bytes) \
            and the standard modes
            """
    }

    /// What a local header breaks of docs/build-output.md's zip rules, before its data is read.
    private static func headerProblems(_ entry: StreamingZipReader.LocalEntry) -> [String] {
        var problems: [String] = []
        if entry.flags & ZipFormat.dataDescriptorFlag != 0 { problems.append("flag bit 3 (data descriptor) is set") }
        if entry.flags & ZipFormat.utf8Flag == 0 { problems.append("flag bit 11 (UTF-8 name) is not set") }
        if entry.extraIDs.contains(where: { $0 != ZipFormat.zip64ExtraID }) {
            problems.append(
                "has extra fields \(entry.extraIDs.map { "0x" + String($0, radix: 16) }) (only zip64 is allowed)")
        } else if entry.usesZip64 && !ZipFormat.needsZip64(size: entry.size, compressedSize: entry.compressedSize) {
            problems.append("has a zip64 field it does not need")
        }
        if entry.method == ZipFormat.stored && entry.compressedSize != entry.size {
            problems.append("is stored but its sizes differ (\(entry.compressedSize) and \(entry.size))")
        }
        return problems
    }

    /// Streams the current entry's data into `hasher`, keeping its bytes when asked. Every entry streams; only the
    /// ZipMetadata and Info.plist are kept, and at most 1 MiB of either (docs/build-output.md#bounded): a larger one
    /// is a mismatch (`tooLarge`, nothing kept), whatever its header claims or its data inflates to.
    private static func read(_ reader: StreamingZipReader, hashingInto hasher: inout SHA256Hasher, keeping keep: Bool)
        throws -> (crc: UInt32, size: UInt64, bytes: [UInt8], tooLarge: Bool)
    {
        var bytes: [UInt8] = []
        var tooLarge = false
        let (crc, size) = try reader.readData(hashingInto: &hasher) { piece in
            guard keep, !tooLarge else { return }
            if bytes.count + piece.count > keptEntryLimit {
                tooLarge = true
                bytes = []
            } else {
                bytes.append(contentsOf: piece)
            }
        }
        return (crc, size, bytes, tooLarge)
    }

    /// The central directory must list the local headers, in their order, with the same facts, and the modes and
    /// "version made by" odrpack writes.
    private static func checkCentralDirectory(
        _ central: [StreamingZipReader.CentralEntry], against locals: [StreamingZipReader.LocalEntry],
        _ check: inout PackContentCheck
    ) {
        if central.count != locals.count {
            check.problem(
                .verifyArchiveMismatch,
                "the central directory lists \(central.count) entries, the local headers \(locals.count)")
        }
        for (local, listed) in zip(locals, central) {
            func problem(_ text: String) { check.problem(.verifyEntryMismatch, "entry '\(local.name)': \(text)") }
            guard listed.name == local.name else {
                problem("the central directory lists '\(listed.name)' in its place")
                continue
            }
            if listed.crc != local.crc || listed.size != local.size || listed.compressedSize != local.compressedSize
                || listed.method != local.method || listed.offset != local.offset || listed.flags != local.flags
            {
                problem("the central directory's CRC, sizes, method, flags or offset differ from the local header's")
            }
            if listed.versionMadeBy != ZipFormat.versionMadeBy {
                problem("'version made by' is 0x\(String(listed.versionMadeBy, radix: 16)), not 0x31e (Unix, 3.0)")
            }
            let mode = local.name.hasSuffix("/") ? ZipFormat.folderMode : ZipFormat.fileMode
            if listed.mode != mode {
                problem("mode is 0\(String(listed.mode, radix: 8)), not 0\(String(mode, radix: 8))")
            }
            if listed.extraIDs.contains(where: { $0 != ZipFormat.zip64ExtraID }) {
                problem("has central extra fields other than zip64")
            }
        }
    }

    private func checkFolder(_ path: FilePath, _ check: inout PackContentCheck, _ share: inout ProgressBar.Share)
        throws
    {
        var lines = SHA256Hasher()
        var total: Int64 = 0
        var times = Set<Int64>()
        let buffer = ReadBuffer(size: 1 << 20)
        for entry in try PackEntry.entries(ofFolder: path) {
            let status = try SystemCall.requireStatus(
                path.joined(entry.name), followingLinks: false, .named(.stat, entry.name))
            let mode = status.permissions
            let wanted: FileMode = entry.isFolder ? 0o755 : 0o644
            if mode != wanted {
                check.problem(
                    .verifyEntryMismatch,
                    "'\(entry.name)' has mode 0\(String(mode, radix: 8)), not 0\(String(wanted, radix: 8))")
            }
            times.insert(status.stamp.modificationNanoseconds)
            guard case .file(let location, let size, _, _) = entry.content else { continue }
            let source = location.file
            var bytes: [UInt8] = []
            let keep = entry.name == PackEntry.infoPlistName && size <= Self.keptEntryLimit
            if entry.name == PackEntry.infoPlistName && !keep {
                check.problem(
                    .verifyEntryMismatch,
                    "'\(entry.name)' is larger than \(Self.keptEntryLimit) bytes, far more than odrpack writes there")
            }
            let (_, sha256) = try SourceFile.sha256(of: source, name: entry.name, size: size, buffer: buffer) {
                if keep && bytes.count + $0.count <= Self.keptEntryLimit { bytes.append(contentsOf: $0) }
            }
            total = [total, size].saturatingSum
            share.add(size)
            lines.update("\(entry.name)\0\(size)\0\(sha256)\n")
            check.file(entry.name, size: size, sha256: sha256, bytes: bytes)
        }
        if times.count > 1 {
            check.problem(.verifyArchiveMismatch, "its files and folders do not all have the same modification time")
        }
        check.compareArchive(size: total, sha256: lines.finalize())
    }

    /// A CRC-32 as zip tools print it: `0x5dfbe9e3` (docs/commands.md#scripts).
    static func hex(_ crc: UInt32) -> String {
        let digits = String(crc, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
