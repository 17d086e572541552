"""The bzlmod (Bazel 7 and later) form of the odrpack toolchain from a release archive.

    # MODULE.bazel
    bazel_dep(name = "rules_odrpack", version = "0.7.0")

    odrpack = use_extension("@rules_odrpack//odrpack:extensions.bzl", "odrpack")
    odrpack.toolchain(
        version = "0.7.0",
        urls = ["https://github.com/OWNER/odrpack/releases/download/v{version}/odrpack-{version}-{target}.tar.gz"],
        sha256s = {
            "x86_64-unknown-linux-gnu": "...",
            "aarch64-unknown-linux-gnu": "...",
            "universal-apple-darwin": "...",
        },
    )
    use_repo(odrpack, "odrpack")
    register_toolchains("@odrpack//:toolchain")

The label form needs no extension: an odrpack_toolchain and a toolchain target in the user's own BUILD file, and
register_toolchains for it (toolchain.bzl).
"""

load(":repositories.bzl", "odrpack_archive")

_toolchain = tag_class(
    doc = "An odrpack release archive: the attributes of odrpack_archive (repositories.bzl).",
    attrs = {
        "name": attr.string(default = "odrpack", doc = "The repository's name (use_repo it, then register @NAME//:toolchain)."),
        "urls": attr.string_list(mandatory = True),
        "sha256": attr.string(),
        "sha256s": attr.string_dict(),
        "version": attr.string(),
        "target": attr.string(),
    },
)

def _odrpack_impl(module_ctx):
    made = {}
    for module in module_ctx.modules:
        for tag in module.tags.toolchain:
            if tag.name in made:
                # The root module comes first: its choice wins over a dependency's of the same name.
                continue
            made[tag.name] = True
            odrpack_archive(
                name = tag.name,
                urls = tag.urls,
                sha256 = tag.sha256,
                sha256s = tag.sha256s,
                version = tag.version,
                target = tag.target,
            )

odrpack = module_extension(
    implementation = _odrpack_impl,
    tag_classes = {"toolchain": _toolchain},
    doc = "Makes odrpack toolchain repositories from release archives (odrpack.toolchain tags).",
)
