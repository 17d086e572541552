#!/usr/bin/env python3
"""Edits one file of the benchmark corpus (toggles its last byte), so the next build rewrites exactly one pack."""
import sys

path = sys.argv[1]
with open(path, "r+b") as handle:
    handle.seek(-1, 2)
    last = handle.read(1)
    handle.seek(-1, 2)
    handle.write(b" " if last != b" " else b"\n")
