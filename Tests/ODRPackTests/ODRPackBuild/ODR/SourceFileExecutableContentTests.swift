import Foundation
import Testing

@testable import ODRPackBuild
@testable import ODRPackCore
@testable import ODRPackPlatform

/// The writers' executable-content check (`SourceFile.checkNotExecutable`) finds what planning's check finds, on the
/// bytes a writer already read (`start`) and on bytes it reads itself.
@Suite struct SourceFileExecutableContentTests {
    /// A DOS header whose offset at 60 points to `signature` at 128, in a file of `count` bytes.
    static func dos(signature: [UInt8], count: Int = 200) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes[0] = 0x4D
        bytes[1] = 0x5A
        bytes[60] = 128
        let end = min(count, 128 + signature.count)
        if end > 128 { bytes.replaceSubrange(128..<end, with: signature.prefix(end - 128)) }
        return bytes
    }

    /// Each case: its bytes and whether they are code.
    static let cases: [(name: String, bytes: [UInt8], code: Bool)] = [
        ("ELF", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1], true),
        ("Mach-O big-endian", [0xFE, 0xED, 0xFA, 0xCE, 0], true),
        ("Mach-O little-endian", [0xCE, 0xFA, 0xED, 0xFE, 0], true),
        ("64-bit Mach-O", [0xCF, 0xFA, 0xED, 0xFE] + [UInt8](repeating: 1, count: 100), true),
        ("fat Mach-O, 2 architectures", [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2], true),
        ("Java class file, version 50", [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 50], false),
        ("PE", dos(signature: [0x50, 0x45, 0, 0]), true),
        ("DOS header, no PE signature", dos(signature: [0x4E, 0x45, 0, 0]), false),
        ("DOS header, file ends inside the signature", dos(signature: [0x50, 0x45, 0, 0], count: 130), false),
        ("three bytes of ELF", [0x7F, 0x45, 0x4C], false),
        ("empty", [], false),
        ("text", Array("{\"tile\": 1}\n".utf8), false),
    ]

    @Test(arguments: 0..<cases.count) func theWritersFindWhatPlanningFinds(index: Int) throws {
        let (name, bytes, code) = Self.cases[index]
        let folder = try TemporaryProject()
        try folder.file("resource", bytes: Data(bytes))
        let path = FilePath(folder.path("resource"))
        let planning = ExecutableContentCheck.executableKind(Array(bytes.prefix(ExecutableContentCheck.headSize))) {
            offset in offset + 4 <= bytes.count ? Array(bytes[offset..<(offset + 4)]) : nil
        }
        #expect((planning != nil) == code, "\(name)")
        let source = try SourceFile(path: path, name: "Pack/resource", expected: nil, size: Int64(bytes.count))
        defer { source.close() }
        for start in [nil, bytes] as [[UInt8]?] {
            let found: Bool
            do {
                if let start {
                    try start.withUnsafeBytes { try source.checkNotExecutable(start: $0) }
                } else {
                    try source.checkNotExecutable()
                }
                found = false
            } catch let error as ExecutableContentFound {
                #expect(error.name == "Pack/resource")
                found = true
            }
            #expect(found == code, "\(name), \(start == nil ? "read by the check" : "read by the writer")")
        }
    }
}
