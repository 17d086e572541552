/// A `backgroundAssets` resource: an asset pack id of the app, whether it is archived, and the bytes it holds.
struct BackgroundAssetResource: Decodable, Sendable {
    var id: String
    var assetPackIdentifier: String
    var archived: Bool
    var usedBytes: Int64

    private enum Keys: String, CodingKey { case type, id, attributes, assetPackIdentifier, archived, usedBytes }

    init(id: String, assetPackIdentifier: String, archived: Bool = false, usedBytes: Int64 = 0) {
        self.id = id
        self.assetPackIdentifier = assetPackIdentifier
        self.archived = archived
        self.usedBytes = usedBytes
    }

    /// Attributes App Store Connect leaves out are "", false and 0.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try ResourceType.expect("backgroundAssets", in: container, key: .type)
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        assetPackIdentifier = (try? attributes?.decodeIfPresent(String.self, forKey: .assetPackIdentifier)) ?? ""
        archived = (try? attributes?.decodeIfPresent(Bool.self, forKey: .archived)) ?? false
        usedBytes = attributes.flatMap { LenientNumber.saturatingInt64($0, .usedBytes) } ?? 0
    }
}
