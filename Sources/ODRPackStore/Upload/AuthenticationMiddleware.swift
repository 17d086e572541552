import ODRPackPlatform

/// The API key's bearer token on an API request (docs/store.md#credentials), and only on one to the API's own origin
/// (docs/store.md#trust-boundaries): a request anywhere else is refused before it leaves, whatever made its URL.
/// A 401 is sent again once with a new token (a token Apple no longer takes, or a clock that drifted); a second 401
/// is the answer. Inside RetryMiddleware, so each attempt takes the token current then.
struct AuthenticationMiddleware: HTTPMiddleware {
    let base: APIBaseURL
    let token: APIToken

    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult {
        guard base.owns(request.url) else {
            throw ODRPackError.refused(.tokenOutside(what, base: base.text))
        }
        let bearer = token.current()
        let result = try next(Self.authorized(request, bearer))
        guard case .success(let response) = result, response.status == 401 else { return result }
        return try next(Self.authorized(request, token.current(replacing: bearer)))
    }

    /// `request` with `Authorization: Bearer …` first among its headers.
    static func authorized(_ request: HTTPRequest, _ bearer: String) -> HTTPRequest {
        var authorized = request
        authorized.headers.insert(("Authorization", "Bearer " + bearer), at: 0)
        return authorized
    }
}
