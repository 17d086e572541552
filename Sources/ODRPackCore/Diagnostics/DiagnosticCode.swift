/// The stable diagnostic codes of docs/diagnostics.md (plus the build's own I/O codes).
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
    /// `thin` of a Background Assets build with no App Group id (docs/background-assets.md).
    case baAppGroupMissing = "ba-app-group-missing"
    /// `thin` of a Background Assets build into an app without its downloader extension (docs/background-assets.md).
    case baExtensionMissing = "ba-extension-missing"
    /// Two files with one destination, or one file given two (docs/manifest.md#destinations).
    case destinationConflict = "destination-conflict"
    /// Two files of one pack whose destinations are equal after Unicode NFC normalization (docs/manifest.md#destinations).
    case normalizationCollision = "normalization-collision"
    /// A symbolic link reaches a folder already reached by another path (docs/manifest.md#files-and-links).
    case symlinkDuplicate = "symlink-duplicate"
    /// A folder under resources-root is an odrpack build folder (docs/manifest.md#files-and-links).
    case buildFolderSkipped = "build-folder-skipped"
    /// A pack holds raw files of an asset catalog, which Xcode would compile into Assets.car.
    case assetCatalogUncompiled = "asset-catalog-uncompiled"
    /// A pack holds a resource Xcode compiles rather than copies (docs/xcode.md).
    case resourceUncompiled = "resource-uncompiled"
    /// `thin`: the app holds none of any pack's files at their destinations (docs/commands.md#thin).
    case packFilesNotInApp = "pack-files-not-in-app"
    /// `thin`: the downloader extension is in PlugIns/, which App Store Connect rejects (docs/background-assets.md).
    case baExtensionMisplaced = "ba-extension-misplaced"
    /// `build --published`: a pack the live download manifest lists is no longer built (docs/background-assets.md).
    case baPackDropped = "ba-pack-dropped"
    /// `build`: a file that odrpack did not write is inside `OnDemandResources/` (docs/build-output.md#ownership).
    case outputForeignFile = "output-foreign-file"
    /// Sizes whose sum does not fit a signed 64-bit integer (docs/build-output.md#bounded).
    case sizeOverflow = "size-overflow"
    /// A pack whose `Info.plist` would exceed 1 MiB (its tags are too long or too many).
    case packInfoTooLarge = "pack-info-too-large"
    /// `thin`/`ipa`: the app's `CFBundleIdentifier` is not the build's bundle id.
    case appBundleIDMismatch = "app-bundle-id-mismatch"
    /// `thin`/`ipa`: files at pack destinations that the app's build converted (`.strings`, `.plist`, `.png`).
    case appFileConverted = "app-file-converted"
    /// `ipa` without `--sign-command` on a signed app: removing files breaks its signature.
    case appSignatureStale = "app-signature-stale"
    /// `upload --dry-run`: App Store Connect's pack count or bytes past 90% of its quota.
    case baQuota = "ba-quota"
    /// `upload --dry-run`: App Store Connect has a pack's asset pack id archived, where a real upload stops (exit 2).
    case baIDArchived = "ba-id-archived"
    /// A resource path that collides with the pack's own `Info.plist`.
    case pathReserved = "path-reserved"
    /// `verify`: a pack's archive or folder as a whole (missing, unreadable, its size or SHA-256, its zip structure,
    /// its ZipMetadata) does not match (docs/commands.md#verify).
    case verifyArchiveMismatch = "verify-archive-mismatch"
    /// `verify`: a Background Assets pack's archive does not begin with an Apple Archive signature, so it was not made
    /// by Apple's ba-package and App Store Connect would fail it (docs/store.md#trust-boundaries).
    case verifyBAArchiveFormat = "verify-ba-archive-format"
    /// `verify`: one entry of a pack (its bytes, header, flags, mode, order or place) does not match.
    case verifyEntryMismatch = "verify-entry-mismatch"
    /// `verify`: a pack the build manifest lists is not in the build folder.
    case verifyMissingPack = "verify-missing-pack"
    /// `verify`: a document made from the build manifest (OnDemandResources.plist, the asset-pack manifest, a
    /// Background Assets document or `site/` file) is missing or differs from what the manifest makes.
    case verifyDocumentMismatch = "verify-document-mismatch"
    /// `verify`: the build manifest's own figures (ids, file names, sizes, hashes, totals, tags, categories,
    /// priorities) are not what its packs make.
    case verifyFiguresMismatch = "verify-figures-mismatch"
    /// `verify`: a file or folder in the packs folder (or `site/`) that the build manifest does not name.
    case verifyForeignFile = "verify-foreign-file"
    /// `import-xcode`: a synchronized folder's `assetTagsByRelativePath` or `membershipExceptions` key that reaches
    /// outside the folder (`..`, an absolute path), dropped (docs/xcode.md).
    case importPathOutside = "import-path-outside"
    /// A tag only one entry gives that looks like a misspelling of another entry's tag (docs/diagnostics.md).
    case tagSimilar = "tag-similar"
    /// The manifest declares `tags:` and an entry uses a tag not in it.
    case tagUndeclared = "tag-undeclared"
    /// A tag declared in `tags:` that no entry uses.
    case tagUnused = "tag-unused"
    /// A `language` or `{language}` folder name that is not a BCP 47 tag of language, script and region subtags
    /// (docs/background-assets.md#languages).
    case languageInvalid = "language-invalid"
    /// One file given two languages by two entries (docs/background-assets.md#languages).
    case languageConflict = "language-conflict"
    /// An entry's `platforms` is not a non-empty subset of `background-assets.platforms`
    /// (docs/background-assets.md#platforms).
    case platformInvalid = "platform-invalid"
    /// `upload`: over 100 ids or 200 GB after the upload; nothing is sent (docs/store.md#quota).
    case baQuotaExceeded = "ba-quota-exceeded"
    /// `upload --wait`, `status`: App Store Connect's `locale` or `platforms` of a version differ from the pack's.
    case ascPackMismatch = "asc-pack-mismatch"
    /// `submit`: a pack of the build has no uploaded version in the upload record.
    case baNotUploaded = "ba-not-uploaded"
    /// `upload`: the build's archives were made by a `--ba-package` command of unknown version.
    case baPackagerUnknown = "ba-packager-unknown"
}
