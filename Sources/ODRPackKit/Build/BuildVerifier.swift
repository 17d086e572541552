import Foundation

/// Re-reads every archive of a build folder and checks it against odrpack-manifest.json.
public struct BuildVerifier {
    public struct PackReport: Sendable {
        public var id: String
        public var file: String
        public var problems: [String]
        public var ok: Bool { problems.isEmpty }
    }

    public struct Report: Sendable {
        public var packs: [PackReport]
        /// Archives in the packs folder that the manifest does not list.
        public var extraArchives: [String]
        public var ok: Bool { extraArchives.isEmpty && packs.allSatisfy(\.ok) }
    }

    public init() {}

    /// - Throws: `BuildManifest.ReadError` when the manifest is missing or corrupt.
    public func verify(_ path: String) throws -> Report {
        let (manifest, folder) = try BuildManifest.load(path)
        let reports = try parallelMap(manifest.packs) { check($0, folder: folder) }
        let listed = Set(manifest.packs.map { ($0.file as NSString).lastPathComponent })
        let archives = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + AppleManifests.packsFolder)) ?? []
        let extra = archives.filter { $0.hasSuffix(".assetpack") && !listed.contains($0) }.sorted { $0.precedesByCodePoint($1) }
        return Report(packs: reports, extraArchives: extra)
    }

    func check(_ pack: BuildManifest.Pack, folder: String) -> PackReport {
        var report = PackReport(id: pack.id, file: pack.file, problems: [])
        let path = folder + "/" + pack.file
        guard FileManager.default.fileExists(atPath: path) else {
            report.problems.append("archive '\(pack.file)' is missing")
            return report
        }
        do {
            let (size, sha256) = try Self.fileDigest(path)
            if let expected = pack.archiveSize, expected != size {
                report.problems.append("archive is \(size) bytes, the manifest says \(expected)")
            }
            if let expected = pack.archiveSha256, expected != sha256 {
                report.problems.append("archive sha256 is \(sha256), the manifest says \(expected)")
            }
            var expected = Dictionary(pack.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            var sawInfo = false
            let reader = try ZipArchiveReader(path: path)
            while let name = try reader.nextEntry() {
                var hasher = SHA256Hasher()
                let count = try reader.readData { hasher.update($0) }
                if name == "Info.plist" && !sawInfo && expected[name] == nil {
                    sawInfo = true
                    continue
                }
                guard let file = expected.removeValue(forKey: name) else {
                    report.problems.append("entry '\(name)' is not in the manifest")
                    continue
                }
                if count != file.size {
                    report.problems.append("entry '\(name)' is \(count) bytes, the manifest says \(file.size)")
                } else if let sha = file.sha256, sha != hasher.finalize() {
                    report.problems.append("entry '\(name)' does not match its sha256")
                }
            }
            if !sawInfo { report.problems.append("the archive has no Info.plist") }
            for path in expected.keys.sorted(by: { $0.precedesByCodePoint($1) }) {
                report.problems.append("entry '\(path)' is missing from the archive")
            }
        } catch {
            report.problems.append("archive cannot be read: \(error)")
        }
        return report
    }

    static func fileDigest(_ path: String) throws -> (Int64, String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BuildError.io("cannot open \(path)", errno: EIO) }
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        var total: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            total += Int64(chunk.count)
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        return (total, hasher.finalize())
    }
}
