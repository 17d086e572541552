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
    /// A resource path that collides with the pack's own `Info.plist`.
    case pathReserved = "path-reserved"
}
