import Foundation
import Testing

@testable import ODRPackPlatform

/// The house vocabulary of `FilePath` (docs/architecture.md#paths): paths are bytes, compared by component.
@Suite struct FilePathTests {
    @Test func anNFCAndAnNFDNameAreTwoPaths() {
        let composed = FilePath("/w/App\u{E9}.app")
        let decomposed = FilePath("/w/Appe\u{301}.app")
        #expect("/w/App\u{E9}.app" == "/w/Appe\u{301}.app")  // why bytes: Swift calls the texts equal
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(composed.joined("sub/y.txt").isInside(composed))
        #expect(!decomposed.joined("sub/y.txt").isInside(composed))
        #expect(composed.key != decomposed.key)
    }

    @Test func insideIsByComponentNotByPrefix() {
        #expect(!FilePath("/a/bc").isInside("/a/b"))
        #expect(FilePath("/a/b/c").isInside("/a/b"))
        #expect(FilePath("/a/b").isInside("/a/b"))
        #expect(FilePath("/x").isInside("/"))
        #expect(!FilePath("/a/b/../c").isInside("/a/b"))
        #expect(FilePath("/a/b/c").relative(to: "/a/b") == "c")
        #expect(FilePath("/a/b").relative(to: "/a/b") == "")
        #expect(FilePath("/a/bc").relative(to: "/a/b") == nil)
        #expect(FilePath("Levels/one.json").relative(to: "Levels") == "one.json")
    }

