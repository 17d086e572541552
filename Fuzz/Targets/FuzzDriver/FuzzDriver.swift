import Foundation

/// Runs libFuzzer (linked in by -sanitize=fuzzer) on one entry point. SwiftPM gives every executable its own `main`,
/// so each target's main hands over to libFuzzer's driver here instead of libFuzzer's `main` taking over.
public enum FuzzDriver {
    /// `@unchecked Sendable` because: written once by `run` before libFuzzer starts, which calls back on that thread.
    private final class Target: @unchecked Sendable {
        var body: (UnsafeRawBufferPointer) -> Void = { _ in }
    }

    private static let target = Target()

    public static func run(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        target.body = body
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzer(&argc, &argv, fuzzOneInput))
    }

    /// One input, for libFuzzer.
    static let fuzzOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
        target.body(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// libFuzzer's archive refers to this symbol; the driver is given the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDriver.fuzzOneInput(data, size)
}
