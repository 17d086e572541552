import Foundation
import ODRPackFormats
import ODRPackPlatform

/// The requests `submit` and `status` make (docs/store.md#submit, docs/store.md#status), each as Apple's OpenAPI
/// description of App Store Connect API 4.4.1 states it (Tests/AppStoreConnect/api): paths, parameters, bodies and
/// enum values; through the same client as `upload`'s, so the same retries, token, trust boundaries and `--verbose`.
struct ReviewAPI: Sendable {
    let client: AppStoreConnectClient

    /// Every state of a submission but `COMPLETE`: the submissions whose items a version may already be in.
    static let unfinishedStates = [
        "READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "UNRESOLVED_ISSUES", "CANCELING", "COMPLETING",
    ]
    private static let submissionFields = ("fields[reviewSubmissions]", "platform,state")
    private static let releaseQuery = [
        (
            "fields[backgroundAssetVersions]",
            "appStoreRelease,internalBetaRelease,locale,platforms,state,stateDetails,version"
        ),
        ("fields[backgroundAssetVersionAppStoreReleases]", "state"),
        ("fields[backgroundAssetVersionInternalBetaReleases]", "state"),
        ("include", "appStoreRelease,internalBetaRelease"),
    ]

    /// `GET /v1/apps/{app}/reviewSubmissions` with `filter[platform]` and `filter[state]`, every page.
    func submissions(app: String, platform: String, states: [String]) throws -> [ReviewSubmissionResource] {
        try client.collection(
            "/v1/apps/\(BackgroundAssetsAPI.segment(app))/reviewSubmissions",
            query: [
                ("filter[platform]", platform), ("filter[state]", states.joined(separator: ",")),
                Self.submissionFields, ("limit", "200"),
            ], pack: nil, of: ReviewSubmissionResource.self)
    }

    /// `GET /v1/reviewSubmissions/{id}`: its platform and state.
    func submission(_ id: String) throws -> ReviewSubmissionResource {
        let document = try client.request(
            "GET", "/v1/reviewSubmissions/\(BackgroundAssetsAPI.segment(id))", query: [Self.submissionFields],
            pack: nil, returning: ReviewSubmissionResource.self)
        return try Self.resource(document, what: "review submission \(id)")
    }

    /// `GET /v1/reviewSubmissions/{id}/items` with each item's `backgroundAssetVersion`, every page.
    func items(of submission: String) throws -> [ReviewSubmissionItemResource] {
        try client.collection(
            "/v1/reviewSubmissions/\(BackgroundAssetsAPI.segment(submission))/items",
            query: [
                ("fields[reviewSubmissionItems]", "backgroundAssetVersion,state"),
                ("include", "backgroundAssetVersion"), ("limit", "200"),
            ], pack: nil, of: ReviewSubmissionItemResource.self)
    }

    /// `POST /v1/reviewSubmissions`: `platform`, relationship `app`.
    func createSubmission(app: String, platform: String) throws -> ReviewSubmissionResource {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("reviewSubmissions")),
                    ("attributes", .object([("platform", .string(platform))])),
                    ("relationships", .object([("app", BackgroundAssetsAPI.link("apps", app))])),
                ])
            )
        ])
        let document = try client.request(
            "POST", "/v1/reviewSubmissions", body: body, pack: nil, returning: ReviewSubmissionResource.self)
        return try Self.resource(document, what: "review submission")
    }

    /// `POST /v1/reviewSubmissionItems`: relationships `reviewSubmission` and `backgroundAssetVersion`.
    func addItem(submission: String, version: String, pack: String) throws -> ReviewSubmissionItemResource {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("reviewSubmissionItems")),
                    (
                        "relationships",
                        .object([
                            ("reviewSubmission", BackgroundAssetsAPI.link("reviewSubmissions", submission)),
                            ("backgroundAssetVersion", BackgroundAssetsAPI.link("backgroundAssetVersions", version)),
                        ])
                    ),
                ])
            )
        ])
        let document = try client.request(
            "POST", "/v1/reviewSubmissionItems", body: body, pack: pack,
            returning: ReviewSubmissionItemResource.self)
        return try BackgroundAssetsAPI.resource(document, what: "review submission item", pack: pack)
    }

    /// `PATCH /v1/reviewSubmissions/{id}` with `submitted: true`.
    func submit(_ id: String) throws -> ReviewSubmissionResource {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("reviewSubmissions")), ("id", .string(id)),
                    ("attributes", .object([("submitted", .bool(true))])),
                ])
            )
        ])
        let document = try client.request(
            "PATCH", "/v1/reviewSubmissions/\(BackgroundAssetsAPI.segment(id))", body: body, pack: nil,
            returning: ReviewSubmissionResource.self)
        return try Self.resource(document, what: "review submission \(id)")
    }

    /// `GET /v1/backgroundAssetVersions/{id}` with its internal beta and App Store releases included.
    func versionWithReleases(_ id: String, pack: String) throws -> VersionStanding {
        let document = try client.request(
            "GET", "/v1/backgroundAssetVersions/\(BackgroundAssetsAPI.segment(id))", query: Self.releaseQuery,
            pack: pack, returning: BackgroundAssetVersionResource.self)
        return VersionStanding(
            version: try BackgroundAssetsAPI.resource(document, what: "version", pack: pack),
            included: document.included)
    }

    /// `GET /v1/backgroundAssets/{id}/versions`, the highest version only, with its releases included.
    func latestVersionWithReleases(of asset: String, pack: String) throws -> VersionStanding? {
        let document = try client.request(
            "GET", "/v1/backgroundAssets/\(BackgroundAssetsAPI.segment(asset))/versions",
            query: [("sort", "-version")] + Self.releaseQuery + [("limit", "1")], pack: pack,
            returning: LossyList<BackgroundAssetVersionResource>.self)
        return document.data?.elements.first.map { VersionStanding(version: $0, included: document.included) }
    }

    private static func resource<T>(_ document: APIDocument<T>, what: String) throws -> T {
        guard let resource = document.data else {
            throw ODRPackError.upload(.missingResource(what, pack: nil))
        }
        return resource
    }
}