    /// `normalized`, `isInside` and `relative(to:)` on random paths (absolute or relative, with empty, dot and
    /// look-alike names, "/" and the empty path) say what a model over the names as text says: "." dropped, ".."
    /// taking the name before it, staying at the root, kept at a relative path's start.
    @Test func foldingAgreesWithAModelOfTheNames() {
        var generator = SplitMix64(state: 0x0D_4B_AC_4E)
        let names = ["a", "b", "ab", ".", "..", "", ".a", "a.", "...", "\u{E9}"]
        func path() -> String {
            let count = Int.random(in: 0...5, using: &generator)
            let body = (0..<count).map { _ in names.randomElement(using: &generator)! }.joined(separator: "/")
            return (Bool.random(using: &generator) ? "/" : "") + body
        }
        func model(_ text: String) -> (absolute: Bool, names: [String]) {
            var kept: [String] = []
            for name in text.split(separator: "/").map(String.init) where name != "." {
                if name != ".." {
                    kept.append(name)
                } else if let last = kept.last, last != ".." {
                    kept.removeLast()
                } else if !text.hasPrefix("/") {
                    kept.append(name)
                }
            }
            return (text.hasPrefix("/"), kept)
        }
        for _ in 0..<TestLevel.rounds(3_000, full: 100_000) {
            let (inner, outer) = (path(), path())
            let (innerModel, outerModel) = (model(inner), model(outer))
            let expected = innerModel.absolute == outerModel.absolute && innerModel.names.starts(with: outerModel.names)
            #expect(
                FilePath(inner).normalized.string == (innerModel.absolute ? "/" : "")
                    + innerModel.names.joined(separator: "/"),
                "'\(inner)'")
            #expect(FilePath(inner).isInside(FilePath(outer)) == expected, "'\(inner)' inside '\(outer)'")
            #expect(
                FilePath(inner).relative(to: FilePath(outer))
                    == (expected ? innerModel.names.dropFirst(outerModel.names.count).joined(separator: "/") : nil),
                "'\(inner)' from '\(outer)'")
        }
        #expect(FilePath("./.././..").normalized.string == "../..")
        #expect(FilePath("/../a").normalized.string == "/a")
        #expect(!FilePath("/a").isInside(""))
        #expect(FilePath("a").isInside(""))
    }

    @Test func joiningKeepsTheBytesAndSlashesOnce() {
        #expect(FilePath("/out").joined("Levels/one.json") == FilePath("/out/Levels/one.json"))
        #expect(FilePath("/out").joined("Levels/one.json").string == "/out/Levels/one.json")
        #expect(FilePath("/out").joined("") == FilePath("/out"))
        #expect(FilePath("out/").joined("a").string == "out/a")
        #expect(FilePath("/o").joined("\u{301}x").bytes == Array("/o/\u{301}x".utf8))
    }

    @Test func nonUTF8BytesSurviveJoining() throws {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]  // "café" in Latin-1: no UTF-8
        let path = try #require(FilePath("/tmp/x").joined(name: latin1))
        #expect(path.bytes == Array("/tmp/x/".utf8) + latin1)
        // The text shows the byte that is not UTF-8 escaped, as a message must (docs/architecture.md#paths); the path
        // keeps it.
        #expect(path.text == "/tmp/x/caf\\xe9")
        #expect(FilePath(path.text) != path)
        #expect(FilePath(bytes: latin1)?.bytes == latin1)
        #expect(path.joined("deeper").bytes == Array("/tmp/x/".utf8) + latin1 + Array("/deeper".utf8))
        #expect(path.parent == "/tmp/x")
    }

    @Test func oneNameIsOneName() {
        #expect(FilePath("/f").joined(name: Array("a/b".utf8)) == nil)
        #expect(FilePath("/f").joined(name: Array("..".utf8)) == nil)
        #expect(FilePath("/f").joined(name: Array(".".utf8)) == nil)
        #expect(FilePath("/f").joined(name: [UInt8]()) == nil)
        #expect(FilePath("/f").joined(name: [0x61, 0, 0x62]) == nil)
        #expect(FilePath("/f").joined(name: Array("a".utf8)) == "/f/a")
    }

    @Test func aNulIsRefusedNotCut() {
        #expect(FilePath(checking: "a\0b") == nil)
        #expect(FilePath(bytes: [0x61, 0, 0x62]) == nil)
        #expect(FilePath(checking: "a/b") == FilePath("a/b"))
        #expect(FilePath("a\0b") == FilePath("a"))  // what unchecked text would do: another file
    }

    @Test func parentNameAndExtension() {
        #expect(FilePath("/a/b").parent == "/a")
        #expect(FilePath("/a").parent == "/")
        #expect(FilePath("/").parent == "/")
        #expect(FilePath("b").parent == ".")
        #expect(FilePath("Levels/one.json").name == "one.json")
        #expect(FilePath("/").name == "")
        #expect(FilePath("Levels/one.json").deletingExtension == "Levels/one")
        #expect(FilePath("a.tar.gz").deletingExtension == "a.tar")
        #expect(FilePath(".hidden").deletingExtension == ".hidden")
        #expect(FilePath("noext").deletingExtension == "noext")
    }

    @Test func theFileURLKeepsTheSpelling() throws {
        let path = FilePath("/tmp/Appe\u{301} x.app")
        let bytes = path.fileURL.withUnsafeFileSystemRepresentation { pointer in
            pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        }
        #expect(bytes == Array("/tmp/Appe\u{301} x.app".utf8))  // NFD stays NFD, the space is no %20
    }

    @Test func aTemporaryLivesBesideItsFile() {
        let temporary = TemporaryName.path(beside: FilePath("/o/\u{301}x"))
        #expect(temporary.removingLastComponent() == "/o")
        #expect(temporary.name == TemporaryName.beside("\u{301}x"))
        #expect(TemporaryName.path(beside: FilePath("x")) == FilePath(TemporaryName.beside("x")))
        #expect(
            TemporaryName.path(beside: FilePath("/o/x"), suffix: "-replaced").name
                == TemporaryName.beside("x") + "-replaced")
    }

    @Test func slashJoinedTextHasOneSlash() {
        #expect("Levels".slashJoined("one.json") == "Levels/one.json")
        #expect("a".slashJoined("\u{301}b").utf8.elementsEqual("a/\u{301}b".utf8))
        #expect(
            "https://cdn.example.com/packs".slashJoined(Substring("x.aar")) == "https://cdn.example.com/packs/x.aar")
    }
}
