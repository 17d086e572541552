#!/usr/bin/env python3
"""Reads hyperfine's JSON exports and the measured sizes, prints the table and writes results.json."""
import json
import os
import platform
import sys

bench = sys.argv[1]


def median(name):
    data = json.load(open(os.path.join(bench, name + ".json")))
    return data["results"][0]["median"]


def number(name):
    return int(open(os.path.join(bench, name)).read().strip())


full, reference = median("build-full"), median("reference-bsdtar")
noop, edit = median("build-noop"), median("build-edit-one")
validate_corpus, validate_tree = median("validate-corpus"), median("validate-200k")
diff = median("diff-200k")
store, tar = median("build-store"), median("tar-store")
archive, reference_archive = number("archive-bytes"), number("reference-bytes")
memory_kb = number("peak-memory-kb")
results = {
    "machine": {"cores": os.cpu_count(), "system": platform.platform()},
    "corpus": {"bytes": number("corpus-bytes"), "files": number("corpus-files")},
    "seconds": {"buildFull": full, "referenceBsdtar": reference, "buildNoop": noop, "buildEditOne": edit,
                "validateCorpus": validate_corpus, "validate200k": validate_tree, "diff200k": diff,
                "buildStore": store, "tarStore": tar},
    "ratios": {"speedupOverReference": reference / full, "storeOverTar": store / tar, "archiveBytesOverReference": archive / reference_archive,
               "noopOverFull": noop / full, "editOneOverFull": edit / full},
    "archiveBytes": {"odrpack": archive, "reference": reference_archive},
    "editOneWrotePacks": number("edit-written"),
    "peakMemoryMB": memory_kb / 1024,
    "targets": {"speedup>=7": reference / full >= 7, "archive<=1.02": archive / reference_archive <= 1.02,
                "noop<3%": noop / full < 0.03, "editOne<10%": edit / full < 0.10, "validate200k<3s": validate_tree < 3,
                "memory<150MB": memory_kb / 1024 < 150, "diff200k<1s": diff < 1},
}
json.dump(results, open(os.path.join(bench, "results.json"), "w"), indent=2)
rows = [
    ("odrpack build (full, --jobs default)", f"{full:.2f} s", ""),
    ("bsdtar --format zip, pack after pack", f"{reference:.2f} s", f"odrpack {reference / full:.1f}x faster (target 7x)"),
    ("odrpack build --compression store", f"{store:.2f} s", f"{store / tar:.2f}x the time of one tar stream"),
    ("tar cf of the packed files", f"{tar:.2f} s", "one stream, no hashing"),
    ("archive bytes odrpack / bsdtar", f"{archive / 1e6:.1f} / {reference_archive / 1e6:.1f} MB", f"{archive / reference_archive:.4f}x (target <= 1.02x)"),
    ("odrpack build, nothing changed", f"{noop * 1000:.0f} ms", f"{noop / full * 100:.1f}% of full (target < 3%)"),
    ("odrpack build, one file edited", f"{edit * 1000:.0f} ms", f"{edit / full * 100:.1f}% of full, {number('edit-written')} pack written (target < 10%)"),
    ("odrpack validate, corpus", f"{validate_corpus * 1000:.0f} ms", ""),
    ("odrpack validate, 200,000 files", f"{validate_tree:.2f} s", "target < 3 s"),
    ("odrpack diff, 2 x 200,000 files", f"{diff:.2f} s", "target < 1 s"),
    ("peak memory, full build", f"{memory_kb / 1024:.0f} MB", "target < 150 MB"),
]
width = max(len(r[0]) for r in rows)
print(f"\nodrpack benchmark: {results['corpus']['files']} files, {results['corpus']['bytes'] / 1e9:.2f} GB, {os.cpu_count()} cores (medians)")
for name, value, note in rows:
    print(f"  {name:<{width}}  {value:>16}  {note}")
failed = [k for k, ok in results["targets"].items() if not ok]
print("targets missed: " + ", ".join(failed) if failed else "all targets met")
print(f"results: {os.path.join(bench, 'results.json')}")
