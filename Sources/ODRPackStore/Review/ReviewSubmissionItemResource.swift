/// A `reviewSubmissionItems` resource: one thing a submission holds; for `submit`, a pack version
/// (docs/store.md#submit).
struct ReviewSubmissionItemResource: Decodable, Sendable {
    var id: String
    /// `READY_FOR_REVIEW`, `ACCEPTED`, `APPROVED`, `REJECTED`, `REMOVED`.
    var state: String?
    /// `relationships.backgroundAssetVersion.data.id`: nil for an item that is not a pack version.
    var versionID: String?

    private enum Keys: String, CodingKey {
        case type, id, attributes, state, relationships, backgroundAssetVersion, data
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try ResourceType.expect("reviewSubmissionItems", in: container, key: .type)
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        state = (try? attributes?.decodeIfPresent(String.self, forKey: .state)) ?? nil
        let relationships = try? container.nestedContainer(keyedBy: Keys.self, forKey: .relationships)
        let version = try? relationships?.nestedContainer(keyedBy: Keys.self, forKey: .backgroundAssetVersion)
        let data = try? version?.nestedContainer(keyedBy: Keys.self, forKey: .data)
        versionID = (try? data?.decodeIfPresent(String.self, forKey: .id)) ?? nil
    }
}
