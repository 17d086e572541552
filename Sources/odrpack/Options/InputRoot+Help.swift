import ArgumentParser
import ODRPackPlatform

extension InputRoot {
    /// `--input-root`'s help, the same on every command that takes it (docs/commands.md#input-root).
    static let optionHelp = ArgumentHelp(
        """
        Read no input outside this folder, symbolic links resolved: a manifest, resources-root, an app or a link \
        leading out is an error (a build system's declared inputs, e.g. Bazel's).
        """,
        valueName: "dir")
}
