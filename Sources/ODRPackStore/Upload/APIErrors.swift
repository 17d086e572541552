import Foundation

/// App Store Connect's error document (`{"errors": [{"code", "title", "detail"}]}`): what a failure message and a
/// `--verbose` line quote (docs/store.md#failures), each `code: detail`.
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

        /// `code: detail` (the title when there is no detail), or the code alone; `?` for a missing code.
        var message: String {
            let text = detail ?? title ?? ""
            return text.isEmpty ? (code ?? "?") : "\(code ?? "?"): \(text)"
        }
    }

    var errors: LossyList<Item>?

    /// The `errors[]` of a response body, each `code: detail`; none when the body is not App Store Connect's JSON.
    static func messages(in body: Data) -> [String] {
        guard let document = try? JSONDecoder().decode(APIErrors.self, from: body) else { return [] }
        return document.errors?.elements.map(\.message) ?? []
    }
}
