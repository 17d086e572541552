import Foundation
import ODRPackBuildFormat
import ODRPackCore
import Testing

@testable import ODRPackBuild
@testable import ODRPackThin
@testable import ODRPackVerify

/// docs/architecture.md#pack-formats: each format is one type that answers what every command asks, and build,
/// verify and thin each find their side of it through their own exhaustive switch on `PackFormat` (a format without
/// a side does not compile; these tests check each switch picks the format's own type).
@Suite struct PackFormatKindTests {
    @Test func everyFormatMapsToItsOwnConformance() {
        #expect(PackFormat.allKinds.map(\.format) == [.odr, .backgroundAssets])
        #expect(PackFormat.odr.kind is OnDemandResourcesKind)
        #expect(PackFormat.backgroundAssets.kind is BackgroundAssetsKind)
    }

    @Test func everyFormatHasItsBuildVerifyAndThinSides() {
        for format in PackFormat.allCases {
            let kind = ObjectIdentifier(type(of: format.kind))
            #expect(ObjectIdentifier(type(of: format.building)) == kind, "\(format)")
            #expect(ObjectIdentifier(type(of: format.verifying)) == kind, "\(format)")
            #expect(ObjectIdentifier(type(of: format.thinning)) == kind, "\(format)")
            #expect(format.building.format == format)
            #expect(format.verifying.format == format)
            #expect(format.thinning.format == format)
        }
    }

    @Test func onDemandResourcesAnswers() {
        let kind = OnDemandResourcesKind()
        #expect(kind.name == "On-Demand Resources")
        #expect(kind.nameWithArticle == "an On-Demand Resources")
        #expect(kind.shortName == "ODR")
        #expect(kind.packsFolder == "OnDemandResources")
        #expect(kind.folders == ["OnDemandResources"])
        #expect(kind.packsTravelInApp)
        #expect(!kind.hasAssetPackIDs)
        #expect(
            kind.packFile(bundleID: "com.example.game", tags: ["level1"])
                == "OnDemandResources/" + PackIdentity.fileName(bundleID: "com.example.game", tags: ["level1"]))
        #expect(
            OnDemandResourcesKind.documents
                == ["OnDemandResources.plist", "AssetPackManifestTemplate.plist", "AssetPackManifest.plist"])
        #expect(kind.checksUpToDate)
        #expect(!kind.ownershipReadsManifest)
        #expect(kind.claims(packFileName: "com.example.game.level1-0a1b2c3d.assetpack"))
        #expect(!kind.claims(packFileName: "level1.aar"))
        var options = BuildOptions(
            outputDirectory: "/tmp/unused", format: .odr, environment: ProcessInfo.processInfo.environment)
        #expect(kind.recordsReplay(options))
        options.layout = .folder
        #expect(!kind.recordsReplay(options))
    }

    @Test func backgroundAssetsAnswers() {
        let kind = BackgroundAssetsKind()
        #expect(kind.name == "Background Assets")
        #expect(kind.nameWithArticle == "a Background Assets")
        #expect(kind.shortName == "Background Assets")
        #expect(kind.packsFolder == "BackgroundAssets")
        #expect(kind.folders == ["BackgroundAssets", "BackgroundAssets/site"])
        #expect(!kind.packsTravelInApp)
        #expect(kind.hasAssetPackIDs)
        #expect(
            kind.packFile(bundleID: "com.example.game", tags: ["level1"])
                == "BackgroundAssets/" + BackgroundAssetsIdentity.assetPackID(tags: ["level1"]) + ".aar")
        #expect(!kind.checksUpToDate)
        #expect(kind.ownershipReadsManifest)
        #expect(kind.claims(packFileName: "level1.aar"))
        #expect(!kind.claims(packFileName: "com.example.game.level1-0a1b2c3d.assetpack"))
        #expect(
            !kind.recordsReplay(
                BuildOptions(
                    outputDirectory: "/tmp/unused", format: .backgroundAssets,
                    environment: ProcessInfo.processInfo.environment)))
    }
}
