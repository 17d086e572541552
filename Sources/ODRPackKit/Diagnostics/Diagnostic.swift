/// A problem found in a project: recoverable problems are collected as values and printed by the front end.
public struct Diagnostic: Equatable, Sendable {
    public enum Severity: String, Sendable, Comparable {
        case error, warning
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation?
    /// What the problem is about: a resource path, a tag or a pack id.
    public var subject: String?

    public init(_ severity: Severity, _ code: DiagnosticCode, _ message: String,
                at location: SourceLocation? = nil, subject: String? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.subject = subject
    }

    public static func error(_ code: DiagnosticCode, _ message: String,
                             at location: SourceLocation? = nil, subject: String? = nil) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, subject: subject)
    }

    public static func warning(_ code: DiagnosticCode, _ message: String,
                               at location: SourceLocation? = nil, subject: String? = nil) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, subject: subject)
    }

    /// The compiler-like form editors and CI annotate: `file:line:column: error: message [code]`.
    public var formatted: String {
        var prefix = ""
        if let location {
            prefix = "\(location.file):\(location.line):\(location.column): "
        }
        return "\(prefix)\(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

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

/// The stable diagnostic codes of SPEC section 5 (plus the build's own I/O codes).
public enum DiagnosticCode: String, CaseIterable, Sendable {
    case manifestSyntax = "manifest-syntax"
    case manifestUnknownKey = "manifest-unknown-key"
    case manifestMissingKey = "manifest-missing-key"
    case manifestInvalidValue = "manifest-invalid-value"
    case pathNotFound = "path-not-found"
    case pathOutsideRoot = "path-outside-root"
    case fileUnreadable = "file-unreadable"
    case tagInvalid = "tag-invalid"
    case tagUnknown = "tag-unknown"
    case tagInBothCategories = "tag-in-both-categories"
    case tagListedTwice = "tag-listed-twice"
    case entryMatchesNothing = "entry-matches-nothing"
    case executableContent = "executable-content"
    case caseCollision = "case-collision"
    case packTooLarge = "pack-too-large"
    case tagTooLarge = "tag-too-large"
    case overRecommendedSize = "over-recommended-size"
    case tooManyPacks = "too-many-packs"
    case initialInstallTooLarge = "initial-install-too-large"
    case initialPrefetchTooLarge = "initial-prefetch-too-large"
    case totalTooLarge = "total-too-large"
    /// `thin`: a file of the app has a pack's path but other bytes.
    case appFileDiffers = "app-file-differs"
    /// A resource path that collides with the pack's own `Info.plist`.
    case pathReserved = "path-reserved"
}

extension Array where Element == Diagnostic {
    public var errorCount: Int { lazy.filter { $0.severity == .error }.count }
    public var warningCount: Int { lazy.filter { $0.severity == .warning }.count }
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
