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

    /// Whether `text` has the shape of the key without its armour: a long run of base64 (the PEM body, or the whole
    /// .p8 file through `base64 -w0`, the commonest CI mistake), whatever line breaks, literal `\n` or spaces split it.
    package static func isKeyBody(_ text: String) -> Bool {
        let compact = text.replacingOccurrences(of: "\\n", with: "").filter { !$0.isWhitespace }
        return compact.utf8.count >= 64
            && compact.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
            }
    }

    /// Whether a value given as the key's path may be quoted back in a message: short, one line of printable text,
    /// and not the shape of key material. Anything else may be a secret pasted by mistake, and is never echoed.
    static func isPlausiblePath(_ text: String) -> Bool {
        text.utf8.count <= 1024 && !isKeyText(text) && !isKeyBody(text)
            && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// `--private-key` or `ASC_PRIVATE_KEY_PATH` holding the key's PEM text, its body without the armour, or the .p8
    /// file in base64 (common CI mistakes) is exit 64 before anything could quote it (docs/store.md#credentials). A
    /// value that names an existing file is a path, whatever its shape.
    package static func checkPathsAreNotKeyText(_ options: UploadOptions) throws {
        for path in [options.privateKeyPath, options.environment["ASC_PRIVATE_KEY_PATH"]] {
            guard let path else { continue }
            if isKeyText(path) { throw ODRPackError.usage(keyTextAsPath) }
            let names = FilePath(checking: path).map { SystemCall.exists($0) } ?? false
            if !names && isKeyBody(path) {
                throw ODRPackError.usage(
                    """
                    the key itself (base64, without its BEGIN and END lines) was given where a file is expected: pass \
                    the .p8 file's text in ASC_PRIVATE_KEY, or the file's path
                    """
                )
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
            let given = options.nonEmpty(options.privateKeyPath) != nil ? "--private-key" : "ASC_PRIVATE_KEY_PATH"
            source = isPlausiblePath(path) ? "'\(path)'" : "given in \(given) (its value not shown)"
            pem = try readKeyFile(path, shownAs: source)
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
            pem = try readKeyFile(path, shownAs: source)
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

    /// The largest key file read: a .p8 is about 250 bytes (docs/build-output.md#bounded).
    static let maximumKeyFileBytes = 64 << 10

    /// - Parameter shownAs: the path as messages may show it (`'path'`, or where it came from when the value is not
    ///   to be echoed).
    private static func readKeyFile(_ path: String, shownAs shown: String) throws -> String {
        // The path is text from outside (an argument, the environment): one holding a NUL names no file (EINVAL).
        let read = FilePath(checking: path).map { LocalFileSystem().contents(of: $0, limit: maximumKeyFileBytes) }
        switch read ?? .failure(SystemError(EINVAL)) {
        case .success(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        case .failure(let error) where error.code == EFBIG:
            throw ODRPackError.usage(
                "the private key \(shown) is over \(maximumKeyFileBytes) bytes: pass the .p8 file App Store Connect gave"
            )
        case .failure(let error):
            throw ODRPackError.usage("cannot read the private key \(shown): \(error.reason)")
        }
    }
}
