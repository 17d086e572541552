import ODRPackCore

/// The previous build's state, opaque to callers.
struct PreviousBuild: Sendable {
    let state: BuildState

    /// Whether the last build read and checked each of `resources` (sorted by path) with the same metadata,
    /// so planning can skip re-reading them. One merge of two sorted lists: the records are read a window at a time.
    func alreadyChecked(_ resources: [ResolvedResource]) -> [Bool] {
        guard !state.files.isEmpty else { return Array(repeating: false, count: resources.count) }
        let cursor = state.files.cursor()
        var more = cursor.next()
        return resources.map { resource in
            guard more else { return false }
            var path = resource.path
            return path.withUTF8 { utf8 in
                let query = UnsafeRawBufferPointer(utf8)
                while more {
                    let order = cursor.comparePath(with: query)
                    if order >= 0 { return order == 0 && cursor.stamp == resource.stamp }
                    more = cursor.next()
                }
                return false
            }
        }
    }
}
