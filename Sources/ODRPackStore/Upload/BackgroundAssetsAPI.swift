import Foundation
import ODRPackFormats
import ODRPackPlatform

/// The requests `upload` makes, each as Apple's OpenAPI description of App Store Connect API 4.4.1 states it
/// (Tests/AppStoreConnect/api/app-store-connect-api-4.4.1-background-assets.json): paths, parameters, bodies and type
/// names; each answer decoded as its resource type (APIDocument).
struct BackgroundAssetsAPI: Sendable {
    let client: AppStoreConnectClient

    private static let assetFields = ("fields[backgroundAssets]", "archived,assetPackIdentifier,usedBytes")
    private static let versionFields = (
        "fields[backgroundAssetVersions]", "locale,platforms,state,stateDetails,version"
    )

    /// `GET /v1/apps` with `filter[bundleId]`: the app record's id, nil when the key sees no such app.
    func appID(bundleID: String) throws -> String? {
        let apps = try client.collection(
            "/v1/apps", query: [("filter[bundleId]", bundleID), ("fields[apps]", "bundleId"), ("limit", "200")],
            pack: nil, of: AppResource.self)
        // The filter matches exactly in App Store Connect; checked here too, so a looser server cannot pick another app.
        return apps.first { $0.bundleID == bundleID }?.id
    }

    /// `GET /v1/apps/{id}/backgroundAssets`, every page; with `identifier`, filtered by `filter[assetPackIdentifier]`.
    func backgroundAssets(app: String, identifier: String? = nil, pack: String?) throws -> [BackgroundAssetResource] {
        var query = [Self.assetFields, ("limit", "200")]
        if let identifier { query.insert(("filter[assetPackIdentifier]", identifier), at: 0) }
        return try client.collection(
            "/v1/apps/\(Self.segment(app))/backgroundAssets", query: query, pack: pack, of: BackgroundAssetResource.self
        )
    }

    /// `POST /v1/backgroundAssets` with the asset pack id and the app.
    func createBackgroundAsset(app: String, identifier: String) throws -> BackgroundAssetResource {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("backgroundAssets")),
                    ("attributes", .object([("assetPackIdentifier", .string(identifier))])),
                    ("relationships", .object([("app", Self.link("apps", app))])),
                ])
            )
        ])
        let document = try client.request(
            "POST", "/v1/backgroundAssets", body: body, pack: identifier, returning: BackgroundAssetResource.self)
        return try Self.resource(document, what: "background asset", pack: identifier)
    }

    /// `GET /v1/backgroundAssets/{id}/versions`, the highest version only.
    func latestVersion(of asset: String, pack: String) throws -> BackgroundAssetVersionResource? {
        let document = try client.request(
            "GET", "/v1/backgroundAssets/\(Self.segment(asset))/versions",
            query: [("sort", "-version"), Self.versionFields, ("limit", "1")], pack: pack,
            returning: LossyList<BackgroundAssetVersionResource>.self)
        return document.data?.elements.first
    }

    /// `POST /v1/backgroundAssetVersions` (relationship `backgroundAsset`; no attributes: App Store Connect numbers it).
    func createVersion(of asset: String, pack: String) throws -> BackgroundAssetVersionResource {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("backgroundAssetVersions")),
                    ("relationships", .object([("backgroundAsset", Self.link("backgroundAssets", asset))])),
                ])
            )
        ])
        let document = try client.request(
            "POST", "/v1/backgroundAssetVersions", body: body, pack: pack,
            returning: BackgroundAssetVersionResource.self)
        return try Self.resource(document, what: "version", pack: pack)
    }

    /// `GET /v1/backgroundAssetVersions/{id}`: its number, state and stateDetails.
    func version(_ id: String, pack: String) throws -> BackgroundAssetVersionResource {
        let document = try client.request(
            "GET", "/v1/backgroundAssetVersions/\(Self.segment(id))", query: [Self.versionFields], pack: pack,
            returning: BackgroundAssetVersionResource.self)
        return try Self.resource(document, what: "version", pack: pack)
    }

    /// `POST /v1/backgroundAssetUploadFiles`: `fileName`, `fileSize`, `assetType` `ASSET`, the version.
    func reserveUpload(version: String, fileName: String, size: Int64, pack: String) throws -> UploadFileResource {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("backgroundAssetUploadFiles")),
                    (
                        "attributes",
                        .object([
                            ("fileName", .string(fileName)), ("fileSize", .int(size)), ("assetType", .string("ASSET")),
                        ])
                    ),
                    (
                        "relationships",
                        .object([("backgroundAssetVersion", Self.link("backgroundAssetVersions", version))])
                    ),
                ])
            )
        ])
        let document = try client.request(
            "POST", "/v1/backgroundAssetUploadFiles", body: body, pack: pack, returning: UploadFileResource.self)
        return try Self.resource(document, what: "upload file", pack: pack)
    }

    /// `GET /v1/backgroundAssetUploadFiles/{id}`: a reservation made by a run that stopped, with its operations.
    func uploadFile(_ id: String, pack: String) throws -> UploadFileResource {
        let document = try client.request(
            "GET", "/v1/backgroundAssetUploadFiles/\(Self.segment(id))",
            query: [("fields[backgroundAssetUploadFiles]", "assetDeliveryState,uploadOperations")], pack: pack,
            returning: UploadFileResource.self)
        return try Self.resource(document, what: "upload file", pack: pack)
    }

    /// `PATCH /v1/backgroundAssetUploadFiles/{id}` with `uploaded: true` and no checksums (guessed checksum shapes
    /// were answered 409 for the projects that sent them).
    func commitUpload(_ id: String, pack: String) throws {
        let body = JSONValue.object([
            (
                "data",
                .object([
                    ("type", .string("backgroundAssetUploadFiles")), ("id", .string(id)),
                    ("attributes", .object([("uploaded", .bool(true))])),
                ])
            )
        ])
        _ = try client.request(
            "PATCH", "/v1/backgroundAssetUploadFiles/\(Self.segment(id))", body: body, pack: pack,
            returning: IgnoredResource.self)
    }

    static func link(_ type: String, _ id: String) -> JSONValue {
        .object([("data", .object([("type", .string(type)), ("id", .string(id))]))])
    }

    /// The one resource a request answers with, or exit 2 naming what is missing.
    static func resource<T>(_ document: APIDocument<T>, what: String, pack: String) throws -> T {
        guard let resource = document.data else {
            throw ODRPackError.upload(.missingResource(what, pack: pack))
        }
        return resource
    }

    /// An id from a response, as one path segment: anything but unreserved characters is percent-encoded.
    static func segment(_ id: String) -> String {
        AppStoreConnectClient.encode(id).replacingOccurrences(of: ",", with: "%2C")
    }
}
