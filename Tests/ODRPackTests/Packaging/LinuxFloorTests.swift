import Foundation
import Testing

/// The Linux release binary's floor, glibc 2.34 (docs/install.md#what-the-linux-binary-needs-the-c-library):
/// `Packaging/linux_floor.py`, which `make dist` runs on what the linker made, and `Sources/CGlibcFloor`, which binds
/// the C library symbols newer than the floor to their older versions.
@Suite struct LinuxFloorTests {
    static let script = ReleaseArchiveTests.packaging.appendingPathComponent("linux_floor.py").path

    /// `objdump -T -p` of a binary, cut to its libraries and a few imports; `symbols` are the dynamic symbol lines.
    static func objdump(needed: [String], symbols: [String]) -> String {
        """
        odrpack:     file format elf64-x86-64

        Dynamic Section:
        \(needed.map { "  NEEDED               \($0)" }.joined(separator: "\n"))
          FLAGS_1              0x0000000008000001

        DYNAMIC SYMBOL TABLE:
        \(symbols.joined(separator: "\n"))

        """
    }

    static func check(_ objdump: String) throws -> CommandRunner.Output {
        let project = try TemporaryProject()
        let file = project.path("objdump.txt")
        try Data(objdump.utf8).write(to: URL(fileURLWithPath: file))
        return try ReleaseArchiveTests.shell(["python3", script, "bin/odrpack", file])
    }

