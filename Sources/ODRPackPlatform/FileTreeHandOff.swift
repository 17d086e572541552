/// A scan passed from the one who made it to the one who walks it, held by nobody else: resolution frees the tree's
/// folders as it walks them (`FileTree.takeDirectory`), which frees nothing while a caller's copy of the tree still
/// shares them. A caller's `let` or a parameter would keep such a copy for the whole walk (77 bytes a file, the whole
/// tree twice while it is sorted); the hand-off gives the tree up the moment it is taken (docs/performance.md#scale).
///
/// `@unchecked Sendable` because: it is made and taken on one thread, the build's, before planning returns.
package final class FileTreeHandOff: @unchecked Sendable {
    private var tree: FileTree?

    package init(_ tree: FileTree?) { self.tree = tree }

    /// The tree, which the hand-off no longer holds; nil the second time.
    package func take() -> FileTree? {
        defer { tree = nil }
        return tree
    }
}
