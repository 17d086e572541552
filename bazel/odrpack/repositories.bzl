"""The WORKSPACE setup of rules_odrpack (Bazel before 7; bzlmod uses extensions.bzl), and the repository rule that
makes an odrpack toolchain from a release archive.

    # WORKSPACE
    local_repository(name = "rules_odrpack", path = "...")  # or http_archive(name = "rules_odrpack", ...)

    load("@rules_odrpack//odrpack:repositories.bzl", "odrpack_register_toolchains", "rules_odrpack_dependencies")

    rules_odrpack_dependencies()

    odrpack_register_toolchains(
        version = "0.7.0",
        urls = ["https://github.com/OWNER/odrpack/releases/download/v{version}/odrpack-{version}-{target}.tar.gz"],
        sha256s = {
            "x86_64-unknown-linux-gnu": "...",
            "aarch64-unknown-linux-gnu": "...",
            "universal-apple-darwin": "...",
        },
    )
"""

# The release targets (SPEC section 14: what `make dist` names its archives), and the execution platforms each runs
# on.
ODRPACK_TARGETS = {
    "x86_64-unknown-linux-gnu": ["@platforms//os:linux", "@platforms//cpu:x86_64"],
    "aarch64-unknown-linux-gnu": ["@platforms//os:linux", "@platforms//cpu:aarch64"],
    "universal-apple-darwin": ["@platforms//os:macos"],
}

def rules_odrpack_dependencies():
    """Declares what rules_odrpack needs besides Bazel itself.

    Nothing today: the rules are Starlark and one shell script, and @platforms (for the toolchains' execution
    constraints) comes with Bazel. The macro stays, so that a WORKSPACE written now keeps working when that changes.
    """
    pass

def _host_target(repository_ctx):
    """The release target for the machine Bazel runs on."""
    os_name = repository_ctx.os.name.lower()
    if os_name.startswith("mac os") or os_name.startswith("darwin"):
        return "universal-apple-darwin"
    if not os_name.startswith("linux"):
        fail("odrpack has release archives for Linux and macOS only, not %s: use the label form of odrpack_toolchain" % os_name)
    arch = getattr(repository_ctx.os, "arch", "")
    if not arch:
        result = repository_ctx.execute(["uname", "-m"])
        arch = result.stdout.strip()
    if arch in ["amd64", "x86_64", "x64"]:
        return "x86_64-unknown-linux-gnu"
    if arch in ["aarch64", "arm64"]:
        return "aarch64-unknown-linux-gnu"
    fail("odrpack has no Linux release archive for the architecture %s: use the label form of odrpack_toolchain" % arch)

_BUILD_TEMPLATE = """\
# Made by rules_odrpack's odrpack_archive from {archive}.
load("@rules_odrpack//odrpack:toolchain.bzl", "odrpack_toolchain")

package(default_visibility = ["//visibility:public"])

exports_files(["{binary}"])

odrpack_toolchain(
    name = "odrpack_toolchain",
    odrpack = "{binary}",
    data = glob(["{folder}/**"], exclude = ["{binary}"]),
)

toolchain(
    name = "toolchain",
    exec_compatible_with = {constraints},
    toolchain = ":odrpack_toolchain",
    toolchain_type = "@rules_odrpack//odrpack:toolchain_type",
)
"""

def _odrpack_archive_impl(repository_ctx):
    target = repository_ctx.attr.target or _host_target(repository_ctx)
    if target not in ODRPACK_TARGETS:
        fail("odrpack_archive: target must be one of %s, not %s" % (", ".join(ODRPACK_TARGETS.keys()), target))
    sha256 = repository_ctx.attr.sha256s.get(target, repository_ctx.attr.sha256)
    if not sha256:
        fail("odrpack_archive: no SHA-256 for %s: give sha256, or sha256s[\"%s\"] (the .sha256 file beside the archive holds it)" % (target, target))
    version = repository_ctx.attr.version
    if not version and [url for url in repository_ctx.attr.urls if "{version}" in url]:
        fail("odrpack_archive: the urls name {version}: give version")
    urls = [
        url.replace("{version}", version).replace("{target}", target)
        for url in repository_ctx.attr.urls
    ]
    if not urls:
        fail("odrpack_archive: give the archive's urls")
    repository_ctx.download_and_extract(
        url = urls,
        sha256 = sha256,
        output = "archive",
        type = "tar.gz",
    )

    # The archive holds one folder, odrpack-<version>-<target>/, with bin/odrpack (SPEC section 14).
    folders = [entry for entry in repository_ctx.path("archive").readdir() if entry.basename.startswith("odrpack-")]
    if len(folders) != 1:
        fail("odrpack_archive: %s does not hold one folder odrpack-<version>-<target>/" % urls[0])
    folder = folders[0].basename
    if not folder.endswith("-" + target):
        fail("odrpack_archive: %s holds %s/, not an odrpack for %s" % (urls[0], folder, target))
    if version and folder != "odrpack-%s-%s" % (version, target):
        fail("odrpack_archive: %s holds %s/, not odrpack-%s-%s/" % (urls[0], folder, version, target))
    binary = "archive/%s/bin/odrpack" % folder
    if not repository_ctx.path(binary).exists:
        fail("odrpack_archive: %s has no %s/bin/odrpack" % (urls[0], folder))
    # A marker only: under bzlmod the repository's name is a canonical one (with ~ or +), not a workspace() name.
    repository_ctx.file("WORKSPACE", "# Made by rules_odrpack's odrpack_archive.\n")
    repository_ctx.file("BUILD.bazel", _BUILD_TEMPLATE.format(
        archive = urls[0],
        binary = binary,
        folder = "archive/" + folder,
        constraints = repr(ODRPACK_TARGETS[target]),
    ))

odrpack_archive = repository_rule(
    implementation = _odrpack_archive_impl,
    doc = """An odrpack release archive, `odrpack-<version>-<target>.tar.gz`, as a repository holding the toolchain
`@NAME//:toolchain` (register it) and the binary. The target is the host's unless `target` says otherwise.""",
    attrs = {
        "urls": attr.string_list(
            mandatory = True,
            doc = "Where the archive is (mirrors in turn); `{version}` and `{target}` are replaced. file:// URLs work.",
        ),
        "sha256": attr.string(doc = "The archive's SHA-256 (one target)."),
        "sha256s": attr.string_dict(doc = "The SHA-256 of each target's archive, by target (several hosts)."),
        "version": attr.string(doc = "The release version, e.g. 0.7.0 (needed when the urls name {version})."),
        "target": attr.string(
            doc = "x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu or universal-apple-darwin; default: the host's.",
        ),
    },
)

def odrpack_register_toolchains(name = "odrpack", **kwargs):
    """Makes the repository `name` from a release archive (odrpack_archive's attributes) and registers its toolchain.

    Args:
      name: the repository's name.
      **kwargs: urls, sha256 or sha256s, version, target: as odrpack_archive.
    """
    odrpack_archive(name = name, **kwargs)
    native.register_toolchains("@%s//:toolchain" % name)
