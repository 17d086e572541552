// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Swift 6 language mode (complete concurrency checking) plus the upcoming feature it does not turn on yet.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "odrpack",
    // Synchronization's Mutex needs macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "odrpack", targets: ["odrpack"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // zlib: the product's deflate and CRC-32 (on macOS it comes with the SDK).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libdeflate: whole-entry deflate of entries up to 1 MiB, and CRC-32 (several times zlib's speed).
        .systemLibrary(
            name: "CLibdeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        // libarchive: only the tests link it, to read back what odrpack writes with an independent reader.
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // syncfs and sync_file_range, which Swift's Glibc module does not show.
        .target(name: "CSystem"),
        // The layers, bottom to top; each imports only those below it (README: "How the code is laid out").
        .target(
            name: "ODRPackPlatform",
            dependencies: ["CSystem", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: upcomingFeatures
        ),
        .target(name: "ODRPackFormats", dependencies: ["ODRPackPlatform", "CZlib", "CLibdeflate"], swiftSettings: upcomingFeatures),
        .target(
            name: "ODRPackCore",
            dependencies: [
                "ODRPackPlatform", "ODRPackFormats",
                .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .target(name: "ODRPackBuild", dependencies: ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore"], swiftSettings: upcomingFeatures),
        .target(
            name: "ODRPackReport",
            dependencies: ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuild"],
            swiftSettings: upcomingFeatures
        ),
        .target(name: "ODRPackXcode", dependencies: ["ODRPackPlatform", "ODRPackCore"], swiftSettings: upcomingFeatures),
        // What the libFuzzer targets (and the tests replaying their seeds) call; never part of the odrpack product.
        .target(
            name: "ODRPackFuzzing",
            dependencies: ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuild", "ODRPackReport", "ODRPackXcode"],
            path: "Fuzz/EntryPoints",
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "odrpack",
            dependencies: [
                "ODRPackPlatform", "ODRPackCore", "ODRPackBuild", "ODRPackReport", "ODRPackXcode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "ODRPackTests",
            dependencies: [
                "ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuild", "ODRPackReport", "ODRPackXcode", "ODRPackFuzzing",
                "odrpack", "CArchive", .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, only for `make fuzz` (which sets ODRPACK_FUZZ): an ordinary build never sees them.
if ProcessInfo.processInfo.environment["ODRPACK_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/Targets/FuzzDriver"))
    for name in ["FuzzTagManifest", "FuzzGlob", "FuzzBuildManifest", "FuzzStreamingZip", "FuzzPbxproj", "FuzzBinaryPlist"] {
        package.targets.append(.executableTarget(name: name, dependencies: ["ODRPackFuzzing", "FuzzDriver"], path: "Fuzz/Targets/" + name))
    }
}
