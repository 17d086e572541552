/// The result of resolving a manifest against the file system.
public struct Resolution: Sendable {
    /// Absolute path of resources-root (symbolic links resolved).
    public var rootPath: String
    /// Tagged resources, sorted by path.
    public var resources: [ResolvedResource]
    public var appBundleFiles: Int
    public var appBundleSize: Int64
    public var diagnostics: [Diagnostic]
    /// The scanned tree's `FileTree.fingerprint`: what the build's up-to-date record compares.
    public var fingerprint: String?

    public init(rootPath: String, resources: [ResolvedResource], appBundleFiles: Int, appBundleSize: Int64,
                diagnostics: [Diagnostic], fingerprint: String? = nil) {
        self.rootPath = rootPath
        self.resources = resources
        self.appBundleFiles = appBundleFiles
        self.appBundleSize = appBundleSize
        self.diagnostics = diagnostics
        self.fingerprint = fingerprint
    }
}
