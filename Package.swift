// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Swift 6 language mode (complete concurrency checking) plus the upcoming feature it does not turn on yet.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")

/// The library's modules, bottom to top: each imports only modules listed before it, so the compiler forbids cycles
/// and this list is the data flow (README: "How the code is laid out").
let layers: [(name: String, imports: [Target.Dependency])] = [
    // The only code that imports Glibc/Darwin: errors, files, scanning, locks, processes, terminal, hashing.
    // FilePath (swift-system) is the one path type (docs/architecture.md#paths); Platform re-exports it.
    ("ODRPackPlatform", ["CPlatform", "CSHA256", crypto, .product(name: "SystemPackage", package: "swift-system")]),
    // Bytes with no knowledge of packs: zip, deflate, CRC-32, binary plists, JSON.
    ("ODRPackFormats", ["ODRPackPlatform", "CZlib", "CLibdeflate"]),
    // The pure rules: manifest -> resolved resources -> packs -> diagnostics, and the planner that runs them.
    ("ODRPackCore", ["ODRPackPlatform", "ODRPackFormats", .product(name: "Yams", package: "Yams"), crypto]),
    // The files build writes and every command reads: odrpack-manifest.json, Apple's plists, the asset-pack entry
    // conventions and the Background Assets documents (docs/build-output.md).
    ("ODRPackBuildFormat", ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore"]),
    // build: the pipeline, the build state and reuse, the two formats' writers and the commit.
    ("ODRPackBuild", ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuildFormat"]),
    // verify: a build folder checked against its odrpack-manifest.json.
    ("ODRPackVerify", ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuildFormat"]),
    // thin: a built app wired to a build's packs.
    ("ODRPackThin", ["ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuildFormat"]),
    // diff: what an update makes users download again.
    ("ODRPackDiff", ["ODRPackPlatform", "ODRPackCore", "ODRPackBuildFormat"]),
    // What people and CI read: text, HTML, Markdown, GitHub Actions.
    (
        "ODRPackReport",
        [
            "ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuildFormat", "ODRPackBuild", "ODRPackVerify",
            "ODRPackThin", "ODRPackDiff",
        ]
    ),
    // import-xcode.
    ("ODRPackXcode", ["ODRPackPlatform", "ODRPackCore"]),
    // The last step to the store (docs/store.md): ipa (an On-Demand Resources app's App Store package) and upload
    // (Apple-hosted Background Assets through the App Store Connect API).
    (
        "ODRPackStore",
        [
            "ODRPackPlatform", "ODRPackFormats", "ODRPackCore", "ODRPackBuildFormat", "ODRPackVerify", "ODRPackThin",
            "ODRPackDiff", "ODRPackReport", "CCurl", crypto,
        ]
    ),
]

let package = Package(
    name: "odrpack",
    // macOS 13 and later (CI images still run 13 and 14); shared state uses ODRPackPlatform's Locked, not Mutex.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "odrpack", targets: ["odrpack"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // zlib: the product's deflate and CRC-32 (on macOS it comes with the SDK).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libdeflate: whole-entry deflate of entries up to 4 MiB, and CRC-32 (several times zlib's speed).
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
        .target(name: "CPlatform"),
        // SHA-256 of two messages at once with the x86 SHA extensions (SHA256Hasher.paired): an archive and its entry.
        .target(name: "CSHA256"),
        // libcurl for `upload`, opened with dlopen when upload runs (docs/store.md#libcurl): never linked, so every other
        // command starts on a system without it, and no curl headers are needed to build.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Linux: hypot and hypotf bound to libm's first version, so the release binary (the Swift runtime and Foundation
        // linked in) needs no glibc newer than 2.34 (docs/install.md#what-the-linux-binary-needs-the-c-library).
        .target(name: "CGlibcFloor"),
        // Text that ships inside the binary (the report page's CSS and JavaScript), kept in files of its own kind and
        // turned into Swift at build time: SwiftPM resources would need a bundle beside every installed binary.
        .plugin(name: "EmbedTextPlugin", capability: .buildTool(), path: "Sources/EmbedTextPlugin"),
    ]
        + layers.map { layer in
            let embedsAssets = layer.name == "ODRPackReport"
            return .target(
                name: layer.name, dependencies: layer.imports, exclude: embedsAssets ? ["Assets"] : [],
                swiftSettings: upcomingFeatures, plugins: embedsAssets ? ["EmbedTextPlugin"] : [])
        } + [
            // What the libFuzzer targets (and the tests replaying their seeds) call; never part of the odrpack product.
            .target(
                name: "ODRPackFuzzing", dependencies: layers.map { .target(name: $0.name) }, path: "Fuzz/EntryPoints",
                swiftSettings: upcomingFeatures),
            // The front end, and nothing else: parsing, one library call per subcommand, printing through the run's
            // CommandState. The tests import it (`@testable import odrpack`) to run commands in-process
            // (docs/architecture.md#commands); SwiftPM builds an executable target testable.
            .executableTarget(
                name: "odrpack",
                dependencies: [
                    "ODRPackPlatform", "ODRPackCore", "ODRPackBuild", "ODRPackVerify", "ODRPackThin", "ODRPackDiff",
                    "ODRPackReport", "ODRPackXcode", "ODRPackStore",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    .target(name: "CGlibcFloor", condition: .when(platforms: [.linux])),
                ],
                swiftSettings: upcomingFeatures
            ),
            .testTarget(
                name: "ODRPackTests",
                dependencies: layers.map { .target(name: $0.name) } + [
                    "ODRPackFuzzing", "odrpack", "CArchive", crypto,
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
    for name in [
        "FuzzTagManifest", "FuzzGlob", "FuzzBuildManifest", "FuzzStreamingZip", "FuzzPbxproj", "FuzzBinaryPlist",
    ] {
        package.targets.append(
            .executableTarget(name: name, dependencies: ["ODRPackFuzzing", "FuzzDriver"], path: "Fuzz/Targets/" + name))
    }
}
