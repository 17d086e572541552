/// A pack version's release as `status` reads it (docs/store.md#status): its internal beta release
/// (`READY_FOR_TESTING`, `SUPERSEDED`) or its App Store release (`PREPARE_FOR_SUBMISSION` … `READY_FOR_DISTRIBUTION`).
struct ReleaseResource: Decodable, Sendable {
    enum Kind: String, Sendable {
        case internalBeta = "backgroundAssetVersionInternalBetaReleases"
        case appStore = "backgroundAssetVersionAppStoreReleases"
    }

    var kind: Kind
    var id: String
    var state: String?

    private enum Keys: String, CodingKey { case type, id, attributes, state }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        guard let kind = Kind(rawValue: try container.decode(String.self, forKey: .type)) else {
            throw ResourceType.Mismatch()
        }
        self.kind = kind
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        state = (try? attributes?.decodeIfPresent(String.self, forKey: .state)) ?? nil
    }
}
