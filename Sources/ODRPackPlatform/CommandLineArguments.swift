#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command line as the kernel gave it, as text that maps back to its bytes (docs/architecture.md#paths).
///
/// Swift's `CommandLine.arguments` repairs an argument that is not UTF-8 (`out\xE9` becomes `out\u{FFFD}`), so a path
/// given that way would name another file, and the argument parser takes only `String`s. Here each argument becomes
/// text that the parser can split as usual (option names are ASCII) and that `FilePath(argument:)` turns back into the
/// same bytes: valid UTF-8 stays as it is, and each byte of an invalid sequence becomes one scalar of a private-use
/// block (`U+10FE80...U+10FEFF` for the bytes `0x80...0xFF`). A valid argument that holds a scalar of that block has
/// those scalars' bytes carried the same way, so the mapping is one to one both ways.
package enum CommandLineArguments {
    /// The first scalar of the block: byte `b` (`0x80...0xFF`) is carried as `U+10FE00 + b`.
    static let base: UInt32 = 0x10FE00

    /// The process's arguments after the program's name, each as `text(of:)` gives it.
    package static func current() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return text(
                of: UnsafeBufferPointer(start: pointer, count: strlen(pointer)).lazy.map { UInt8(bitPattern: $0) })
        }
    }

    /// The text of one argument's bytes: its UTF-8 as it is, and every byte that is not part of a valid sequence (or
    /// of a sequence that decodes into the carrying block) as one scalar of that block.
    package static func text(of bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if let valid = String(validating: bytes, as: UTF8.self),
            !valid.unicodeScalars.contains(where: { isCarrier($0.value) })
        {
            return valid
        }
        var out = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length > 0,
                let scalar = String(validating: bytes[index..<index + length], as: UTF8.self)?.unicodeScalars.first,
                !isCarrier(scalar.value)
            {
                out.append(scalar)
                index += length
                continue
            }
            // Invalid, or a carrier itself: each byte of it carried on its own.
            for byte in bytes[index..<index + max(length, 1)] { out.append(carrier(of: byte)) }
            index += max(length, 1)
        }
        return String(out)
    }

    /// The bytes `text(of:)` was made from: a carrier scalar is its byte, every other scalar its UTF-8.
    package static func bytes(of argument: some StringProtocol) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(argument.utf8.count)
        for scalar in argument.unicodeScalars {
            if isCarrier(scalar.value) {
                out.append(UInt8(scalar.value - base))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// `argument` for a message: a carried byte as `\xNN`, as a folder's names are shown (`FolderNames.Name.escaped`);
    /// text without one is returned as it is.
    package static func shown(_ argument: some StringProtocol) -> String {
        guard argument.unicodeScalars.contains(where: { isCarrier($0.value) }) else { return String(argument) }
        var out = ""
        for scalar in argument.unicodeScalars {
            if isCarrier(scalar.value) {
                let byte = String(scalar.value - base, radix: 16)
                out += "\\x" + (byte.count < 2 ? "0" : "") + byte
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isCarrier(_ value: UInt32) -> Bool { (base + 0x80...base + 0xFF).contains(value) }

    static func carrier(of byte: UInt8) -> Unicode.Scalar {
        // An ASCII byte is always valid on its own, so only 0x80...0xFF is ever carried.
        Unicode.Scalar(base + UInt32(byte))!
    }

    /// The length of the valid UTF-8 sequence that starts at `index` (1 to 4), or 0 when none does.
    static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        for length in 1...min(4, bytes.count - index)
        where String(validating: bytes[index..<index + length], as: UTF8.self) != nil {
            return length
        }
        return 0
    }
}

extension FilePath {
    /// The path an argument names, from the bytes the command line held (`CommandLineArguments`): `out\xE9` stays
    /// `out\xE9`. Nil when the argument holds a NUL (which a real command line cannot).
    package init?(argument: some StringProtocol) {
        self.init(bytes: CommandLineArguments.bytes(of: argument))
    }
}
