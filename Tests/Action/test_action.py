#!/usr/bin/env python3
"""`make test-action`: the GitHub Action (action.yml) run as the runner runs it, against release archives served on
127.0.0.1 (SPEC section 14).

    python3 Tests/Action/test_action.py [DIST_DIR]       (default: $ODRPACK_DIST_DIR, else dist/)

DIST_DIR holds `make dist`'s output: odrpack-<version>-<target>.tar.gz and its .sha256 for this machine. A local HTTP
server (Python's http.server on an ephemeral port, started and stopped here) serves them as
<download-url>/v<version>/<archive> and counts the requests; an HTTPS one, with a certificate made here and given to
curl through CURL_CA_BUNDLE, shows where the token is sent. Each case prints `ok` or `FAIL` and the last line counts
them; the exit status is 1 when one failed.
"""
import functools
import gzip
import hashlib
import http.server
import json
import os
import platform
import re
import shutil
import ssl
import subprocess
import sys
import tarfile
import tempfile
import threading
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runner import run_action  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ACTION = os.path.join(ROOT, "action.yml")
SAMPLE = os.path.join(ROOT, "SampleProject")
TOKEN = "odrpack-test-token-3f9c1d7e"


def runner_platform():
    """(RUNNER_OS, RUNNER_ARCH, release target) of this machine."""
    system, machine = platform.system(), platform.machine().lower()
    arch = {"x86_64": "X64", "amd64": "X64", "aarch64": "ARM64", "arm64": "ARM64"}.get(machine)
    if system == "Linux" and arch == "X64":
        return "Linux", arch, "x86_64-unknown-linux-gnu"
    if system == "Linux" and arch == "ARM64":
        return "Linux", arch, "aarch64-unknown-linux-gnu"
    if system == "Darwin" and arch:
        return "macOS", arch, "universal-apple-darwin"
    sys.exit(f"test_action.py: the Action has no archive for {system} {machine}")


