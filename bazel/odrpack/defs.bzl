"""The rules of rules_odrpack: odrpack_packs, odrpack_validate_test, odrpack_ipa, and odrpack_toolchain.

Every rule runs the odrpack binary of the registered toolchain (@rules_odrpack//odrpack:toolchain_type) through
odrpack/private/odrpack_run.sh, which stages the declared inputs first (docs/bazel.md#staging) and confines odrpack to
them with --input-root (docs/bazel.md#hermetic-inputs).
"""

load(":toolchain.bzl", _ODRPACK_TOOLCHAIN_TYPE = "ODRPACK_TOOLCHAIN_TYPE", _odrpack_toolchain = "odrpack_toolchain")

odrpack_toolchain = _odrpack_toolchain
ODRPACK_TOOLCHAIN_TYPE = _ODRPACK_TOOLCHAIN_TYPE

OdrpackPacksInfo = provider(
    doc = "An odrpack build folder made by odrpack_packs.",
    fields = {
        "build_dir": "The tree artifact holding the build folder (without .odrpack.lock).",
        "format": "odr or background-assets.",
        "layout": "zip or folder.",
    },
)

# The environment of every action: fixed, so that the action key (and the output) is the same on every machine.
_ENV = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin"}

_RUNNER = Label("//odrpack/private:odrpack_run.sh")

def _package_root(file):
    """The manifest's package as a runfiles-relative path (`short_path` form): the root inputs are staged under."""
    owner = file.owner
    parts = []
    if owner.workspace_root:
        # external/<repository> → ../<repository>, as short_path writes it.
        parts.append("../" + owner.workspace_root.split("/", 1)[1])
    if owner.package:
        parts.append(owner.package)
    return "/".join(parts)

def _staged_inputs(ctx):
    """(path relative to the manifest's package, File) of the manifest and every src, each path once."""
    root = _package_root(ctx.file.manifest)
    prefix = root + "/" if root else ""
    staged = {}
    for file in [ctx.file.manifest] + ctx.files.srcs:
        path = file.short_path
        if not path.startswith(prefix) or path.startswith("../") and not prefix:
            fail(("%s: %s lies outside the manifest's package '%s': odrpack sees the inputs at their paths " +
                  "relative to that package, so every src must be in it (or below it)") % (ctx.label, file.short_path, root))
        relative = path[len(prefix):]
        if "\n" in relative:
            fail("%s: %s: a path with a line break cannot be staged" % (ctx.label, file.short_path))
        if relative not in staged:
            staged[relative] = file
    return [(relative, staged[relative]) for relative in sorted(staged.keys())]

def _inputs_list(ctx, suffix, staged):
    """The runner's INPUTS file: two lines per input, where to stage it and its exec path."""
    listing = ctx.actions.declare_file(ctx.label.name + suffix)
    ctx.actions.write(listing, "".join([
        relative + "\n" + file.path + "\n"
        for relative, file in staged
    ]))
    return listing

def _manifest_path(staged, manifest):
    for relative, file in staged:
        if file == manifest:
            return relative
    fail("unreachable: the manifest is staged")

