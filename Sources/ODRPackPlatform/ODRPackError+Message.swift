/// The one place a failure becomes the words the front end prints after `odrpack: error: ` (and the `--json` error
/// document's `message`): each case's facts, said once, so a producer never writes a sentence and a test of a
/// producer asserts the facts. The texts are docs/store.md#failures' and docs/build-output.md's.
extension ODRPackError {
    package var description: String {
        switch self {
        case .io(let operation, let path, let error):
            return "\(operation.verb) '\(path.text)'\(operation.object): \(error.reason)"
        case .call(let failure, let error): return "\(failure): \(error.reason)"
        case .fileTooLarge(let what, let path, let limit):
            return "\(what) '\(path.text)' is over \(limit) bytes, more than it can be: is it the right file?"
        case .http(let request, let status, let errors): return Self.message(request, status: status, errors: errors)
        case .network(let request, let failure): return Self.message(request, failure)
        case .refused(let refusal): return Self.message(refusal)
        case .changed(let change): return change.description
        case .library(let failure): return failure.description
        case .manifest(let failure): return failure.description
        case .buildManifest(let failure): return failure.description
        case .ipa(let failure): return failure.description
        case .xcode(let failure): return failure.description
        case .thin(let failure): return failure.description
        case .upload(let failure): return failure.description
        case .folderLocked(let conflict): return conflict.description
        case .commandFailed(let failure): return failure.description
        case .unbuildable(let reason): return reason.description
        case .inputRoot(let failure): return failure.description
        case .output(let failure): return failure.description
        case .buildFolder(let failure): return failure.description
        case .buildInput(let failure): return failure.description
        case .file(let failure): return failure.description
        case .usage(let message): return message
        }
    }

    /// `<request> answered 409: ENTITY_ERROR.ATTRIBUTE.INVALID: detail` for each of `errors[]`, and what to check
    /// after a 401 (refused twice: the client renews the token once) or a 403.
    private static func message(_ request: StoreRequest, status: Int, errors: [AppleAPIError]) -> String {
        var message = "\(request) answered \(status)"
        if !errors.isEmpty { message += ": " + errors.map(\.description).joined(separator: "; ") }
        if status == 401 {
            message += " (the API key was refused twice: check --key-id, --issuer-id and the private key)"
        } else if status == 403 {
            message += " (the API key's role may not be allowed to manage background assets)"
        }
        return message
    }

    private static func message(_ request: StoreRequest, _ failure: NetworkFailure) -> String {
        let check = "check --api (or ODRPACK_ASC_API)"
        switch failure {
        case .gaveUp(let attempts, let cause):
            return """
                \(request) failed \(attempts) times (last: \(cause)): App Store Connect or the network is not \
                answering; run upload again later, it continues where this run stopped
                """
        case .redirected(let status, let base):
            return """
                \(request) answered \(status), a redirect: odrpack follows none, so that the API key's token goes to \
                \(base) only; \(check)
                """
        case .notJSON(let status): return "\(request) answered \(status) with a body that is not a JSON object"
        case .answerTooLarge(let limit):
            return """
                \(request) answered with more than \(limit >> 20) MiB, which no App Store Connect answer holds: the \
                transfer was stopped; \(check) and the network between
                """
        case .headersTooLarge(let limit):
            return """
                \(request) answered with headers over \(limit >> 10) KiB, which no App Store Connect answer holds: the \
                transfer was stopped; \(check) and the network between
                """
        case .unreadablePart(let reason): return "\(request): \(reason): check the build folder, and run upload again"
        case .failed(let reason): return "\(request) failed: \(reason)"
        }
    }

    private static func message(_ refusal: StoreRefusal) -> String {
        switch refusal {
        case .nextPageOutside(let base):
            return "App Store Connect answered with a next page outside \(base): refusing to send the token there"
        case .tokenOutside(let request, let base):
            return "\(request) is outside \(base): refusing to send the token there"
        case .partURLNotHTTPS(let pack):
            return
                "pack '\(pack)': App Store Connect gave an upload URL that is not https: refusing to send the archive"
        case .partHeaderControlCharacter(let pack):
            return
                "pack '\(pack)': App Store Connect gave an upload header holding a control character: refusing to send it"
        case .dryRunWrite(let method, let path): return "a dry run sends GET requests only, not \(method) \(path)"
        }
    }
}
