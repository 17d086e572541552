/// A `backgroundAssetUploadFiles` resource: the reservation of one archive's upload.
struct UploadFileResource: Decodable, Sendable {
    var id: String
    var operations: [UploadOperation]
    /// `assetDeliveryState.state`: `AWAITING_UPLOAD`, `UPLOAD_COMPLETE`, `COMPLETE` or `FAILED`.
    var deliveryState: String?

    private enum Keys: String, CodingKey { case type, id, attributes, uploadOperations, assetDeliveryState, state }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try ResourceType.expect("backgroundAssetUploadFiles", in: container, key: .type)
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        let listed = try? attributes?.decodeIfPresent(LossyList<UploadOperation>.self, forKey: .uploadOperations)
        operations = listed?.elements ?? []
        let delivery = try? attributes?.nestedContainer(keyedBy: Keys.self, forKey: .assetDeliveryState)
        deliveryState = (try? delivery?.decodeIfPresent(String.self, forKey: .state)) ?? nil
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
