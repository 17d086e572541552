/// A `backgroundAssetVersions` resource: App Store Connect numbers versions itself (`version` is a string).
struct BackgroundAssetVersionResource: Decodable, Sendable {
    var id: String
    var version: String?
    /// `AWAITING_UPLOAD`, `PROCESSING`, `FAILED` or `COMPLETE` (BackgroundAssetVersionState).
    var state: VersionState?
    /// `stateDetails.errors`, as `code: description`.
    var errors: [String]
    /// What App Store Connect derived from the pack manifest in the archive (read-only): the language, nil for none,
    /// and the platforms (`IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`), nil when not given.
    var locale: String?
    var platforms: [String]?
    /// The ids of the version's internal beta and App Store releases (relationships), nil when it has none.
    var internalBetaRelease: String?
    var appStoreRelease: String?

    private enum Keys: String, CodingKey {
        case type, id, attributes, version, state, stateDetails, errors, locale, platforms, relationships, data
        case internalBetaRelease, appStoreRelease
    }

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
        state = (try? attributes?.decodeIfPresent(String.self, forKey: .state))?.map(VersionState.init(rawValue:))
        let details = try? attributes?.nestedContainer(keyedBy: Keys.self, forKey: .stateDetails)
        let list = (try? details?.decodeIfPresent(LossyList<StateError>.self, forKey: .errors)) ?? nil
        errors = list?.elements.map(\.message) ?? []
        locale = (try? attributes?.decodeIfPresent(String.self, forKey: .locale)) ?? nil
        platforms = (try? attributes?.decodeIfPresent([String].self, forKey: .platforms)) ?? nil
        let relationships = try? container.nestedContainer(keyedBy: Keys.self, forKey: .relationships)
        internalBetaRelease = Self.related(relationships, .internalBetaRelease)
        appStoreRelease = Self.related(relationships, .appStoreRelease)
    }

    /// `relationships.<key>.data.id`, nil when absent or null.
    private static func related(_ relationships: KeyedDecodingContainer<Keys>?, _ key: Keys) -> String? {
        let relationship = try? relationships?.nestedContainer(keyedBy: Keys.self, forKey: key)
        let data = try? relationship?.nestedContainer(keyedBy: Keys.self, forKey: .data)
        return (try? data?.decodeIfPresent(String.self, forKey: .id)) ?? nil
    }
}