def _odrpack_packs_impl(ctx):
    toolchain = ctx.toolchains[ODRPACK_TOOLCHAIN_TYPE]
    staged = _staged_inputs(ctx)
    listing = _inputs_list(ctx, ".odrpack-inputs", staged)
    build_dir = ctx.actions.declare_directory(ctx.label.name)

    args = ctx.actions.args()
    args.add_all(["build", toolchain.odrpack.path, build_dir.path, _manifest_path(staged, ctx.file.manifest)])
    args.add(listing)
    args.add_all([ctx.attr.format, ctx.attr.profile])

    # The build options: the same bytes as `odrpack build` with them, wherever the action runs (the template's URLs
    # name /odrpack/<name>, not the action's folder).
    args.add_all(["--format", ctx.attr.format])
    if ctx.attr.format == "odr":
        args.add_all(["--layout", ctx.attr.layout])
        args.add_all(["--template-path", "/odrpack/" + ctx.label.name])
    elif ctx.attr.layout != "zip":
        fail("%s: layout applies to format odr only (ba-package decides how a Background Assets pack is stored)" % ctx.label)
    if ctx.attr.ba_package:
        if ctx.attr.format != "background-assets":
            fail("%s: ba_package applies to format background-assets only" % ctx.label)
        args.add_all(["--ba-package", ctx.attr.ba_package])

    ctx.actions.run(
        executable = ctx.executable._runner,
        arguments = [args],
        inputs = depset([file for _, file in staged] + [listing], transitive = [toolchain.files]),
        outputs = [build_dir],
        mnemonic = "OdrpackBuild",
        progress_message = "Building odrpack packs %s" % ctx.label,
        env = _ENV,
    )
    return [
        DefaultInfo(files = depset([build_dir])),
        OdrpackPacksInfo(build_dir = build_dir, format = ctx.attr.format, layout = ctx.attr.layout),
    ]

_COMMON_ATTRS = {
    "manifest": attr.label(
        doc = "The tag manifest (odrpack.yml).",
        mandatory = True,
        allow_single_file = True,
    ),
    "srcs": attr.label_list(
        doc = "Every file of resources-root the manifest may tag (e.g. a glob), in the manifest's package or below.",
        allow_files = True,
    ),
    "profile": attr.string(doc = "A limit profile checked instead of the manifest's (odrpack validate --profile)."),
    "_runner": attr.label(
        default = _RUNNER,
        executable = True,
        allow_single_file = True,
        cfg = "exec",
    ),
}

def _merged(*dicts):
    result = {}
    for d in dicts:
        result.update(d)
    return result

odrpack_packs = rule(
    implementation = _odrpack_packs_impl,
    doc = """The packs of a tag manifest: one tree artifact NAME/ holding `odrpack build`'s folder (without
.odrpack.lock), byte for byte, made by one action on the declared inputs only. AssetPackManifestTemplate.plist names
the packs under /odrpack/NAME (odrpack build --template-path), so the output never depends on the machine, the
sandbox or the output base.""",
    attrs = _merged(_COMMON_ATTRS, {
        "format": attr.string(default = "odr", values = ["odr", "background-assets"]),
        "layout": attr.string(default = "zip", values = ["zip", "folder"]),
        "ba_package": attr.string(doc = "Background Assets: the packager command (odrpack build --ba-package)."),
    }),
    toolchains = [ODRPACK_TOOLCHAIN_TYPE],
)

def _odrpack_validate_test_impl(ctx):
    toolchain = ctx.toolchains[ODRPACK_TOOLCHAIN_TYPE]
    staged = _staged_inputs(ctx)
    listing = _inputs_list(ctx, ".odrpack-test-inputs", staged)

    # odrpack validate runs at build time, in an action on the declared inputs like odrpack_packs' build; the test
    # only reports what it recorded. So the test's runfiles are two files with safe names, never the sources (Bazel
    # 4 refuses a runfiles tree whose names hold a space: Xcode projects' "Bamboo Breakout/").
    log = ctx.actions.declare_file(ctx.label.name + ".odrpack-validate.log")
    status = ctx.actions.declare_file(ctx.label.name + ".odrpack-validate.status")
    args = ctx.actions.args()
    args.add_all(["validate", toolchain.odrpack.path, log.path, status.path, _manifest_path(staged, ctx.file.manifest)])
    args.add(listing)
    if ctx.attr.profile:
        args.add_all(["--profile", ctx.attr.profile])
    if ctx.attr.warnings_as_errors:
        args.add("--warnings-as-errors")
    ctx.actions.run(
        executable = ctx.executable._runner,
        arguments = [args],
        inputs = depset([file for _, file in staged] + [listing], transitive = [toolchain.files]),
        outputs = [log, status],
        mnemonic = "OdrpackValidate",
        progress_message = "Validating odrpack manifest %s" % ctx.label,
        env = _ENV,
    )

    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        script,
        ("#!/bin/bash\n# odrpack_validate_test %s: what odrpack validate printed, and its exit status.\n" +
         "cat %s\nexit \"$(cat %s)\"\n") % (ctx.label, _shell_quote(log.short_path), _shell_quote(status.short_path)),
        is_executable = True,
    )
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = [log, status]))]

