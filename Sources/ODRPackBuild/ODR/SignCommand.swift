import ODRPackBuildFormat
import ODRPackCore
import ODRPackPlatform

/// `--sign-command CMD` (docs/build-output.md): run through `/bin/sh -c` once per written pack, with `{}` replaced by the
/// quoted path of the pack's folder form.
struct SignCommand {
    let template: String

    init(_ template: String) { self.template = template }

    /// The shell command for one folder: every `{}` becomes the path in single quotes.
    func command(for folder: String) -> String {
        ShellCommand.filling(template, path: folder)
    }

    func run(on folder: String) throws {
        try ShellCommand.run(command(for: folder), what: "the sign command", on: "'\(folder)'")
    }

    /// After the command ran on a pack's folder: its Info.plist and every resource are still there with the bytes
    /// written (a signer adds files, such as `_CodeSignature/`, and changes none), so the build never writes a pack its
    /// own verify rejects (docs/build-output.md#bounded).
    /// - Parameters:
    ///   - before: each written file's digest, by name; `after`: what the folder holds now (its file entries) and each
    ///     file's digest, re-read where its metadata changed.
    /// - Throws: `ODRPackError.commandFailed` (exit 2) naming the pack and the file.
    static func checkKept(
        _ pack: AssetPack, before: [PathKey: FileDigest], entries after: [PackEntry], digests: [PathKey: FileDigest]
    ) throws {
        let present = Set(after.lazy.filter { !$0.isFolder }.map { PathKey($0.name) })
        for name in [PackEntry.infoPlistName] + pack.files.map(\.path) {
            let key = PathKey(name)
            guard present.contains(key) else {
                throw ODRPackError.commandFailed(
                    .signerRemoved(name, pack: pack.shortName, previousOutputUnchanged: true))
            }
            guard digests[key]?.sha256 == before[key]?.sha256 else {
                throw ODRPackError.commandFailed(.signerChanged(name, pack: pack.shortName))
            }
        }
    }
}
