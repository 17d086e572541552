import Foundation

/// A `backgroundAssets` resource: an asset pack id of the app.
struct BackgroundAssetResource: Sendable {
    var id: String
    var assetPackIdentifier: String
    var archived: Bool
    var usedBytes: Int64

    init?(_ resource: [String: Any]) {
        guard resource["type"] as? String == "backgroundAssets", let id = resource["id"] as? String else { return nil }
        let attributes = resource["attributes"] as? [String: Any] ?? [:]
        self.id = id
        assetPackIdentifier = attributes["assetPackIdentifier"] as? String ?? ""
        archived = attributes["archived"] as? Bool ?? false
        usedBytes = (attributes["usedBytes"] as? NSNumber)?.int64Value ?? 0
    }
}

/// A `backgroundAssetVersions` resource: App Store Connect numbers versions itself (`version` is a string).
struct BackgroundAssetVersionResource: Sendable {
    var id: String
    var version: String?
    /// `AWAITING_UPLOAD`, `PROCESSING`, `FAILED` or `COMPLETE` (BackgroundAssetVersionState).
    var state: String?
    /// `stateDetails.errors`, as `code: description`.
    var errors: [String]

    init?(_ resource: [String: Any]) {
        guard resource["type"] as? String == "backgroundAssetVersions", let id = resource["id"] as? String else {
            return nil
        }
        let attributes = resource["attributes"] as? [String: Any] ?? [:]
        self.id = id
        version = attributes["version"] as? String
        state = attributes["state"] as? String
        let details = attributes["stateDetails"] as? [String: Any] ?? [:]
        errors = (details["errors"] as? [[String: Any]] ?? []).map { error in
            let code = error["code"] as? String ?? "?"
            let description = error["description"] as? String ?? ""
            return description.isEmpty ? code : "\(code): \(description)"
        }
    }
}

/// One item of a `backgroundAssetUploadFiles` resource's `uploadOperations` (DeliveryFileUploadOperation).
struct UploadOperation: Sendable {
    var method: String
    var url: String
    var offset: Int64
    var length: Int64
    var headers: [(name: String, value: String)]
    var expiration: Date?

    init?(_ item: [String: Any]) {
        guard let method = item["method"] as? String, let url = item["url"] as? String,
            let offset = (item["offset"] as? NSNumber)?.int64Value,
            let length = (item["length"] as? NSNumber)?.int64Value,
            offset >= 0, length >= 1
        else { return nil }
        self.method = method
        self.url = url
        self.offset = offset
        self.length = length
        headers = (item["requestHeaders"] as? [[String: Any]] ?? []).compactMap { header in
            guard let name = header["name"] as? String, let value = header["value"] as? String else { return nil }
            return (name, value)
        }
        expiration = (item["expiration"] as? String).flatMap(Self.parseDate)
    }

    /// Whether `expiration` is past (`margin` seconds early, so a part does not start just before it).
    func hasExpired(margin: TimeInterval = 5, now: Date = Date()) -> Bool {
        guard let expiration else { return false }
        return now.addingTimeInterval(margin) >= expiration
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// A `backgroundAssetUploadFiles` resource: the reservation of one archive's upload.
struct UploadFileResource: Sendable {
    var id: String
    var operations: [UploadOperation]
    /// `assetDeliveryState.state`: `AWAITING_UPLOAD`, `UPLOAD_COMPLETE`, `COMPLETE` or `FAILED`.
    var deliveryState: String?

    init?(_ resource: [String: Any]) {
        guard resource["type"] as? String == "backgroundAssetUploadFiles", let id = resource["id"] as? String else {
            return nil
        }
        let attributes = resource["attributes"] as? [String: Any] ?? [:]
        self.id = id
        operations = (attributes["uploadOperations"] as? [[String: Any]] ?? []).compactMap(UploadOperation.init)
        deliveryState = (attributes["assetDeliveryState"] as? [String: Any])?["state"] as? String
    }

    /// The operations cover `size` bytes exactly once, in any order; else the reservation cannot be used.
    func coversExactly(_ size: Int64) -> Bool {
        var next: Int64 = 0
        for operation in operations.sorted(by: { $0.offset < $1.offset }) {
            guard operation.offset == next else { return false }
            let (end, overflow) = operation.offset.addingReportingOverflow(operation.length)
            guard !overflow else { return false }
            next = end
        }
        return next == size
    }
}
