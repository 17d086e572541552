/// A `backgroundAssetVersions` resource: App Store Connect numbers versions itself (`version` is a string).
struct BackgroundAssetVersionResource: Decodable, Sendable {
    var id: String
    var version: String?
    /// `AWAITING_UPLOAD`, `PROCESSING`, `FAILED` or `COMPLETE` (BackgroundAssetVersionState).
    var state: String?
    /// `stateDetails.errors`, as `code: description`.
    var errors: [String]

    private enum Keys: String, CodingKey { case type, id, attributes, version, state, stateDetails, errors }

    /// One of `stateDetails.errors` (AppMediaStateError).
    private struct StateError: Decodable {
        var code: String?
        var description: String?

        var message: String {
            let text = description ?? ""
            return text.isEmpty ? (code ?? "?") : "\(code ?? "?"): \(text)"
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try ResourceType.expect("backgroundAssetVersions", in: container, key: .type)
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        version = (try? attributes?.decodeIfPresent(String.self, forKey: .version)) ?? nil
        state = (try? attributes?.decodeIfPresent(String.self, forKey: .state)) ?? nil
        let details = try? attributes?.nestedContainer(keyedBy: Keys.self, forKey: .stateDetails)
        let list = (try? details?.decodeIfPresent(LossyList<StateError>.self, forKey: .errors)) ?? nil
        errors = list?.elements.map(\.message) ?? []
    }
}
