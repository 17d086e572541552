/// The stable diagnostic codes of SPEC section 5 (plus the build's own I/O codes).
package enum DiagnosticCode: String, CaseIterable, Sendable {
    case manifestSyntax = "manifest-syntax"
    case manifestUnknownKey = "manifest-unknown-key"
    case manifestMissingKey = "manifest-missing-key"
    case manifestInvalidValue = "manifest-invalid-value"
    case pathNotFound = "path-not-found"
    case pathOutsideRoot = "path-outside-root"
    case fileUnreadable = "file-unreadable"
    case tagInvalid = "tag-invalid"
    case tagUnknown = "tag-unknown"
    case tagInBothCategories = "tag-in-both-categories"
    case tagListedTwice = "tag-listed-twice"
    case entryMatchesNothing = "entry-matches-nothing"
    case executableContent = "executable-content"
    case caseCollision = "case-collision"
    case packTooLarge = "pack-too-large"
    case tagTooLarge = "tag-too-large"
    case overRecommendedSize = "over-recommended-size"
    case tooManyPacks = "too-many-packs"
    case initialInstallTooLarge = "initial-install-too-large"
    case initialPrefetchTooLarge = "initial-prefetch-too-large"
    case totalTooLarge = "total-too-large"
    /// `thin`: a file of the app has a pack's path but other bytes.
    case appFileDiffers = "app-file-differs"
    /// `thin` of a Background Assets build with no App Group id (SPEC 12).
    case baAppGroupMissing = "ba-app-group-missing"
    /// `thin` of a Background Assets build into an app without its downloader extension (SPEC 12).
    case baExtensionMissing = "ba-extension-missing"
    /// Two files with one destination, or one file given two (SPEC 3.5).
    case destinationConflict = "destination-conflict"
    /// Two files of one pack whose destinations are equal after Unicode NFC normalization (SPEC 3.5).
    case normalizationCollision = "normalization-collision"
    /// A symbolic link reaches a folder already reached by another path (SPEC 3.1).
    case symlinkDuplicate = "symlink-duplicate"
    /// A folder under resources-root is an odrpack build folder (SPEC 3.1).
    case buildFolderSkipped = "build-folder-skipped"
    /// A pack holds raw files of an asset catalog, which Xcode would compile into Assets.car.
    case assetCatalogUncompiled = "asset-catalog-uncompiled"
    /// A pack holds a resource Xcode compiles rather than copies (SPEC 9).
    case resourceUncompiled = "resource-uncompiled"
    /// `thin`: the app holds none of any pack's files at their destinations (SPEC 10).
    case packFilesNotInApp = "pack-files-not-in-app"
    /// `thin`: the downloader extension is in PlugIns/, which App Store Connect rejects (SPEC 12).
    case baExtensionMisplaced = "ba-extension-misplaced"
    /// `build --published`: a pack the live download manifest lists is no longer built (SPEC 12).
    case baPackDropped = "ba-pack-dropped"
    /// A resource path that collides with the pack's own `Info.plist`.
    case pathReserved = "path-reserved"
}
