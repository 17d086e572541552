/// odrpack's version: printed by `--version`, and part of every pack's archive key and the up-to-date record, so a
/// new version rewrites every pack once. Raise it with every release that changes what a build writes.
package enum ToolVersion {
    package static let current = "0.3.0"
}
