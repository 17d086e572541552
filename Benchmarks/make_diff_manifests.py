#!/usr/bin/env python3
"""Two odrpack-manifest.json files of 1,000 packs and 200,000 files each, for timing `odrpack diff`.
The new one edits 1% of files, moves 0.5% between packs, drops 10 packs and adds 10.

Usage: make_diff_manifests.py OUTPUT_DIR   (writes OUTPUT_DIR/old.json and OUTPUT_DIR/new.json)
"""
import hashlib
import json
import os
import random
import sys

from corpus_kit import output_folder

out = output_folder(__doc__)
os.makedirs(out, exist_ok=True)
rng = random.Random(8)


def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()


def manifest(files_by_pack):
    packs, tags = [], {}
    for tag_set, files in sorted(files_by_pack.items()):
        pack_id = "com.example.big.asset-pack-" + hashlib.md5(":".join(tag_set).encode()).hexdigest()
        files = sorted(files)
        size = sum(f[1] for f in files)
        packs.append({"id": pack_id, "file": "OnDemandResources/x.assetpack", "tags": list(tag_set), "category": "on-demand",
                      "priority": None, "size": size, "archiveSize": size, "archiveSha256": digest(pack_id),
                      "contentHash": digest(repr(files)),
                      "files": [{"path": p, "size": s, "sha256": h} for p, s, h in files]})
        for tag in tag_set:
            tags.setdefault(tag, []).append(pack_id)
    packs.sort(key=lambda p: p["id"])
    sizes = {p["id"]: p["size"] for p in packs}
    limits = {"max-pack-size": 512000000, "max-tag-size": 512000000, "recommended-size": 64000000,
              "max-pack-count": 1000, "max-initial-install-size": None, "max-initial-prefetch-size": 2000000000,
              "max-total-size": 20000000000}
    total = sum(sizes.values())
    return {"schemaVersion": 1, "bundleId": "com.example.big", "profile": "default", "limits": limits,
            "initialInstallTags": [], "prefetchOrder": [], "appBundle": {"files": 0, "size": 0},
            "totals": {"packs": len(packs), "size": total, "archiveSize": total, "initialInstallSize": 0,
                       "initialPrefetchSize": 0},
            "tags": [{"name": t, "category": "on-demand", "size": sum(sizes[i] for i in ids), "packs": sorted(ids)}
                     for t, ids in sorted(tags.items())],
            "packs": packs}


old = {}
for pack in range(1000):
    tag_set = (f"t{pack}",) if pack % 5 else (f"t{pack}", f"t{pack - 1}")
    old[tag_set] = [(f"P{pack:04d}/f{i:03d}.dat", rng.randrange(1, 100000), digest(f"{pack}/{i}")) for i in range(200)]
new = {k: list(v) for k, v in old.items()}
keys = sorted(new)
for _ in range(2000):
    files = new[rng.choice(keys)]
    i = rng.randrange(len(files))
    files[i] = (files[i][0], files[i][1], digest(files[i][0] + "edited"))
for _ in range(1000):
    source, target = rng.choice(keys), rng.choice(keys)
    if source != target and new[source]:
        new[target].append(new[source].pop())
for key in keys[:10]:
    del new[key]
for extra in range(10):
    new[(f"new{extra}",)] = [(f"N{extra}/f{i}.dat", 10, digest(f"n{extra}{i}")) for i in range(200)]
for name, data in [("old.json", old), ("new.json", new)]:
    with open(os.path.join(out, name), "w") as handle:
        json.dump(manifest(data), handle, indent=1)
