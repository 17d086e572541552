import ArgumentParser
import ODRPackPlatform
import ODRPackStore

/// How `submit` and `status` reach App Store Connect (docs/store.md#credentials): `upload`'s options with `upload`'s
/// meaning, so the three commands take the same flags and environment.
struct StoreConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The app's Apple ID in App Store Connect (default: ASC_APP_ID, else found by bundle id).",
            valueName: "apple-id"))
    var app: String?

    @Option(help: ArgumentHelp("The App Store Connect API key id (default: ASC_KEY_ID).", valueName: "id"))
    var keyID: String?

    @Option(
        help: ArgumentHelp(
            "The API key's issuer id (default: ASC_ISSUER_ID; none for an individual key).", valueName: "id"))
    var issuerID: String?

    @Option(
        help: ArgumentHelp(
            "The API key's .p8 file (default: ASC_PRIVATE_KEY_PATH, ASC_PRIVATE_KEY, altool's folders).",
            valueName: "file"),
        completion: .file(extensions: ["p8"]))
    var privateKey: String?

    @Option(
        help: ArgumentHelp(
            "Another API base URL, for tests (default: ODRPACK_ASC_API, else Apple's).", valueName: "url"))
    var api: String?

    @Flag(
        help:
            "Print each request on stderr as it is sent and answered: method, path, status, time, App Store Connect's errors."
    )
    var verbose = false

    /// BUILD_DIR: the one operand.
    func buildDir(_ operands: [String], command: String) throws -> String {
        guard operands.count == 1 else {
            throw ValidationError(
                operands.isEmpty
                    ? "give the build folder: odrpack \(command) BUILD_DIR"
                    : "one build folder only, got \(operands.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return try PathArgument.text(operands[0], "BUILD_DIR")
    }

    /// `submit`'s and `status`'s options for BUILD_DIR: these flags, the run's environment (`ASC_*`), and
    /// `--verbose`'s lines on the run's stderr.
    func storeOptions(buildDir: String, context: CommandContext) -> StoreOptions {
        var options = StoreOptions(buildPath: buildDir, environment: context.environment)
        apply(to: &options.connection)
        let error = context.streams.error
        if verbose { options.connection.verbose = { try? error.write($0 + "\n") } }
        return options
    }

    func apply(to options: inout UploadOptions) {
        options.appID = app
        options.keyID = keyID
        options.issuerID = issuerID
        options.privateKeyPath = privateKey
        options.apiURL = api
    }
}
