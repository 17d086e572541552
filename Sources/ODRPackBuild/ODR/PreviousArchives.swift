import ODRPackPlatform

/// The last build's archives one pack's writer copies entries from (`EntryReuse`): each opened once, and checked
/// again after copying, so an archive changed meanwhile fails the build instead of lending it bytes.
struct PreviousArchives {
    private let reuse: EntryReuse
    private var descriptors: [Int: Int32] = [:]

    init(reuse: EntryReuse) {
        self.reuse = reuse
    }

    /// The open archive number `archive` of the reuse, and its path.
    mutating func open(_ archive: Int) throws -> (descriptor: Int32, path: FilePath) {
        let path = reuse.archives[archive].path
        if let descriptor = descriptors[archive] { return (descriptor, path) }
        switch SystemCall.openForReading(path) {
        case .success(let descriptor):
            descriptors[archive] = descriptor
            return (descriptor, path)
        case .failure(let error):
            throw ODRPackError.io(.copyFrom, path: path, error)
        }
    }

    /// Fails when an archive used is no longer exactly as the last build left it.
    func checkUnchanged() throws {
        for archive in descriptors.keys.sorted()
        where BuildState.packStamp(at: reuse.archives[archive].path) != reuse.archives[archive].stamp {
            throw ODRPackError.changed(.archiveWhileCopied(reuse.archives[archive].path.text))
        }
    }

    func close() {
        for descriptor in descriptors.values { _ = SystemCall.closeFile(descriptor) }
    }
}
