import ODRPackCore

/// The previous build's state, opaque to callers.
struct PreviousBuild: Sendable {
    let state: BuildState

    /// Whether the last build read and checked each of `resources` (sorted by path) with the same metadata,
    /// so planning can skip re-reading them. One merge of two sorted lists.
    func alreadyChecked(_ resources: [ResolvedResource]) -> [Bool] {
        let files = state.files
        var position = 0
        return resources.map { resource in
            var path = resource.path
            return path.withUTF8 { utf8 in
                let query = UnsafeRawBufferPointer(utf8)
                while position < files.count && files.comparePath(at: position, with: query) < 0 { position += 1 }
                return position < files.count && files.comparePath(at: position, with: query) == 0
                    && files.stamp(at: position) == resource.stamp
            }
        }
    }
}
