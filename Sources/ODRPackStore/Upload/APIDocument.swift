import Foundation

/// A JSON:API document as App Store Connect answers a request `upload` makes (docs/store.md#upload): `data`, one
/// resource or a page of them, and `links.next` for the next page. Decoded leniently where App Store Connect may grow:
/// members `upload` does not read are ignored, and a `data` that is missing or not of the expected shape is nil, for
/// the caller to name (`answered without the version it should return`).
struct APIDocument<Resource: Decodable>: Decodable {
    var data: Resource?
    /// `links.next`: an absolute URL of the next page, nil (or empty) on the last.
    var next: String?
    /// `included`: the releases a request asked for with `include` (`status`); other types are left out.
    var included: [ReleaseResource] = []

    init(data: Resource? = nil, next: String? = nil) {
        self.data = data
        self.next = next
    }

    private enum Keys: String, CodingKey { case data, links, next, included }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        data = try? container.decodeIfPresent(Resource.self, forKey: .data)
        included =
            ((try? container.decodeIfPresent(LossyList<ReleaseResource>.self, forKey: .included)) ?? nil)?
            .elements ?? []
        let links = try? container.nestedContainer(keyedBy: Keys.self, forKey: .links)
        next = (try? links?.decodeIfPresent(String.self, forKey: .next)) ?? nil
    }
}

/// A page's `data`: the resources that decode as `Element`; another type, or one missing its `id`, is left out as
/// the untyped reading left it out (a looser server cannot slip in a resource of another kind).
struct LossyList<Element: Decodable>: Decodable {
    var elements: [Element]

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else {
                _ = try? container.decode(Skipped.self)
            }
        }
        self.elements = elements
    }

    /// Any JSON value, read past.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// A response whose body `upload` does not read (the commit's): only that it is a JSON object, or empty.
struct IgnoredResource: Decodable {
    init(from decoder: any Decoder) throws {}
}
