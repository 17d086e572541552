/// An `apps` resource, as `GET /v1/apps?filter[bundleId]=` answers: its id (the app's Apple ID) and bundle id.
struct AppResource: Decodable, Sendable {
    var id: String
    var bundleID: String?

    private enum Keys: String, CodingKey { case type, id, attributes, bundleId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        try ResourceType.expect("apps", in: container, key: .type)
        id = try container.decode(String.self, forKey: .id)
        let attributes = try? container.nestedContainer(keyedBy: Keys.self, forKey: .attributes)
        bundleID = (try? attributes?.decodeIfPresent(String.self, forKey: .bundleId)) ?? nil
    }
}
