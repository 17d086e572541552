/// odrpack's version: printed by `--version`, and the key of the whole build state (`BuildState`), so a
/// new version rewrites every pack once. Raise it with every release that changes what a build writes.
package enum ToolVersion {
    package static let current = "0.7.0"
}
