import Testing

@testable import ODRPackFormats
@testable import ODRPackPlatform

/// The reasons a project cannot be written carry their facts (the paths as shown, the packs, the ids) and are said in
/// one place: each prints, byte for byte, the sentence its producer wrote before it held facts, and keeps the `--json`
/// code `unbuildable` (docs/commands.md#json).
@Suite struct UnbuildableReasonTests {
    static let expected: [(UnbuildableReason, String)] = [
        (
            .entryNameTooLong(Array(repeating: UInt8(ascii: "a"), count: 65_536)),
            "'" + String(repeating: "a", count: 80) + "...' is 65536 bytes long: a zip entry name holds at most "
                + "65,535; shorten the paths in the pack (or what the sign command adds)"
        ),
        (
            .notFileOrFolder("/tmp/pack/link.png"),
            "'/tmp/pack/link.png' is neither a file nor a folder: a pack holds only those"
        ),
        (
            .insideSignatureFolder("_CodeSignature/x", pack: "level1"),
            "'_CodeSignature/x' in pack 'level1' is inside '_CodeSignature', which the sign command writes: move or "
                + "exclude it, or build without --sign-command"
        ),
        (
            .sameAssetPackID("a-b", "a_b", id: "ab"),
            "packs 'a-b' and 'a_b' have the same asset pack id 'ab' (their tags differ only in characters Background "
                + "Assets cannot use): rename one of the tags"
        ),
        (
            .inTheWay("out/OnDemandResources/x.assetpack", outputDirectory: "out"),
            "'out/OnDemandResources/x.assetpack' is in the way: the build must write there, and odrpack did not write "
                + "it (the build manifest in 'out' does not name it); move it away, or build into another folder"
        ),
        (
            .otherFormat(outputDirectory: "out", kind: "a Background Assets", format: "background-assets"),
            "'out' holds a Background Assets build (its odrpack-manifest.json says format 'background-assets'): one "
                + "folder holds one format, so Background Assets versions never restart; build into another folder"
        ),
        (
            .outputIsResourcesRoot(outputDirectory: "Assets"),
            "the output folder 'Assets' is resources-root: its packs would become resources; write the build to "
                + "another folder"
        ),
        (
            .resourcesRootInPacksFolder(root: "/p/out/OnDemandResources/r", packsFolder: "out/OnDemandResources"),
            "resources-root '/p/out/OnDemandResources/r' is 'out/OnDemandResources' or inside it, the folder the "
                + "build writes its packs in: the build would replace your resources; write the build to another "
                + "folder"
        ),
        (
            .folderIsLink("out/BackgroundAssets"),
            "'out/BackgroundAssets' is a symbolic link: a build writes and removes files only inside its own output "
                + "folder; replace the link with a folder, or build into another folder"
        ),
        (
            .notAFolder("out/OnDemandResources"),
            "'out/OnDemandResources' is not a folder, and the build must write its packs there: odrpack did not "
                + "write it, so it leaves it alone; move it away, or build into another folder"
        ),
    ]

    @Test func eachReasonPrintsItsSentence() {
        for (reason, message) in Self.expected {
            #expect(ODRPackError.unbuildable(reason).description == message)
            #expect(ODRPackError.unbuildable(reason).jsonCode == "unbuildable")
        }
    }

    /// A zip entry name over 65,535 bytes is refused with the name itself, not a sentence about it.
    @Test func aTooLongEntryNameIsRefusedWithItsBytes() {
        let name = Array(repeating: UInt8(ascii: "b"), count: 65_536)
        #expect(throws: ODRPackError.unbuildable(.entryNameTooLong(name))) { try AssetPackZipWriter.checkName(name) }
        #expect(throws: Never.self) { try AssetPackZipWriter.checkName(Array(name.dropLast())) }
    }
}