def _shell_quote(word):
    return "'" + word.replace("'", "'\\''") + "'"

odrpack_validate_test = rule(
    implementation = _odrpack_validate_test_impl,
    doc = """A test that passes when `odrpack validate` does on the manifest and its srcs: validate runs at build time
in one action (mnemonic OdrpackValidate) on the staged declared inputs, and the test prints its output and exits
with its status, so no source is a runfile (names with spaces work on Bazel 4).""",
    attrs = _merged(_COMMON_ATTRS, {
        "warnings_as_errors": attr.bool(default = False, doc = "Fail on warnings too (--warnings-as-errors)."),
    }),
    toolchains = [ODRPACK_TOOLCHAIN_TYPE],
    test = True,
)

def _app_file(ctx):
    files = ctx.files.app
    if len(files) == 1:
        return files[0]
    picked = [file for file in files if file.basename.endswith(".ipa") or file.basename.endswith(".app")]
    if len(picked) != 1:
        fail("%s: app must give one .app folder or one .ipa file, not %s" % (ctx.label, [file.short_path for file in files]))
    return picked[0]

def _odrpack_ipa_impl(ctx):
    toolchain = ctx.toolchains[ODRPACK_TOOLCHAIN_TYPE]
    packs = ctx.attr.packs[OdrpackPacksInfo]
    if packs.format != "odr":
        fail("%s: packs is a Background Assets build: those packs are uploaded on their own (odrpack upload)" % ctx.label)
    app = _app_file(ctx)
    ipa = ctx.actions.declare_file(ctx.label.name + ".ipa")
    args = ctx.actions.args()
    args.add_all(["ipa", toolchain.odrpack.path, ipa.path, app.path, packs.build_dir.path])
    if ctx.attr.resources_path:
        args.add_all(["--resources-path", ctx.attr.resources_path])
    if ctx.attr.sign_command:
        args.add_all(["--sign-command", ctx.attr.sign_command])
    ctx.actions.run(
        executable = ctx.executable._runner,
        arguments = [args],
        inputs = depset([app, packs.build_dir], transitive = [toolchain.files]),
        outputs = [ipa],
        mnemonic = "OdrpackIpa",
        progress_message = "Packaging %s with its On-Demand Resources" % ipa.short_path,
        env = _ENV,
    )
    return [DefaultInfo(files = depset([ipa]))]

odrpack_ipa = rule(
    implementation = _odrpack_ipa_impl,
    doc = """NAME.ipa: `odrpack ipa` on an app (a NAME.app folder, e.g. a tree artifact, or an .ipa such as
rules_apple's ios_application makes) and the packs of an odrpack_packs target: the app thinned of the packs'
files, the packs at Payload/OnDemandResources/.""",
    attrs = {
        "app": attr.label(
            doc = "The app: a target or file giving one .app folder or one .ipa.",
            mandatory = True,
            allow_files = True,
        ),
        "packs": attr.label(
            doc = "An odrpack_packs target (format odr).",
            mandatory = True,
            providers = [OdrpackPacksInfo],
        ),
        "resources_path": attr.string(doc = "The folder inside the app the packs' paths are relative to."),
        "sign_command": attr.string(
            doc = "Run on the thinned app, {} replaced by its quoted path (e.g. codesign); PATH is /usr/bin:/bin:/usr/sbin:/sbin.",
        ),
        "_runner": attr.label(
            default = _RUNNER,
            executable = True,
            allow_single_file = True,
            cfg = "exec",
        ),
    },
    toolchains = [ODRPACK_TOOLCHAIN_TYPE],
)
