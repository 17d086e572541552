import Foundation
import ODRPackFormats
import ODRPackPlatform

/// `BUILD_DIR/odrpack-upload.json` (docs/store.md#the-upload-record): per asset pack id, what `upload` last did, so a
/// run after a failure or a kill continues without sending a committed pack twice. It holds ids, numbers and states
/// only: no secret, no presigned URL. `build` and `verify` leave it alone.
package struct UploadRecord: Sendable, Equatable {
    package static let fileName = "odrpack-upload.json"
    static let schemaVersion = 1

    package struct Entry: Sendable, Equatable {
        var archiveSha256: String
        var archiveSize: Int64
        var backgroundAssetId: String?
        var versionId: String?
        var version: String?
        var uploadFileId: String?
        /// The version's last state seen: `AWAITING_UPLOAD` until the commit, then `PROCESSING`, `COMPLETE`, `FAILED`.
        var state: VersionState?
        /// What App Store Connect derived once the version was `COMPLETE` (docs/store.md#upload): `locale` (nil for
        /// none) and `platforms`, both written only once read (`platforms` non-nil).
        var locale: String?
        var platforms: [String]?
        /// `submit` (docs/store.md#submit): the review submission and its item holding this version, and the
        /// submission's last state seen.
        var reviewSubmissionId: String?
        var reviewSubmissionItemId: String?
        var reviewSubmissionState: String?

        /// Committed from this archive: App Store Connect has its bytes (processing, or done).
        func isCommitted(sha256: String) -> Bool {
            archiveSha256 == sha256 && (state == .processing || state == .complete)
        }
    }

    /// The App Store Connect app the entries belong to; a record of another app is started afresh.
    var app: String?
    var packs: [String: Entry] = [:]

    init(app: String?) { self.app = app }

    /// The largest record read (docs/build-output.md#bounded): a record of 100 packs is a few tens of KB.
    static let maximumBytes = 16 << 20

    /// Reads the record in `folder`; none is an empty record.
    /// - Throws: `ODRPackError.upload(.recordDamaged)` (exit 2) for a record that is not one: trusting a damaged one
    ///   could send a pack twice or skip one.
    static func load(folder: FilePath) throws -> UploadRecord {
        let path = folder.joined(fileName)
        let bytes: [UInt8]
        switch LocalFileSystem().contents(of: path, limit: Self.maximumBytes) {
        case .success(let read): bytes = read
        case .failure(let error) where error.code == ENOENT: return UploadRecord(app: nil)
        case .failure(let error): throw ODRPackError.upload(.recordUnreadable(path, error))
        }
        let damaged = ODRPackError.upload(.recordDamaged(path))
        guard let document = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
            (document["schemaVersion"] as? NSNumber)?.intValue == schemaVersion,
            let packs = document["packs"] as? [String: Any]
        else { throw damaged }
        var record = UploadRecord(app: document["app"] as? String)
        for (id, value) in packs {
            guard let fields = value as? [String: Any], let sha = fields["archiveSha256"] as? String,
                let size = (fields["archiveSize"] as? NSNumber)?.int64Value
            else { throw damaged }
            record.packs[id] = Entry(
                archiveSha256: sha, archiveSize: size, backgroundAssetId: fields["backgroundAssetId"] as? String,
                versionId: fields["versionId"] as? String, version: fields["version"] as? String,
                uploadFileId: fields["uploadFileId"] as? String,
                state: (fields["state"] as? String).map(VersionState.init(rawValue:)),
                locale: fields["locale"] as? String, platforms: fields["platforms"] as? [String],
                reviewSubmissionId: fields["reviewSubmissionId"] as? String,
                reviewSubmissionItemId: fields["reviewSubmissionItemId"] as? String,
                reviewSubmissionState: fields["reviewSubmissionState"] as? String)
        }
        return record
    }

    /// The document: keys sorted, 2-space indent, one trailing newline.
    var json: JSONValue {
        let entries = packs.keys.sorted { $0.precedesByCodePoint($1) }.map { id -> (String, JSONValue) in
            let entry = packs[id]!
            var members: [(String, JSONValue)] = [
                ("archiveSha256", .string(entry.archiveSha256)),
                ("archiveSize", .int(entry.archiveSize)),
                ("backgroundAssetId", .optional(entry.backgroundAssetId)),
            ]
            if let platforms = entry.platforms {
                members += [("locale", .optional(entry.locale)), ("platforms", .strings(platforms))]
            }
            if entry.reviewSubmissionId != nil || entry.reviewSubmissionItemId != nil {
                members += [
                    ("reviewSubmissionId", .optional(entry.reviewSubmissionId)),
                    ("reviewSubmissionItemId", .optional(entry.reviewSubmissionItemId)),
                    ("reviewSubmissionState", .optional(entry.reviewSubmissionState)),
                ]
            }
            members += [
                ("state", .optional(entry.state?.rawValue)),
                ("uploadFileId", .optional(entry.uploadFileId)),
                ("version", .optional(entry.version)),
                ("versionId", .optional(entry.versionId)),
            ]
            return (id, .object(members))
        }
        return .object([("app", .optional(app)), ("packs", .object(entries)), ("schemaVersion", .int(1))])
    }

    /// Written beside its place, flushed, and renamed over the old record.
    func write(folder: FilePath) throws {
        try AtomicFile.write(
            json.serializedBytes(expandingArrays: true), to: folder.joined(Self.fileName), durable: true)
    }
}

/// The record shared by the packs uploading at once: each change is written before the step after it starts.
final class SharedUploadRecord: Sendable {
    private let state: Locked<UploadRecord>
    private let folder: FilePath

    init(_ record: UploadRecord, folder: FilePath) {
        state = Locked(record)
        self.folder = folder
    }

    func entry(_ id: String) -> UploadRecord.Entry? { state.withLock { $0.packs[id] } }

    /// Changes one pack's entry and rewrites the file, under one lock so that writes never interleave.
    func update(_ id: String, _ change: (inout UploadRecord.Entry) -> Void, creating fresh: UploadRecord.Entry) throws {
        try state.withLock { record in
            var entry = record.packs[id] ?? fresh
            change(&entry)
            record.packs[id] = entry
            try record.write(folder: folder)
        }
    }
}
