"""Runs a composite action's `run` steps as the GitHub Actions runner does, for `make test-action`.

Each step's `run` text is written to a file and run with `bash --noprofile --norc -eo pipefail FILE` (the runner's
`shell: bash`), in the workspace, with RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, RUNNER_TOOL_CACHE, GITHUB_PATH,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ACTION_PATH set; GITHUB_OUTPUT and GITHUB_PATH are new files for every
step, read back after it as the runner reads them (`name=value` and `name<<DELIMITER` lines; folders put before PATH
for the later steps). `${{ }}` in `env:`, input defaults and output values is evaluated by a small evaluator that knows
the forms the action uses: context paths into `inputs`, `github`, `runner` and `steps.<id>.outputs`; anything else is
an error, so the action cannot start using a form this harness would get wrong. A failed step ends the action (the
later steps are skipped, as `if: success()` does), and its outputs still count, as on the runner.
"""
import os
import re
import subprocess
import uuid

import yaml

EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
CONTEXT_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)+$")


class ExpressionError(Exception):
    pass


def evaluate(text, contexts, declared_inputs):
    """`text` with each `${{ context.path }}` replaced by its value ('' for null), as the runner writes strings."""
    if not isinstance(text, str):
        return "" if text is None else str(text)

    def one(match):
        expression = match.group(1).strip()
        if not CONTEXT_PATH.match(expression):
            raise ExpressionError(f"the harness evaluates context paths only, not `{expression}`")
        parts = expression.split(".")
        if parts[0] not in ("inputs", "github", "runner", "steps"):
            raise ExpressionError(f"unknown context in `{expression}`")
        if parts[0] == "inputs" and parts[1] not in declared_inputs:
            raise ExpressionError(f"`{expression}`: the action declares no input {parts[1]}")
        if parts[0] == "steps" and (len(parts) != 4 or parts[2] != "outputs"):
            raise ExpressionError(f"`{expression}`: only steps.<id>.outputs.<name> is known")
        value = contexts
        for part in parts:
            value = value.get(part) if isinstance(value, dict) else None
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    return EXPRESSION.sub(one, text)


def parse_file_command(text, name):
    """GITHUB_OUTPUT's lines: `key=value`, or `key<<DELIMITER`, the value's lines, `DELIMITER`."""
    values = {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line == "":
            continue
        heredoc = line.find("<<")
        equals = line.find("=")
        if heredoc > 0 and (equals < 0 or heredoc < equals):
            key, delimiter = line[:heredoc], line[heredoc + 2:]
            if not delimiter:
                raise ValueError(f"{name}: `{line}` has an empty delimiter")
            body = []
            while True:
                if index >= len(lines):
                    raise ValueError(f"{name}: the value of {key} has no closing {delimiter}")
                if lines[index] == delimiter:
                    index += 1
                    break
                body.append(lines[index])
                index += 1
            values[key] = "\n".join(body)
        elif equals > 0:
            values[line[:equals]] = line[equals + 1:]
        else:
            raise ValueError(f"{name}: `{line}` is neither key=value nor key<<DELIMITER")
    return values


class Result:
    def __init__(self):
        self.success = True
        self.failed_step = None
        self.outputs = {}
        self.step_outputs = {}
        self.path_additions = []
        self.logs = []  # (step id, exit status, stdout, stderr)
        self.summary = ""  # what the steps appended to GITHUB_STEP_SUMMARY

    @property
    def text(self):
        return "\n".join(f"--- step {step} (exit {status})\n{out}{err}" for step, status, out, err in self.logs)


def run_action(action_file, inputs, github, runner, workspace, base_env, action_path=None, timeout=300):
    """Runs the composite action in `action_file` and returns a Result.

    `runner` holds os, arch, temp, tool_cache (RUNNER_*); the GITHUB_* files are made in runner['temp']."""
    with open(action_file) as file:
        action = yaml.safe_load(file)
    assert action["runs"]["using"] == "composite", "a composite action"
    declared = action.get("inputs") or {}
    unknown = set(inputs) - set(declared)
    if unknown:
        raise ExpressionError(f"the action has no input {sorted(unknown)}")
    contexts = {"github": dict(github), "runner": dict(runner), "steps": {}, "inputs": {}}
    for name, spec in declared.items():
        if name in inputs:
            contexts["inputs"][name] = inputs[name]
        else:
            contexts["inputs"][name] = evaluate((spec or {}).get("default", ""), contexts, declared)

    result = Result()
    temp = runner["temp"]
    summary = os.path.join(temp, "step-summary.md")
    open(summary, "a").close()
    for position, step in enumerate(action["runs"]["steps"]):
        step_id = step.get("id", f"__{position}")
        if "uses" in step or "run" not in step:
            raise ExpressionError(f"step {step_id}: the action is `run` steps only")
        if step.get("shell") != "bash":
            raise ExpressionError(f"step {step_id}: shell is {step.get('shell')!r}, not bash")
        if "if" in step:
            raise ExpressionError(f"step {step_id}: the harness does not evaluate `if:`")
        if EXPRESSION.search(step["run"]):
            raise ExpressionError(f"step {step_id}: its run text holds an expression (script injection)")
        script = os.path.join(temp, f"{uuid.uuid4()}.sh")
        with open(script, "w") as file:
            file.write(step["run"])
        output_file = os.path.join(temp, f"output-{uuid.uuid4()}")
        path_file = os.path.join(temp, f"path-{uuid.uuid4()}")
        open(output_file, "w").close()
        open(path_file, "w").close()
        env = dict(base_env)
        env["PATH"] = os.pathsep.join(list(reversed(result.path_additions)) + [base_env["PATH"]])
        env.update({
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "RUNNER_OS": runner["os"],
            "RUNNER_ARCH": runner["arch"],
            "RUNNER_TEMP": runner["temp"],
            "RUNNER_TOOL_CACHE": runner["tool_cache"],
            "GITHUB_WORKSPACE": workspace,
            "GITHUB_OUTPUT": output_file,
            "GITHUB_PATH": path_file,
            "GITHUB_STEP_SUMMARY": summary,
            "GITHUB_ACTION_PATH": action_path or os.path.dirname(os.path.abspath(action_file)),
            "GITHUB_SERVER_URL": github.get("server_url", ""),
        })
        for key, value in (step.get("env") or {}).items():
            env[key] = evaluate(value, contexts, declared)
        process = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=workspace, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        os.unlink(script)
        stdout = process.stdout.decode("utf-8", "replace")
        stderr = process.stderr.decode("utf-8", "replace")
        result.logs.append((step_id, process.returncode, stdout, stderr))
        with open(output_file) as file:
            outputs = parse_file_command(file.read(), "GITHUB_OUTPUT")
        with open(path_file) as file:
            result.path_additions += [line for line in file.read().split("\n") if line]
        result.step_outputs[step_id] = outputs
        contexts["steps"][step_id] = {"outputs": outputs}
        if process.returncode != 0:
            result.success = False
            result.failed_step = step_id
            break
    with open(summary) as file:
        result.summary = file.read()
    for name, spec in (action.get("outputs") or {}).items():
        result.outputs[name] = evaluate(spec.get("value", ""), contexts, declared)
    return result
