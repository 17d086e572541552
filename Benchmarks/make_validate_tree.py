#!/usr/bin/env python3
"""A large tree for timing `odrpack validate`: FILES files in 2,000 folders, 500 tag entries, sparse sizes.

Usage: make_validate_tree.py OUTPUT_DIR [FILES]   (deterministic: the same arguments give the same tree)
"""
import os
import random
import sys

from corpus_kit import output_folder

out = output_folder(__doc__)
files = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
folders = 2_000
rng = random.Random(20261121)
root = os.path.join(out, "Resources")
per_folder = files // folders
exts = [".png", ".json", ".caf", ".plist", ".txt"]
for f in range(folders):
    world, level = divmod(f, 100)
    folder = os.path.join(root, f"World{world:02d}", f"Level{level:03d}")
    os.makedirs(folder, exist_ok=True)
    for i in range(per_folder):
        path = os.path.join(folder, f"asset{i:03d}{exts[i % len(exts)]}")
        with open(path, "wb") as handle:
            handle.truncate(rng.randint(0, 4096))
entries = []
# 20 world entries tag every file, 430 level entries and 50 globs add tags: 500 entries.
for world in range(20):
    entries.append(f"  - path: World{world:02d}\n    tags: [world{world}]\n")
for e in range(430):
    world, level = divmod(e * 4, 100)
    tags = [f"w{world}l{level}"] + ([f"extra{e % 7}"] if e % 3 == 0 else [])
    entries.append(f"  - path: World{world:02d}/Level{level:03d}\n    tags: [{', '.join(tags)}]\n")
for g in range(50):
    world = g % 20
    entries.append(f"  - glob: \"World{world:02d}/**/*{exts[g % len(exts)]}\"\n    tags: [media{g}]\n")
with open(os.path.join(out, "odrpack.yml"), "w") as handle:
    handle.write("version: 1\nbundle-id: com.example.large\nresources-root: Resources\nresources:\n")
    handle.writelines(entries)
    handle.write("initial-install: [w0l0]\nprefetch-order: [w0l4, w0l8]\n")
