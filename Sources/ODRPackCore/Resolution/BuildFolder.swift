/// What marks an odrpack build folder (docs/manifest.md#files-and-links): the lock file a build or `thin` holds in it. Resolution skips such a
/// folder under resources-root; the build layer locks it by this name.
package enum BuildFolder {
    package static let lockFileName = ".odrpack.lock"
}
