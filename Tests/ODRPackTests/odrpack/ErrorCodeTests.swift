import ODRPackReport
import Testing

@testable import ODRPackPlatform

/// The `--json` error document's `error.code` is a wire contract (docs/commands.md#json): every kind of failure's code
/// is pinned here by literal, so a renamed case or a changed string fails a test instead of silently changing what
/// scripts read.
@Suite struct ErrorCodeTests {
    /// One error of each kind, with the code scripts read for it. The switch is exhaustive: a kind added later does
    /// not compile here until its code is pinned.
    static func pinnedCode(_ error: ODRPackError) -> String {
        switch error {
        case .io: return "io"
        case .call: return "io"
        case .file: return "io"
        case .fileTooLarge: return "unusable-input"
        case .http: return "unusable-input"
        case .network: return "unusable-input"
        case .refused: return "unusable-input"
        case .manifest: return "unusable-input"
        case .buildManifest: return "unusable-input"
        case .ipa: return "unusable-input"
        case .xcode: return "unusable-input"
        case .thin: return "unusable-input"
        case .upload: return "unusable-input"
        case .changed: return "file-changed"
        case .folderLocked: return "locked"
        case .commandFailed: return "command-failed"
        case .library: return "library-failed"
        case .inputRoot: return "unusable-input"
        case .output: return "unusable-input"
        case .buildFolder: return "unusable-input"
        case .buildInput: return "unusable-input"
        case .unbuildable: return "unbuildable"
        case .usage: return "usage"
        }
    }

    static let everyKind: [ODRPackError] = [
        .io(.write, path: "a.zip", SystemError(28)), .call(.currentFolder, SystemError(2)),
        .file(.unreadable("x")), .fileTooLarge("the manifest", path: "odrpack.yaml", limit: 1),
        .changed(.whileRead("x")),
        .folderLocked(.held("x")), .commandFailed(.signerChanged("x", pack: "p")), .library(.deflate(status: -2)),
        .http(StoreRequest(method: "GET", address: "/v1/apps"), status: 500, appleErrors: []),
        .network(StoreRequest(method: "GET", address: "/v1/apps"), .failed("x")),
        .refused(.partURLNotHTTPS(pack: "p")), .manifest(.missing("odrpack.yml")), .buildManifest(.missing("out")),
        .ipa(.appCount("a.ipa", count: 0)), .xcode(.notAProject("x")), .thin(.noInfoPlist("x")), .upload(.curlMissing),
        .inputRoot(.notAFolder("x")), .output(.spliceNotAnObject), .buildFolder(.interrupted("out")),
        .buildInput(.sizeOverflow), .manifest(.exists("odrpack.yml")), .buildManifest(.noBackgroundAssets),
        .unbuildable(.notAFolder("x")),
        .usage("x"),
    ]

    @Test func everyKindHasItsPinnedCode() {
        for error in Self.everyKind { #expect(error.jsonCode == Self.pinnedCode(error), "\(error)") }
    }

    /// The codes docs/commands.md#json lists for ODRPackError (`internal` is for any other error): these eight, no other.
    @Test func theCodesAreTheDocumentedOnes() {
        #expect(
            Set(Self.everyKind.map(\.jsonCode))
                == [
                    "io", "file-changed", "locked", "command-failed", "library-failed", "unusable-input", "unbuildable",
                    "usage",
                ])
    }

    /// A path held apart prints as the same path written into the message did, byte for byte, and keeps its errno.
    @Test func aPathHeldApartPrintsAsBefore() {
        let apart = ODRPackError.system(.open, "Levels/a b.png", 2)
        let written = ODRPackError.system(.named(.open, "Levels/a b.png"), 2)
        #expect(apart.description == written.description)
        #expect(apart.path == "Levels/a b.png" && written.path == nil)
        #expect(apart.systemError == SystemError(2) && written.systemError == SystemError(2))
        #expect(ODRPackError.usage("x").systemError == nil)
    }

    /// The front end's error document carries the code and the message as the error prints it.
    @Test func theErrorDocumentCarriesTheCode() {
        let error = ODRPackError.folderLocked(.held("out/.odrpack.lock"))
        #expect(
            JSONEnvelope.error(code: error.jsonCode, message: error.description).serialized()
                == JSONEnvelope.error(code: "locked", message: "another process holds 'out/.odrpack.lock'").serialized()
        )
    }
}
