#!/usr/bin/env python3
"""Writes the shell script that builds the same packs one after another with `bsdtar --format zip`,
from the file lists of `odrpack plan --json`.

Usage: reference_bsdtar.py PLAN_JSON RESOURCES_ROOT WORK_DIR   (writes WORK_DIR/reference.sh and WORK_DIR/lists/)
"""
import json
import os
import shlex
import sys

plan_path, root, work = sys.argv[1:4]
plan = json.load(open(plan_path))
lists = os.path.join(work, "lists")
os.makedirs(lists, exist_ok=True)
out = os.path.join(work, "reference")
lines = ["set -e", f"rm -rf {shlex.quote(out)}", f"mkdir -p {shlex.quote(out)}"]
for index, pack in enumerate(plan["packs"]):
    listing = os.path.join(lists, f"{index}.txt")
    with open(listing, "w") as handle:
        handle.write("".join(f["path"] + "\n" for f in pack["files"]))
    lines.append(f"bsdtar --format zip -cf {shlex.quote(os.path.join(out, str(index) + '.zip'))} -C {shlex.quote(root)} -T {shlex.quote(listing)}")
with open(os.path.join(work, "reference.sh"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
