import Testing

@testable import ODRPackPlatform

extension ODRPackError {
    /// The `ODRPackError` `body` throws, for a test that asserts its facts (its message is ODRPackErrorTests'); nil
    /// when it throws nothing. Another error is recorded as an issue, so a test never passes on the wrong kind.
    static func thrown(by body: () throws -> Void) -> ODRPackError? {
        do {
            try body()
            return nil
        } catch let error as ODRPackError {
            return error
        } catch {
            Issue.record("not an ODRPackError: \(error)")
            return nil
        }
    }
}