class Server:
    """http.server on 127.0.0.1 and an ephemeral port, serving `root`, counting requests (path, Host, Authorization).

    `/redirect/REST` answers 302 to the same server under the host name `localhost` (another host for curl)."""

    def __init__(self, root, context=None):
        self.requests = []
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *arguments):
                pass

            def record(self):
                server.requests.append((self.path, self.headers.get("Host"), self.headers.get("Authorization")))

            def do_HEAD(self):
                self.record()
                super().do_HEAD()

            def do_GET(self):
                self.record()
                if self.path.startswith("/redirect/"):
                    self.send_response(302)
                    self.send_header("Location", f"{server.scheme}://localhost:{server.port}/{self.path[10:]}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                super().do_GET()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=root))
        self.scheme = "http"
        if context is not None:
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
            self.scheme = "https"
        self.port = self.httpd.server_address[1]
        self.url = f"{self.scheme}://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def make_certificate(folder):
    """A self-signed certificate for 127.0.0.1 and localhost (openssl), or None where openssl cannot make one."""
    key, certificate = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                           "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
                           "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], capture_output=True)
    if made.returncode != 0:
        return None, None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    return context, certificate


class Suite:
    def __init__(self, dist):
        self.runner_os, self.runner_arch, self.target = runner_platform()
        archives = [name for name in os.listdir(dist) if name.endswith(f"-{self.target}.tar.gz")]
        if len(archives) != 1:
            sys.exit(f"test_action.py: {dist} should hold one odrpack-<version>-{self.target}.tar.gz, not {archives}")
        self.archive = archives[0]
        self.version = re.fullmatch(rf"odrpack-(.+)-{self.target}\.tar\.gz", self.archive).group(1)
        if not os.path.exists(os.path.join(dist, self.archive + ".sha256")):
            sys.exit(f"test_action.py: {self.archive}.sha256 is missing from {dist}")
        self.temp = tempfile.mkdtemp(prefix="odrpack-action-test.")
        # What the servers serve: v<version>/ (make dist's files) and tampered/v<version>/ (one byte changed).
        self.served = os.path.join(self.temp, "served")
        release = os.path.join(self.served, f"v{self.version}")
        tampered = os.path.join(self.served, "tampered", f"v{self.version}")
        os.makedirs(release)
        os.makedirs(tampered)
        for name in (self.archive, self.archive + ".sha256"):
            shutil.copyfile(os.path.join(dist, name), os.path.join(release, name))
            shutil.copyfile(os.path.join(dist, name), os.path.join(tampered, name))
        with open(os.path.join(tampered, self.archive), "r+b") as file:
            file.seek(os.path.getsize(file.name) // 2)
            byte = file.read(1)
            file.seek(-1, os.SEEK_CUR)
            file.write(bytes([byte[0] ^ 0xFF]))
        self.server = Server(self.served)
        context, self.certificate = make_certificate(self.temp)
        self.https = Server(self.served, context) if context else None
        # The workspace: copies of the sample, one over its pack size limit, one in a folder with a space.
        self.workspace = os.path.join(self.temp, "workspace")
        shutil.copytree(SAMPLE, os.path.join(self.workspace, "sample"), ignore=shutil.ignore_patterns("build"))
        shutil.copytree(SAMPLE, os.path.join(self.workspace, "over-limit"), ignore=shutil.ignore_patterns("build"))
        shutil.copytree(SAMPLE, os.path.join(self.workspace, "my game"), ignore=shutil.ignore_patterns("build"))
        with open(os.path.join(self.workspace, "over-limit", "odrpack.yml"), "a") as file:
            file.write("\nlimits: {max-pack-size: 1}\n")
        self.tool_cache = os.path.join(self.temp, "toolcache")
        self.passed = self.failed = 0
        self.base_env = {key: value for key, value in os.environ.items()
                         if not key.startswith(("GITHUB_", "RUNNER_", "INPUT_", "ACTIONS_"))}
        self.base_env["HOME"] = os.path.join(self.temp, "home")
        os.makedirs(self.base_env["HOME"])
        if self.certificate:
            self.base_env["CURL_CA_BUNDLE"] = self.certificate

    def close(self):
        self.server.stop()
        if self.https:
            self.https.stop()
        shutil.rmtree(self.temp, ignore_errors=True)

    def run(self, inputs, tool_cache=None, action_ref=None, runner_os=None, action_repository="odrpack/odrpack",
            action_path=None, env=None):
        """`env`: the calling step's env:, which the runner passes on to a composite action's steps."""
        runner_temp = tempfile.mkdtemp(prefix="runner-temp.", dir=self.temp)
        github = {"action_ref": f"v{self.version}" if action_ref is None else action_ref,
                  "action_repository": action_repository, "server_url": "https://github.com",
                  "token": TOKEN, "workspace": self.workspace}
        runner = {"os": runner_os or self.runner_os, "arch": self.runner_arch, "temp": runner_temp,
                  "tool_cache": tool_cache or self.tool_cache}
        inputs = dict(inputs)
        inputs.setdefault("download-url", self.server.url)
        result = run_action(ACTION, inputs, github, runner, self.workspace, dict(self.base_env, **(env or {})),
                            action_path=action_path)
        if TOKEN in result.text:
            raise AssertionError("the token is in the log\n" + result.text)
        return result

    def case(self, name, function):
        try:
            function()
        except Exception as error:  # noqa: BLE001: every failure is reported and counted
            self.failed += 1
            print(f"FAIL {name}: {error}")
            if not isinstance(error, AssertionError):
                traceback.print_exc()
        else:
            self.passed += 1
            print(f"ok   {name}")

    # The cases.

    def cache_folder(self, tool_cache=None):
        return os.path.join(tool_cache or self.tool_cache, "odrpack", self.version, self.runner_arch.lower())

    def test_install(self):
        self.server.requests.clear()
        result = self.run({})
        check(result.success, "the install failed", result)
        binary = os.path.join(self.cache_folder(), "bin", "odrpack")
        check(result.outputs["version"] == self.version, f"version output {result.outputs['version']!r}", result)
        check(result.outputs["path"] == binary, f"path output {result.outputs['path']!r}, not {binary}", result)
        check(result.outputs["exit-code"] == "" and result.outputs["json"] == "", "exit-code or json without args",
              result)
        check(result.path_additions == [os.path.dirname(binary)], f"GITHUB_PATH: {result.path_additions}", result)
        env = dict(self.base_env, PATH=os.pathsep.join(result.path_additions + [self.base_env["PATH"]]))
        printed = subprocess.run(["bash", "-c", "command -v odrpack && odrpack --version"], env=env,
                                 capture_output=True, text=True)
        check(printed.stdout == f"{binary}\nodrpack {self.version}\n",
              f"a later step's `odrpack --version`: {printed.stdout!r} {printed.stderr!r}", result)
        paths = sorted(path for path, _, _ in self.server.requests)
        expected = [f"/v{self.version}/{self.archive}", f"/v{self.version}/{self.archive}.sha256"]
        check(paths == expected, f"requests {paths}, not {expected}", result)
        check(all(auth is None for _, _, auth in self.server.requests), "a token went over plain http", result)
        parent = os.path.dirname(self.cache_folder())
        check(sorted(os.listdir(parent)) == sorted([self.runner_arch.lower(), self.runner_arch.lower() + ".complete"]),
              f"the tool cache holds {os.listdir(parent)}", result)

    def test_second_install_from_cache(self):
        self.server.requests.clear()
        result = self.run({})
        check(result.success, "the second install failed", result)
        check(self.server.requests == [], f"requests: {self.server.requests}", result)
        check("is in the tool cache" in result.text, "the log does not say the tool cache was used", result)
        check(result.outputs["path"] == os.path.join(self.cache_folder(), "bin", "odrpack"), "path output", result)

    def test_tampered_archive_refused(self):
        tool_cache = os.path.join(self.temp, "toolcache-tampered")
        os.makedirs(tool_cache)
        self.server.requests.clear()
        result = self.run({"download-url": self.server.url + "/tampered"}, tool_cache=tool_cache)
        check(not result.success and result.failed_step == "install", "a tampered archive was accepted", result)
        check("does not match its checksum" in result.text, "the log does not say why", result)
        check(os.listdir(tool_cache) == [], f"the tool cache holds {os.listdir(tool_cache)}", result)
        check(result.path_additions == [] and result.outputs["path"] == "", "a path was set", result)
        check(len(self.server.requests) == 2, f"requests: {self.server.requests}", result)

    def test_a_partial_install_is_not_reused(self):
        # What an install killed half-way could leave: its staging folder, and a folder at the final name without
        # the binary (not one the action makes: it renames a whole folder there). Neither is taken for an install.
        tool_cache = os.path.join(self.temp, "toolcache-partial")
        folder = self.cache_folder(tool_cache)
        os.makedirs(os.path.join(folder, "share"))
        os.makedirs(os.path.join(os.path.dirname(folder), f".{self.runner_arch.lower()}.partial.abc123", "bin"))
        self.server.requests.clear()
        result = self.run({}, tool_cache=tool_cache)
        check(result.success and len(self.server.requests) == 2, "a partial install was reused", result)
        printed = subprocess.run([result.outputs["path"], "--version"], capture_output=True, text=True)
        check(printed.stdout == f"odrpack {self.version}\n", f"--version printed {printed.stdout!r}", result)

    def test_macos_runner_without_sha256sum(self):
        # A macOS runner as the action sees one: the universal archive (here the same binary, repacked under that
        # name), the cache folder named for RUNNER_ARCH (arm64), and shasum where sha256sum is missing.
        if self.target == "universal-apple-darwin":
            print("     (skipped: this machine is a Mac)")
            return
        universal = f"odrpack-{self.version}-universal-apple-darwin"
        release = os.path.join(self.served, "macos", f"v{self.version}")
        os.makedirs(release)
        buffer = tempfile.TemporaryFile()
        with tarfile.open(os.path.join(self.served, f"v{self.version}", self.archive)) as source, \
                gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=1, mtime=0) as compressed, \
                tarfile.open(fileobj=compressed, mode="w") as target:
            for member in source.getmembers():
                member.name = universal + member.name[member.name.index("/"):] if "/" in member.name else universal
                target.addfile(member, source.extractfile(member) if member.isfile() else None)
        buffer.seek(0)
        data = buffer.read()
        with open(os.path.join(release, universal + ".tar.gz"), "wb") as file:
            file.write(data)
        with open(os.path.join(release, universal + ".tar.gz.sha256"), "w") as file:
            file.write(f"{hashlib.sha256(data).hexdigest()}  {universal}.tar.gz\n")
        tools = os.path.join(self.temp, "tools-without-sha256sum")
        os.makedirs(tools)
        for folder in ("/usr/local/bin", "/usr/bin", "/bin"):
            for name in os.listdir(folder) if os.path.isdir(folder) else []:
                if name != "sha256sum" and not os.path.exists(os.path.join(tools, name)):
                    os.symlink(os.path.join(folder, name), os.path.join(tools, name))
        tool_cache = os.path.join(self.temp, "toolcache-macos")
        saved_path, saved_arch = self.base_env["PATH"], self.runner_arch
        self.base_env["PATH"], self.runner_arch = tools, "ARM64"
        try:
            result = self.run({"download-url": self.server.url + "/macos"}, tool_cache=tool_cache, runner_os="macOS")
        finally:
            self.base_env["PATH"], self.runner_arch = saved_path, saved_arch
        binary = os.path.join(tool_cache, "odrpack", self.version, "arm64", "bin", "odrpack")
        check(result.success and result.outputs["path"] == binary, "the universal archive for macOS ARM64", result)
        check(f"sha256 {hashlib.sha256(data).hexdigest()}" in result.text, "the checksum was not checked", result)

    def test_missing_release_fails(self):
        tool_cache = os.path.join(self.temp, "toolcache-missing")
        result = self.run({"version": "0.0.1"}, tool_cache=tool_cache)
        check(not result.success and "could not download" in result.text, "a missing archive", result)
        check(not os.path.exists(os.path.join(tool_cache, "odrpack")), "the tool cache was written", result)

    def test_ref_not_a_version_asks_for_the_version_input(self):
        for ref in ("main", "0123456789abcdef0123456789abcdef01234567", "v1"):
            result = self.run({}, action_ref=ref)
            check(not result.success and "set the version input" in result.text, f"ref {ref}", result)
        result = self.run({"version": self.version}, action_ref="main")
        check(result.success and result.outputs["version"] == self.version, "the version input at main", result)
        result = self.run({"version": "../../etc"}, action_ref="main")
        check(not result.success and "not a release version" in result.text, "a version that is a path", result)

    def test_ref_from_the_action_path(self):
        # The runner leaves github.action_ref and action_repository empty in some composite runs; the action's
        # folder, .../_actions/OWNER/REPO/REF, names them.
        action_path = os.path.join(self.temp, "_actions", "someone", "odrpack", f"v{self.version}")
        os.makedirs(action_path, exist_ok=True)
        result = self.run({}, action_ref="", action_repository="", action_path=action_path)
        check(result.success and result.outputs["version"] == self.version, "version from the action's folder", result)

    def test_unsupported_runner(self):
        result = self.run({}, runner_os="Windows")
        check(not result.success and "no release archive for Windows" in result.text, "Windows", result)

    def test_failing_validate_fails_the_step(self):
        result = self.run({"args": "validate odrpack.yml", "working-directory": "over-limit"})
        check(not result.success and result.failed_step == "run", "an over-limit validate passed", result)
        check(result.outputs["exit-code"] == "1", f"exit-code {result.outputs['exit-code']!r}", result)
        check("pack-too-large" in result.text, "odrpack's diagnostics are not in the log", result)
        check("odrpack exited with status 1" in result.text, "the step does not say why it failed", result)

    def test_fail_on_error_false(self):
        result = self.run({"args": "validate odrpack.yml", "working-directory": "over-limit", "fail-on-error": "false"})
        check(result.success, "fail-on-error: false failed the step", result)
        check(result.outputs["exit-code"] == "1", f"exit-code {result.outputs['exit-code']!r}", result)
        result = self.run({"args": "validate odrpack.yml", "working-directory": "over-limit", "fail-on-error": "maybe"})
        check(not result.success and "fail-on-error is true or false" in result.text, "fail-on-error: maybe", result)

    def test_github_annotations_and_step_summary(self):
        result = self.run({"args": "validate odrpack.yml --github", "working-directory": "over-limit",
                           "fail-on-error": "false"})
        check(result.success and result.outputs["exit-code"] == "1", "validate --github", result)
        check("::error file=odrpack.yml,line=" in result.text, "no ::error annotation in the log", result)
        check("pack-too-large" in result.summary, f"GITHUB_STEP_SUMMARY holds {result.summary!r}", result)

    def test_json_output(self):
        result = self.run({"args": "plan --json", "working-directory": "sample"})
        check(result.success and result.outputs["exit-code"] == "0", "plan --json failed", result)
        document = json.loads(result.outputs["json"])
        check(document["schemaVersion"] == 1, f"schemaVersion {document.get('schemaVersion')}", result)
        check(isinstance(document["diagnostics"], list), "no diagnostics array", result)
        result = self.run({"args": "validate --json odrpack.yml", "working-directory": "over-limit",
                           "fail-on-error": "false"})
        check(result.success and result.outputs["exit-code"] == "1", "validate --json", result)
        document = json.loads(result.outputs["json"])
        codes = [diagnostic["code"] for diagnostic in document["diagnostics"]]
        check("pack-too-large" in codes, f"diagnostics {codes}", result)
        result = self.run({"args": "validate odrpack.yml", "working-directory": "sample"})
        check(result.success and result.outputs["json"] == "", "a json output without --json", result)
        result = self.run({"args": "plan --json nowhere.yml", "working-directory": "sample", "fail-on-error": "false"})
        document = json.loads(result.outputs["json"])
        check(result.outputs["exit-code"] == "2" and document["error"]["code"], "plan --json of no manifest", result)

    def test_args_are_split_as_a_shell_splits_them(self):
        args = "plan \\\n  'my game/odrpack.yml' \"--json\" # the sample, in a folder with a space"
        result = self.run({"args": args})
        check(result.success and json.loads(result.outputs["json"])["schemaVersion"] == 1, "quoted words", result)
        check("odrpack plan my\\ game/odrpack.yml --json" in result.text, "the command line is not logged", result)
        result = self.run({"args": "plan my\\ game/odrpack.yml", "fail-on-error": "false"})
        check(result.success and result.outputs["exit-code"] == "0", "a backslash-escaped space", result)

    def test_args_are_never_run_by_a_shell(self):
        marker = os.path.join(self.workspace, "injected")
        for args in ("plan $(touch injected)", "plan `touch injected`", "plan odrpack.yml; touch injected",
                     "plan odrpack.yml && touch injected", "plan odrpack.yml | tee injected", "plan > injected",
                     'plan "$(touch injected)"', "plan $HOME"):
            result = self.run({"args": args, "working-directory": "sample"})
            check(not result.success and result.failed_step == "run" and result.outputs["exit-code"] == "",
                  f"args {args!r} were not refused", result)
            check(not os.path.exists(marker) and not os.path.exists(os.path.join(self.workspace, "sample", "injected")),
                  f"args {args!r} ran a command", result)
        result = self.run({"args": "plan 'odrpack.yml", "working-directory": "sample"})
        check(not result.success and "unclosed" in result.text, "an unclosed quote", result)
        result = self.run({"args": "odrpack plan", "working-directory": "sample"})
        check(not result.success and "follows the word odrpack: write 'plan', not 'odrpack plan'" in result.text,
              "args starting with odrpack", result)
        result = self.run({"args": "plan '$(touch injected)' --json", "working-directory": "sample",
                           "fail-on-error": "false"})
        check(result.outputs["exit-code"] == "2" and not os.path.exists(os.path.join(self.workspace, "sample",
                                                                                     "injected")),
              "a quoted $( ) is a literal file name", result)

    def test_a_value_in_args_cannot_add_an_option_or_run_a_command(self):
        # A value reaches args as "$NAME", a variable of the step's env: (issue 53: an expression written inside a
        # quoted word let a quote in its value end the word and add --sign-command). The value is one word, or part
        # of one, whatever it holds: quotes, blanks, backslashes, line breaks, $( ), --options.
        marker = os.path.join(self.workspace, "sample", "injected")
        values = ["x' --sign-command 'touch injected", 'x" --sign-command "touch injected', "x --json --profile y",
                  "x\\' --sign-command touch\\ injected", "x\n--sign-command\ntouch injected",
                  "$(touch injected)", "`touch injected`", "x'\"$HOME\"'"]
        for value in values:
            for args in ('plan "$MANIFEST" --json', 'plan "${MANIFEST}" --json', 'plan "./$MANIFEST.yml" --json'):
                result = self.run({"args": args, "working-directory": "sample", "fail-on-error": "false"},
                                  env={"MANIFEST": value})
                check(result.success and result.outputs["exit-code"] == "2", f"{args} with {value!r}", result)
                message = json.loads(result.outputs["json"])["error"]["message"]
                whole = value if args.startswith('plan "$') else f"./{value}.yml"
                check(whole in message, f"{args} with {value!r}: odrpack did not get one word: {message!r}", result)
                check(not os.path.exists(marker), f"{args} with {value!r} ran a command", result)
                check(f"odrpack {args}" in result.text, f"the log of {args} shows the value, not the args", result)
        # The value is never split: a manifest in a folder with a space, given through env:.
        result = self.run({"args": 'plan "$MANIFEST" --json'}, env={"MANIFEST": "my game/odrpack.yml"})
        check(result.success and json.loads(result.outputs["json"])["schemaVersion"] == 1, "a value with a space",
              result)
        # What is not a variable of env:, or not a plain "$NAME", is refused before odrpack runs.
        for args, env, why in (('plan "$MISSING"', {}, "$MISSING is not set"),
                               ('plan "$home"', {"home": "x"}, "named in capitals"),
                               ('plan "${MANIFEST:-x}"', {"MANIFEST": "x"}, "no closing }"),
                               ('plan "$1"', {}, "an environment variable in capitals"),
                               ("plan $MANIFEST", {"MANIFEST": "x"}, "is not run by a shell")):
            result = self.run({"args": args, "working-directory": "sample"}, env=env)
            check(not result.success and result.failed_step == "run" and result.outputs["exit-code"] == "",
                  f"{args} was not refused", result)
            check(why in result.text, f"{args}: the log does not say {why!r}", result)
        # '...' and \$ keep a $ as it is.
        result = self.run({"args": "plan '$MANIFEST' \"\\$MANIFEST\" --json", "working-directory": "sample",
                           "fail-on-error": "false"}, env={"MANIFEST": "x"})
        check(result.outputs["exit-code"] in ("2", "64") and "odrpack plan \\$MANIFEST \\$MANIFEST --json" in result.text,
              "a quoted $ was expanded", result)

    def test_a_tampered_tool_cache_is_not_run(self):
        # The tool cache's binary is run with the job's secrets: it is reused only when every file has the SHA-256
        # recorded at install (after the archive matched the release's .sha256), and installed again otherwise.
        marker = os.path.join(self.temp, "cache-binary-ran")
        fake = f"#!/bin/sh\ntouch '{marker}'\necho 'odrpack {self.version}'\n"
        original = os.path.join(self.served, f"v{self.version}", self.archive)
        with tarfile.open(original) as archive:
            member = next(member for member in archive.getmembers() if member.name.endswith("/bin/odrpack"))
            expected = hashlib.sha256(archive.extractfile(member).read()).hexdigest()

        def tamper_binary(folder):
            binary = os.path.join(folder, "bin", "odrpack")
            os.unlink(binary)
            with open(binary, "w") as file:
                file.write(fake)
            os.chmod(binary, 0o755)

        def link_binary(folder):
            binary = os.path.join(folder, "bin", "odrpack")
            with open(os.path.join(self.temp, "elsewhere"), "w") as file:
                file.write(fake)
            os.chmod(os.path.join(self.temp, "elsewhere"), 0o755)
            os.unlink(binary)
            os.symlink(os.path.join(self.temp, "elsewhere"), binary)

        def add_to_bin(folder):
            with open(os.path.join(folder, "bin", "git"), "w") as file:
                file.write(fake)
            os.chmod(os.path.join(folder, "bin", "git"), 0o755)

        def remove_record(folder):
            os.unlink(folder + ".complete")
            tamper_binary(folder)

        def forge_record_line(folder):
            with open(folder + ".complete") as file:
                lines = file.read().split("\n")
            lines[0] = "archive " + "0" * 64 + "  odrpack-other.tar.gz"
            with open(folder + ".complete", "w") as file:
                file.write("\n".join(lines))

        for tamper in (tamper_binary, link_binary, add_to_bin, remove_record, forge_record_line):
            tool_cache = tempfile.mkdtemp(prefix="toolcache-tamper.", dir=self.temp)
            check(self.run({}, tool_cache=tool_cache).success, "the first install")
            tamper(self.cache_folder(tool_cache))
            self.server.requests.clear()
            result = self.run({"args": "--version"}, tool_cache=tool_cache)
            check(result.success, f"{tamper.__name__}: the install again failed", result)
            check(not os.path.exists(marker), f"{tamper.__name__}: the tampered binary ran", result)
            check("::warning title=odrpack action::the odrpack in the tool cache is not reused" in result.text,
                  f"{tamper.__name__}: no warning", result)
            check(len(self.server.requests) == 2, f"{tamper.__name__}: not downloaded again", result)
            binary = result.outputs["path"]
            with open(binary, "rb") as file:
                check(not os.path.islink(binary) and hashlib.sha256(file.read()).hexdigest() == expected,
                      f"{tamper.__name__}: the binary is not the release's", result)
            check(sorted(os.listdir(os.path.join(self.cache_folder(tool_cache), "bin"))) == ["odrpack"],
                  f"{tamper.__name__}: bin/ holds more", result)
            # And the install again is reused as any other.
            self.server.requests.clear()
            result = self.run({}, tool_cache=tool_cache)
            check(result.success and self.server.requests == [] and "every file matches" in result.text,
                  f"{tamper.__name__}: the install again is not reused", result)
        # Tampered, and the release cannot be downloaded: the step fails, and nothing ran.
        tool_cache = tempfile.mkdtemp(prefix="toolcache-tamper.", dir=self.temp)
        check(self.run({}, tool_cache=tool_cache).success, "the first install")
        tamper_binary(self.cache_folder(tool_cache))
        result = self.run({"args": "--version", "download-url": self.server.url + "/nowhere"}, tool_cache=tool_cache)
        check(not result.success and result.failed_step == "install" and not os.path.exists(marker),
              "a tampered cache with no release to install again", result)
        check(not os.path.exists(os.path.join(self.cache_folder(tool_cache), "bin", "odrpack")),
              "the tampered binary is still in the tool cache", result)

    def test_control_characters_in_inputs_are_refused(self):
        # A line break printed in the log starts a workflow command (::stop-commands::, ::add-mask::, ::error::);
        # every input is checked before anything is printed, and the step says which input.
        injected = "::warning::injected"
        for name, value, step in (("download-url", self.server.url + "\n" + injected, "install"),
                                  ("download-url", self.server.url + "\r\n" + injected, "install"),
                                  ("download-url", self.server.url + "/\x1b[2K", "install"),
                                  ("download-url", "\n" + injected, "install"),
                                  ("version", self.version + "\n" + injected, "install"),
                                  ("token", "abc\r\nX-Injected: 1", "install"),
                                  ("working-directory", "sample\n" + injected, "run"),
                                  ("fail-on-error", "true\n" + injected, "run"),
                                  ("args", "plan \x1b]0;" + injected, "run")):
            tool_cache = tempfile.mkdtemp(prefix="toolcache-control.", dir=self.temp)
            self.server.requests.clear()
            result = self.run({name: value}, tool_cache=tool_cache)
            check(not result.success and result.failed_step == step, f"{name} {value!r} was accepted", result)
            check(f"::error title=odrpack action::the {name} input holds" in result.text,
                  f"{name} {value!r}: no ::error naming the input", result)
            check(not any(line.startswith(injected) for line in result.text.split("\n")),
                  f"{name} {value!r}: a workflow command was printed", result)
            check("\x1b" not in result.text, f"{name} {value!r}: an escape was printed", result)
            if step == "install":
                check(self.server.requests == [] and not os.listdir(tool_cache), f"{name}: something was fetched",
                      result)
        # Tabs and line breaks between the words of args are blanks, as before.
        result = self.run({"args": "plan\t--json\r\n", "working-directory": "sample"})
        check(result.success and result.outputs["exit-code"] == "0", "blanks in args", result)

    def test_token_only_to_the_download_host_over_https(self):
        if not self.https:
            print("     (skipped: openssl could not make a certificate)")
            return
        for url, expected_hosts in ((self.https.url, ["127.0.0.1"] * 2),
                                    (self.https.url + "/redirect", ["127.0.0.1", "localhost"] * 2)):
            tool_cache = tempfile.mkdtemp(prefix="toolcache-https.", dir=self.temp)
            self.https.requests.clear()
            result = self.run({"download-url": url}, tool_cache=tool_cache)
            check(result.success, f"an install from {url}", result)
            hosts = [host.split(":")[0] for _, host, _ in self.https.requests]
            check(sorted(hosts) == sorted(expected_hosts), f"hosts {hosts}", result)
            for _, host, authorization in self.https.requests:
                wanted = f"Bearer {TOKEN}" if host.startswith("127.0.0.1") else None
                check(authorization == wanted, f"Authorization {authorization!r} sent to {host}", result)


def check(condition, message, result=None):
    if not condition:
        raise AssertionError(message + ("\n" + result.text if result is not None else ""))


def main():
    dist = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ODRPACK_DIST_DIR", os.path.join(ROOT, "dist"))
    suite = Suite(dist)
    print(f"test-action: action.yml with {suite.archive} from {dist}, runner {suite.runner_os} {suite.runner_arch}")
    try:
        for name in [name for name in Suite.__dict__ if name.startswith("test_")]:
            suite.case(name[5:].replace("_", " "), getattr(suite, name))
    finally:
        suite.close()
    print(f"test-action: {suite.passed} passed, {suite.failed} failed")
    return 1 if suite.failed else 0


if __name__ == "__main__":
    sys.exit(main())
