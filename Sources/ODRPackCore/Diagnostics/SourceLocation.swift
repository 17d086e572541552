/// Where in the manifest a diagnostic applies; line and column start at 1.
package struct SourceLocation: Equatable, Hashable, Sendable {
    package let file: String
    package let line: Int
    package let column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
}
