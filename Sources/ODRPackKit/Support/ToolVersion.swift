/// odrpack's version: printed by `--version`, and part of what a build's up-to-date record depends on.
public enum ToolVersion {
    public static let current = "0.1.0"
}
