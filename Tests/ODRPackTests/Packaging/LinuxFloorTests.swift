import Foundation
import Testing

/// The Linux release binary's floor, glibc 2.34 (docs/install.md#what-the-linux-binary-needs-the-c-library):
/// `Packaging/linux_floor.py`, which reads what a binary asks of the system's libraries.
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
}
