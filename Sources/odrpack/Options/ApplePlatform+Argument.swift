import ArgumentParser
import ODRPackCore

/// `--platform iOS` (any letter case: `--platform tvos`), docs/commands.md#platform.
extension ApplePlatform: ExpressibleByArgument {
    public init?(argument: String) { self.init(named: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension ApplePlatform {
    /// The help of every command's `--platform`.
    static let optionHelp = ArgumentHelp(
        """
        ODR only: the platform the packs are for, iOS, macOS, tvOS or visionOS (default: tvOS for profile tvos, else \
        iOS): files of entries whose 'platforms' leave it out are not packed.
        """)

    /// `--platform` with `--format background-assets` is a bad command line: those packs each name their platforms.
    static func check(_ platform: ApplePlatform?, format: PackFormat) throws {
        if platform != nil && format == .backgroundAssets {
            throw ValidationError(
                """
                --platform applies to --format odr only: Background Assets packs are made for every platform of \
                background-assets.platforms, each naming its own; leave it out
                """
            )
        }
    }
}