    /// 0.7.0's archive: libm's `hypot` and `hypotf` of glibc 2.35, GCC 12's libstdc++; a libstdc++ linked in that
    /// names glibc 2.36's `arc4random`. Symbols the binary defines (`hypotl` with its version, `main`) and unversioned
    /// imports are not needs.
    @Test func aBinaryAboveTheFloorIsRefusedNamingWhatItNeeds() throws {
        let output = try Self.check(
            Self.objdump(
                needed: ["libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libc.so.6", "ld-linux-x86-64.so.2"],
                symbols: [
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.34) dlopen",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.35) hypotf",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.35) hypot",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.36) arc4random",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBCXX_3.4.29) _ZSt28__throw_bad_array_new_lengthv",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBCXX_3.4.30) "
                        + "_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE",
                    "0000000000000000      DF *UND*\t0000000000000000 (CXXABI_1.3.11) _ZnwmSt11align_val_t",
                    "0000000000000000      DF *UND*\t0000000000000000 (GCC_3.0) _Unwind_Resume",
                    "0000000000000000  w   D  *UND*\t0000000000000000  Base        __gmon_start__",
                    "00000000000113b0 g    DF .text\t00000000000000bc  GLIBC_2.36  hypotl",
                    "00000000012b4a30 g    DF .text\t0000000000000010  Base        main",
                ]))
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderr
                == """
                linux_floor: bin/odrpack needs more than docs/install.md promises, glibc 2.34 (RHEL 9, Amazon Linux \
                2023) and no libstdc++:
                  CXXABI_1.3.11 at most (1 symbol): libstdc++ is not linked in
                  GLIBC_2.35: hypot, hypotf
                  GLIBC_2.36: arc4random
                  GLIBCXX_3.4.30 at most (2 symbols): libstdc++ is not linked in
                  libraries beyond the C library and libgcc_s: libstdc++.so.6
                linux_floor: bind a symbol to its older version in Sources/CGlibcFloor, link its library statically \
                in Packaging/dist.sh, or build on Debian 12 as the release workflow does \
                (docs/install.md#what-the-linux-binary-needs-the-c-library)

                """)
    }

    /// The archive as `make dist` makes it now: glibc 2.34's pthread and dl functions (libpthread and libdl moved
    /// into libc there, which every binary linked against 2.34 or later asks for), libgcc_s's unwinder.
    @Test func aBinaryAtTheFloorPassesAndSaysWhatItNeeds() throws {
        let output = try Self.check(
            Self.objdump(
                needed: ["libm.so.6", "libgcc_s.so.1", "libc.so.6", "ld-linux-x86-64.so.2"],
                symbols: [
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.2.5) hypot",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.34) __libc_start_main",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.33) fstatat",
                    "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.25) getrandom",
                    "0000000000000000      DF *UND*\t0000000000000000 (GCC_4.2.0) _Unwind_GetIPInfo",
                    "0000000000000000      DF *UND*\t0000000000000000 (GCC_3.0) _Unwind_Resume",
                ]))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout
                == "linux_floor: bin/odrpack needs GCC_4.2.0, GLIBC_2.34 at most (libm.so.6, libgcc_s.so.1, libc.so.6, "
                + "ld-linux-x86-64.so.2): at or below the floor, glibc 2.34\n")
    }

    @Test func aLibraryBeyondTheCLibraryIsRefused() throws {
        let output = try Self.check(
            Self.objdump(
                needed: ["libdeflate.so.0", "libc.so.6"],
                symbols: ["0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.34) __libc_start_main"]))
        #expect(output.status == 1)
        #expect(output.stderr.contains("\n  libraries beyond the C library and libgcc_s: libdeflate.so.0\n"))
    }

    static let tools: (clang: String, objdump: String)? = {
        #if os(Linux)
            let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            func find(_ name: String) -> String? {
                path.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
            }
            guard let clang = find("clang"), let objdump = find("objdump") else { return nil }
            return (clang, objdump)
        #else
            return nil
        #endif
    }()

    /// Sources/CGlibcFloor/CGlibcFloor.c linked into a small program, as it is into odrpack: calls of `hypot` and
    /// `hypotf` reach libm's first version of each (GLIBC_2.2.5 on x86_64, GLIBC_2.17 on aarch64) and compute what
    /// they always did, and `arc4random` is the file's own, so the program needs nothing newer than glibc 2.25 and
    /// runs under `--c-library-at-floor`'s loader. Linked without the file on glibc 2.35 or later, the same program
    /// asks for GLIBC_2.35, and that loader refuses it as a glibc 2.34 system's would.
    @Test(.enabled(if: tools != nil, "needs Linux, clang and objdump"))
    func theShimBindsHypotToLibmsFirstVersion() throws {
        let tools = try #require(Self.tools)
        let project = try TemporaryProject()
        try project.file(
            "main.c",
            """
            #include <math.h>
            #include <stdint.h>
            #include <stdio.h>
            #include <stdlib.h>
            uint32_t arc4random(void);
            int main(int argc, char **argv) {
                double a = atof(argv[1]), b = atof(argv[2]);
            #ifdef WITH_SHIM
                uint32_t r = arc4random() | arc4random();
            #else
                uint32_t r = 1;
            #endif
                printf("%.17g %.9g %d\\n", hypot(a, b), hypotf((float)a, (float)b), r != 0);
                return 0;
            }

            """)
        let shim = TestPaths.repository.appendingPathComponent("Sources/CGlibcFloor/CGlibcFloor.c").path
        let built = try ReleaseArchiveTests.shell(
            [
                tools.clang, "-O2", "-fno-builtin", "-DWITH_SHIM", "-o", project.path("floor"), project.path("main.c"),
                shim, "-lm",
            ])
        #expect(built.status == 0, "\(built.stderr)")
        let run = try ReleaseArchiveTests.shell([project.path("floor"), "3e300", "4e300"])
        #expect(run.stdout == "5.0000000000000003e+300 inf 1\n")
        let small = try ReleaseArchiveTests.shell([project.path("floor"), "3", "4"])
        #expect(small.stdout == "5 5 1\n")

        let symbols = try ReleaseArchiveTests.shell([tools.objdump, "-T", project.path("floor")]).stdout
        func version(of name: String) -> String? {
            symbols.split(separator: "\n").first { $0.hasSuffix(" " + name) && $0.contains("*UND*") }
                .map { String($0.split(separator: " ").dropLast().last ?? "").trimmingCharacters(in: ["(", ")"]) }
        }
        #if arch(x86_64)
            let first = "GLIBC_2.2.5"
        #else
            let first = "GLIBC_2.17"
        #endif
        #expect(version(of: "hypot") == first)
        #expect(version(of: "hypotf") == first)
        #expect(version(of: "arc4random") == nil)
        let floor = try ReleaseArchiveTests.shell(["python3", Self.script, project.path("floor")])
        #expect(floor.status == 0, "\(floor.stderr)")

        let libraries = project.path("c-library-at-floor")
        let made = try ReleaseArchiveTests.shell(
            ["python3", Self.script, "--c-library-at-floor", project.path("floor"), libraries])
        #expect(made.status == 0, "\(made.stderr)")
        let loader = made.stdout.trimmingCharacters(in: .newlines)
        let atFloor = try ReleaseArchiveTests.shell([
            loader, "--library-path", libraries, project.path("floor"), "3", "4",
        ])
        #expect(atFloor.status == 0, "\(atFloor.stderr)")
        #expect(atFloor.stdout == "5 5 1\n")

        let plain = try ReleaseArchiveTests.shell(
            [tools.clang, "-O2", "-fno-builtin", "-o", project.path("plain"), project.path("main.c"), "-lm"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let plainSymbols = try ReleaseArchiveTests.shell([tools.objdump, "-T", project.path("plain")]).stdout
        if plainSymbols.contains("(GLIBC_2.35) hypot\n") {
            let refused = try ReleaseArchiveTests.shell(
                [loader, "--library-path", libraries, project.path("plain"), "3", "4"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("version `GLIBC_2.35' not found"))
            let checked = try ReleaseArchiveTests.shell(["python3", Self.script, project.path("plain")])
            #expect(checked.status == 1)
            #expect(checked.stderr.contains("\n  GLIBC_2.35: hypot, hypotf\n"))
        }
    }
}
