/// Reverse-DNS bundle identifiers as Apple accepts them.
enum BundleIdentifier {
    /// Two or more non-empty components of ASCII letters, digits and '-', separated by '.'.
    static func isValid(_ identifier: String) -> Bool {
        let components = identifier.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2 else { return false }
        return components.allSatisfy { component in
            !component.isEmpty
                && component.unicodeScalars.allSatisfy {
                    ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-"
                }
        }
    }
}
