/// JSON:API's `type` member, checked by each resource `upload` decodes: a resource of another type is not this one,
/// whatever its attributes (a looser server cannot answer a version with an upload file).
enum ResourceType {
    struct Mismatch: Error {}

    static func expect<Key: CodingKey>(_ type: String, in container: KeyedDecodingContainer<Key>, key: Key) throws {
        guard (try? container.decode(String.self, forKey: key)) == type else { throw Mismatch() }
    }
}
