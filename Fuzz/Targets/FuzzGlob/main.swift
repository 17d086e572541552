import Foundation
import ODRPackKit

/// One input, for libFuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntryPoints.glob(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver (linked in by -sanitize=fuzzer): SwiftPM gives an executable its own main, which hands over.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(_ argc: UnsafeMutablePointer<Int32>,
               _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
               _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzer(&argc, &argv, fuzzOneInput))
