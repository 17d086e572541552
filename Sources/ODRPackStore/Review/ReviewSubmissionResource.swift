/// A `reviewSubmissions` resource: one platform's submission of the app to App Review (docs/store.md#submit).
struct ReviewSubmissionResource: Decodable, Sendable {
    var id: String
    /// App Store Connect's Platform value: `IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`.
    var platform: String?
    /// `READY_FOR_REVIEW`, `WAITING_FOR_REVIEW`, `IN_REVIEW`, `UNRESOLVED_ISSUES`, `CANCELING`, `COMPLETING`, `COMPLETE`.
    var state: String?

    private enum Keys: String, CodingKey { case type, id, attributes, platform, state }

    init(id: String, platform: String?, state: String?) {
        self.id = id
        self.platform = platform
        self.state = state
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try ResourceType.expect("reviewSubmissions", in: container, key: .type)
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        platform = (try? attributes?.decodeIfPresent(String.self, forKey: .platform)) ?? nil
        state = (try? attributes?.decodeIfPresent(String.self, forKey: .state)) ?? nil
    }
}
