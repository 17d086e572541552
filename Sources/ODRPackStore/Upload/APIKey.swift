import Crypto
import Foundation
import ODRPackPlatform

/// An App Store Connect API key (docs/store.md#credentials): its id, its issuer (nil for an individual key) and the
/// P-256 private key. Nothing here ever prints, logs or stores the key, and no error message quotes it.
package struct APIKey: Sendable {
    package let keyID: String
    package let issuerID: String?
    /// The P-256 private key's raw scalar: Crypto's key type is not `Sendable`, its bytes are.
    let privateKeyBytes: Data

    var privateKey: P256.Signing.PrivateKey? { try? P256.Signing.PrivateKey(rawRepresentation: privateKeyBytes) }

    /// The folders Apple's altool searches for `AuthKey_<KEY_ID>.p8`, in its order.
    static func keyFolders(environment: [String: String], currentFolder: String) -> [String] {
        var folders = [FilePath(currentFolder).joined("private_keys")]
        if let home = environment["HOME"], !home.isEmpty {
            folders += ["private_keys", ".private_keys", ".appstoreconnect/private_keys"].map {
                FilePath(home).joined($0)
            }
        }
        return folders.map(\.string)
    }

    /// What a PEM given where a path is expected gets: never any of the text itself.
    package static let keyTextAsPath = "the key's text was given where a file is expected: pass it in ASC_PRIVATE_KEY"

    /// Whether `text` holds a PEM key (its `-----BEGIN` line, or the `PRIVATE KEY-----` that ends it).
    package static func isKeyText(_ text: String) -> Bool {
        text.contains("-----BEGIN") || text.contains("PRIVATE KEY-----")
    }

    /// `--private-key` or `ASC_PRIVATE_KEY_PATH` holding the key's PEM text (a common CI mistake) is exit 64 before
    /// anything could quote it (docs/store.md#credentials).
    package static func checkPathsAreNotKeyText(_ options: UploadOptions) throws {
        for path in [options.privateKeyPath, options.environment["ASC_PRIVATE_KEY_PATH"]] {
            if let path, isKeyText(path) {
                throw ODRPackError.usage(keyTextAsPath)
            }
        }
    }

    /// The key from `--key-id`/`ASC_KEY_ID`, `--issuer-id`/`ASC_ISSUER_ID`, and `--private-key`,
    /// `ASC_PRIVATE_KEY_PATH`, `ASC_PRIVATE_KEY` (the PEM text) or altool's folders, in that order.
    /// - Throws: `ODRPackError.usage` (exit 64) naming what is missing or unusable, never its contents.
    package static func resolve(
        _ options: UploadOptions, currentFolder: String = FileManager.default.currentDirectoryPath
    ) throws -> APIKey {
        try checkPathsAreNotKeyText(options)
        let environment = options.environment
        guard let keyID = options.nonEmpty(options.keyID) ?? options.nonEmpty(environment["ASC_KEY_ID"]) else {
            throw ODRPackError.usage(
                "no API key id: pass --key-id ID or set ASC_KEY_ID (App Store Connect > Users and Access > Integrations)"
            )
        }
        guard keyID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ODRPackError.usage(
                "the API key id holds characters other than letters and digits: pass the key's id, e.g. 2X9R4HXF34")
        }
        let issuerID = options.nonEmpty(options.issuerID) ?? options.nonEmpty(environment["ASC_ISSUER_ID"])
        let pem: String
        let source: String
        if let path = options.nonEmpty(options.privateKeyPath) ?? options.nonEmpty(environment["ASC_PRIVATE_KEY_PATH"])
        {
            source = "'\(path)'"
            pem = try readKeyFile(path)
        } else if let text = options.nonEmpty(environment["ASC_PRIVATE_KEY"]) {
            source = "ASC_PRIVATE_KEY"
            pem = text
        } else {
            let name = "AuthKey_\(keyID).p8"
            let folders = keyFolders(environment: environment, currentFolder: currentFolder)
            guard let path = folders.map({ FilePath($0).joined(name) }).first(where: { SystemCall.exists($0) })?.string
            else {
                throw ODRPackError.usage(
                    """
                    no private key for API key \(keyID): pass --private-key FILE, set ASC_PRIVATE_KEY_PATH or \
                    ASC_PRIVATE_KEY, or put \(name) in \(folders.joined(separator: ", "))
                    """
                )
            }
            source = "'\(path)'"
            pem = try readKeyFile(path)
        }
        // The .p8 Apple gives is PKCS#8 PEM; a CI secret may hold it with its line breaks as literal "\n".
        let normalized = pem.replacingOccurrences(of: "\\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: normalized) else {
            throw ODRPackError.usage(
                """
                the private key in \(source) is not an App Store Connect API key (a P-256 key in PEM, the .p8 file \
                App Store Connect gave once)
                """
            )
        }
        return APIKey(keyID: keyID, issuerID: issuerID, privateKeyBytes: privateKey.rawRepresentation)
    }

    private static func readKeyFile(_ path: String) throws -> String {
        // The path is text from outside (an argument, the environment): one holding a NUL names no file (EINVAL).
        switch FilePath(checking: path).map({ LocalFileSystem().contents(of: $0) }) ?? .failure(SystemError(EINVAL)) {
        case .success(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        case .failure(let error):
            throw ODRPackError.usage("cannot read the private key '\(path)': \(error.reason)")
        }
    }
}
