"""odrpack_toolchain: the odrpack binary every rules_odrpack rule runs, as a Bazel toolchain."""

ODRPACK_TOOLCHAIN_TYPE = "@rules_odrpack//odrpack:toolchain_type"

def _odrpack_toolchain_impl(ctx):
    binary = ctx.executable.odrpack
    files = depset(
        [binary] + ctx.files.data,
        transitive = [ctx.attr.odrpack[DefaultInfo].default_runfiles.files],
    )
    return [platform_common.ToolchainInfo(
        odrpack = binary,
        files = files,
    )]

odrpack_toolchain = rule(
    implementation = _odrpack_toolchain_impl,
    doc = """The odrpack binary for the rules of rules_odrpack.

The label form: any executable label, e.g. a binary checked into the repository or built by another rule. Register
it with a `toolchain` of type `@rules_odrpack//odrpack:toolchain_type`:

    odrpack_toolchain(name = "odrpack_local", odrpack = "//tools:odrpack")

    toolchain(
        name = "odrpack_local_toolchain",
        toolchain = ":odrpack_local",
        toolchain_type = "@rules_odrpack//odrpack:toolchain_type",
    )

and `register_toolchains("//tools:odrpack_local_toolchain")` in WORKSPACE or MODULE.bazel. The archive form
(odrpack_register_toolchains in repositories.bzl, or the module extension in extensions.bzl) makes the same two
targets from a release archive.
""",
    attrs = {
        "odrpack": attr.label(
            doc = "The odrpack executable.",
            mandatory = True,
            executable = True,
            allow_files = True,
            cfg = "exec",
        ),
        "data": attr.label_list(
            doc = "Files the binary needs beside it at run time (a release archive's other files).",
            allow_files = True,
            cfg = "exec",
        ),
    },
)
