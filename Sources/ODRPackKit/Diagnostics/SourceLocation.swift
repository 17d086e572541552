/// Where in the manifest a diagnostic applies; line and column start at 1.
public struct SourceLocation: Equatable, Hashable, Sendable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
}
