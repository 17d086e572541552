import Foundation
import ODRPackPlatform

/// App Store Connect's error document (`{"errors": [{"code", "title", "detail"}]}`): what a failure
/// (`ODRPackError.http`) and a `--verbose` line quote (docs/store.md#failures), each `code: detail`.
struct APIErrors: Decodable {
    struct Item: Decodable {
        var code: String?
        var title: String?
        var detail: String?

        private enum Keys: String, CodingKey { case code, title, detail }

        /// Each member that is not a string is taken as missing, as App Store Connect's own clients do.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            code = try? container.decodeIfPresent(String.self, forKey: .code)
            title = try? container.decodeIfPresent(String.self, forKey: .title)
            detail = try? container.decodeIfPresent(String.self, forKey: .detail)
        }

        /// The item as a failure carries it: its code, and its detail (the title when there is no detail).
        var fact: AppleAPIError { AppleAPIError(code: code, detail: detail ?? title) }
    }

    var errors: LossyList<Item>?

    /// The `errors[]` of a response body; none when the body is not App Store Connect's JSON.
    static func items(in body: Data) -> [AppleAPIError] {
        guard let document = try? JSONDecoder().decode(APIErrors.self, from: body) else { return [] }
        return document.errors?.elements.map(\.fact) ?? []
    }
}
