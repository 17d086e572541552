"""A tiny fake iOS app for the test workspace: Bamboo.app as a tree artifact (what an app rule hands over), and the
same app zipped as an .ipa (what rules_apple's ios_application makes)."""

def _fake_app_impl(ctx):
    app = ctx.actions.declare_directory(ctx.attr.bundle_name + ".app")
    commands = [
        "mkdir -p \"$1\"",
        "cp %s \"$1/Info.plist\"" % ctx.file.info_plist.path,
        "cp %s \"$1/%s\"" % (ctx.file.binary.path, ctx.attr.bundle_name),
        "chmod 755 \"$1/%s\"" % ctx.attr.bundle_name,
    ]
    for resource in ctx.files.resources:
        path = resource.short_path
        if not path.startswith(ctx.attr.strip_prefix):
            fail("%s does not start with %s" % (path, ctx.attr.strip_prefix))
        relative = path[len(ctx.attr.strip_prefix):]
        commands.append("mkdir -p \"$1/%s\" && cp %s \"$1/%s\"" % (relative.rpartition("/")[0], resource.path, relative))
    for name, target in sorted(ctx.attr.links.items()):
        commands.append("ln -s '%s' \"$1/%s\"" % (target, name))
    ctx.actions.run_shell(
        outputs = [app],
        inputs = [ctx.file.info_plist, ctx.file.binary] + ctx.files.resources,
        command = " && ".join(commands),
        arguments = [app.path],
        mnemonic = "FakeApp",
    )
    return [DefaultInfo(files = depset([app]))]

fake_app = rule(
    implementation = _fake_app_impl,
    attrs = {
        "bundle_name": attr.string(mandatory = True),
        "info_plist": attr.label(allow_single_file = True, mandatory = True),
        "binary": attr.label(allow_single_file = True, mandatory = True),
        "resources": attr.label_list(allow_files = True),
        "strip_prefix": attr.string(),
        "links": attr.string_dict(doc = "Symbolic links to make in the app: name → target."),
    },
)

_ZIP = """
import os, sys, zipfile
app, out = sys.argv[1], sys.argv[2]
name = os.path.basename(app)
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, folders, files in os.walk(app, followlinks=True):
        folders.sort()
        for file in sorted(files):
            path = os.path.join(folder, file)
            entry = zipfile.ZipInfo("Payload/" + name + "/" + os.path.relpath(path, app), (2000, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100755 if os.access(path, os.X_OK) else 0o100644) << 16
            with open(path, "rb") as source:
                archive.writestr(entry, source.read(), zipfile.ZIP_DEFLATED)
"""

def _zip_ipa_impl(ctx):
    ipa = ctx.actions.declare_file(ctx.attr.ipa_name)
    ctx.actions.run_shell(
        outputs = [ipa],
        inputs = ctx.files.app,
        command = "python3 -c \"$1\" \"$2\" \"$3\"",
        arguments = [_ZIP, ctx.files.app[0].path, ipa.path],
        mnemonic = "FakeIpa",
        env = {"PATH": "/usr/bin:/bin"},
    )
    return [DefaultInfo(files = depset([ipa]))]

zip_ipa = rule(
    implementation = _zip_ipa_impl,
    attrs = {
        "app": attr.label(mandatory = True),
        "ipa_name": attr.string(mandatory = True),
    },
)
