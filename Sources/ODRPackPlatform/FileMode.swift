#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An entry's type and permission bits, as `stat` gives them (`mode_t`: 32 bits on Linux, 16 on Darwin).
package typealias FileMode = mode_t
