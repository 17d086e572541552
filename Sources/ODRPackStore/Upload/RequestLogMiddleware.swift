import Foundation
import ODRPackPlatform

/// `--verbose` (docs/store.md#output): each request as it is sent (`> GET /v1/apps/123/backgroundAssets`) and as it
/// is answered (`< 503 POST /v1/backgroundAssetVersions (0.012 s): CODE: detail`). API requests by path, a part by
/// origin and path: never a query (a presigned URL's is a credential), never a header value. Innermost, so the time
/// is the exchange's own, not a wait for a slot.
struct RequestLogMiddleware: HTTPMiddleware {
    let base: APIBaseURL
    let note: @Sendable (String) -> Void

    func intercept(_ request: HTTPRequest, what: StoreRequest, next: HTTPNext) throws -> HTTPResult {
        let line =
            base.owns(request.url)
            ? "\(request.method) \(request.url.path)"
            : AppStoreConnectClient.describe(pack: nil, method: request.method, url: request.url).description
        note("> \(line)")
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try next(request)
        let time = String(format: "%.3f s", Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9)
        switch result {
        case .success(let response):
            let errors = response.status >= 400 ? APIErrors.items(in: response.body) : []
            note(
                "< \(response.status) \(line) (\(time))"
                    + (errors.isEmpty ? "" : ": " + errors.map(\.description).joined(separator: "; ")))
        case .failure(let failure):
            note("< \(failure.reason) \(line) (\(time))")
        }
        return result
    }
}
