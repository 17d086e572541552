/// How packs are written (docs/build-output.md).
package enum PackLayout: String, CaseIterable, Sendable {
    /// One streaming zip per pack, as Apple's exported asset packs.
    case zip
    /// One folder per pack, as an App Store IPA and Xcode's build folder hold them.
    case folder
}
