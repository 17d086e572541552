#!/usr/bin/env python3
"""`make lint`'s check of action.yml and .github/workflows/*.yml (SPEC section 14).

    python3 Tests/Action/lint_actions.py

1. Each file against the published schema, with check-jsonschema's built-in (vendored, no download)
   `vendor.github-actions` (action.yml) and `vendor.github-workflows` (the workflows).
2. Each `run:` script of a bash or sh step (`shell:`, else the job's or workflow's `defaults.run.shell`, else bash, as
   on Linux and macOS runners) with `shellcheck -s bash` (-s sh for `shell: sh`). A `${{ expression }}` in a script
   becomes a placeholder variable, `$GITHUB_EXPRESSION`, so that shellcheck can parse it; problems are reported at
   the YAML file's line and column. In action.yml a script holds no expression at all: every one goes through `env:`
   (script injection), and this says so when one does not.
Exit status 1 when anything is found.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.S)
PLACEHOLDER = "$GITHUB_EXPRESSION"


def mapping_get(node, key):
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return value_node
    return None


def scalar(node):
    return node.value if isinstance(node, yaml.ScalarNode) else None


def default_shell(node):
    return scalar(mapping_get(mapping_get(mapping_get(node, "defaults"), "run"), "shell"))


def run_scripts(path, document, is_action):
    """(where, shell, script, YAML line of the script's first line, column) for every run step."""
    if is_action:
        steps = mapping_get(mapping_get(document, "runs"), "steps")
        groups = [("", steps, None)]
    else:
        groups = []
        jobs = mapping_get(document, "jobs")
        workflow_shell = default_shell(document)
        for job_key, job in (jobs.value if isinstance(jobs, yaml.MappingNode) else []):
            groups.append((f"job {job_key.value}, ", mapping_get(job, "steps"), default_shell(job) or workflow_shell))
    for prefix, steps, group_shell in groups:
        if not isinstance(steps, yaml.SequenceNode):
            continue
        for index, step in enumerate(steps.value):
            run = mapping_get(step, "run")
            if run is None:
                continue
            name = scalar(mapping_get(step, "id")) or scalar(mapping_get(step, "name")) or f"#{index + 1}"
            shell = scalar(mapping_get(step, "shell")) or group_shell or "bash"
            if run.style in ("|", ">"):
                first_line, column = run.start_mark.line + 2, None  # the block's lines, from the next line
            else:
                first_line, column = run.start_mark.line + 1, run.start_mark.column + 1
            yield f"{prefix}step {name}", shell, run.value, first_line, column


def check_schemas(files, schema):
    if not files:
        return True
    command = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema] + files
    done = subprocess.run(command, capture_output=True, text=True)
    shown = [os.path.relpath(file, ROOT) for file in files]
    if done.returncode != 0:
        print(f"lint: not valid against the {schema} schema:\n{done.stdout}{done.stderr}", end="")
        return False
    print(f"lint: {', '.join(shown)}: valid against the {schema} schema")
    return True


def check_scripts(path, is_action):
    with open(path) as file:
        document = yaml.compose(file)
    relative = os.path.relpath(path, ROOT)
    clean, count = True, 0
    for where, shell, script, first_line, column in run_scripts(path, document, is_action):
        shell_name = shell.split()[0] if shell else "bash"
        if shell_name not in ("bash", "sh"):
            continue
        count += 1
        if is_action and EXPRESSION.search(script):
            print(f"{relative}:{first_line}: {where}: an expression in a run script: pass it through env: instead")
            clean = False
        text = EXPRESSION.sub(lambda match: PLACEHOLDER, script)
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as file:
            file.write(text)
        try:
            done = subprocess.run(["shellcheck", "-s", shell_name, "-f", "gcc", file.name], capture_output=True,
                                  text=True)
        finally:
            os.unlink(file.name)
        for line in done.stdout.splitlines():
            match = re.match(r"^.*?:(\d+):(\d+): (.*)$", line)
            if not match:
                print(line)
                continue
            script_line, script_column, message = int(match.group(1)), int(match.group(2)), match.group(3)
            yaml_line = first_line + script_line - 1
            if column is not None and script_line == 1:
                script_column += column - 1
            print(f"{relative}:{yaml_line}:{script_column}: {where}: {message}")
        if done.returncode != 0:
            clean = False
            if not done.stdout:
                print(f"{relative}: {where}: shellcheck failed: {done.stderr}")
    return clean, count


def main():
    action = os.path.join(ROOT, "action.yml")
    workflows = sorted(glob.glob(os.path.join(ROOT, ".github", "workflows", "*.yml"))
                       + glob.glob(os.path.join(ROOT, ".github", "workflows", "*.yaml")))
    clean = check_schemas([action] if os.path.exists(action) else [], "vendor.github-actions")
    clean = check_schemas(workflows, "vendor.github-workflows") and clean
    scripts = 0
    for path, is_action in ([(action, True)] if os.path.exists(action) else []) + [(w, False) for w in workflows]:
        file_clean, count = check_scripts(path, is_action)
        clean = clean and file_clean
        scripts += count
    if not clean:
        print("lint: action.yml or a workflow has problems (above)")
        return 1
    print(f"lint: shellcheck finds nothing in the {scripts} run scripts of action.yml and .github/workflows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
