#!/usr/bin/env python3
"""Reads what Benchmarks/scale.sh measured, prints the table and the extrapolation to 1,000,000 files against
issue 38's goals, and writes BENCH/results-<files>.json per size and BENCH/results.json for the sizes of this run.

Usage: scale_summary.py BENCH FILES...
"""
import json
import os
import platform
import statistics
import subprocess
import sys

bench, sizes = sys.argv[1], [int(n) for n in sys.argv[2:]]
COMMANDS = [("build-clean", "build, clean"), ("copy", "cp -r + sync of the tree"),
            ("reference-build-clean", "reference: build, clean"), ("build-noop", "build, nothing changed"),
            ("validate", "validate, warm cache"), ("verify", "verify"),
            ("reference-verify", "reference: verify"), ("build-edit-one", "build, one file edited"),
            ("diff", "diff, before/after the edit")]
TARGET_FILES = 1_000_000
MEMORY_GOAL = 300e6  # bytes; issue 38: at most 300 MB peak at 1M files, every command
TIME_GOALS = {"build-noop": 2.0, "validate": 3.0}  # seconds at 1M files


def runs(folder, name):
    """Each run's (wall seconds, user seconds, system seconds, peak KB), from scale.sh's
    "SECONDS s KB KB USER u SYSTEM s" lines; None when the command was not run (no reference)."""
    path = os.path.join(folder, name + ".txt")
    if not os.path.exists(path):
        return None
    rows = [line.split() for line in open(path) if line.strip()]
    return [(float(row[0]), float(row[4]), float(row[6]), int(row[2])) for row in rows]


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


results = []
for files in sizes:
    folder = os.path.join(bench, str(files))
    sizes_txt = dict(line.split() for line in open(os.path.join(folder, "sizes.txt")))
    entry = {"files": files, "mediaMB": float(sizes_txt["media_mb"]), "packs": int(sizes_txt["packs"]),
             "manifestBytes": int(sizes_txt["manifest_bytes"]), "plistBytes": int(sizes_txt["plist_bytes"]),
             "stateBytes": int(sizes_txt["state_bytes"]), "archiveBytes": int(sizes_txt["archive_bytes"]),
             "commands": {}}
    entry["reference"] = sizes_txt.get("reference", "none")
    for name, _ in COMMANDS:
        measured = runs(folder, name)
        if measured is None:
            continue
        seconds = [run[0] for run in measured]
        middle = sorted(measured)[len(measured) // 2]
        entry["commands"][name] = {"seconds": statistics.median(seconds), "runs": seconds, "userSeconds": middle[1],
                                   "systemSeconds": middle[2], "peakKB": max(run[3] for run in measured),
                                   "peakBytesPerFile": round(max(run[3] for run in measured) * 1024 / files)}
    commands = entry["commands"]
    # Issue 46: the clean build at the disk's speed, as a ratio to `cp -r` + `sync` of the same tree (at most 1), and
    # to the reference release's clean build; verify at most half a clean build.
    if "copy" in commands:
        entry["cleanBuildToCopy"] = round(commands["build-clean"]["seconds"] / commands["copy"]["seconds"], 2)
    if "reference-build-clean" in commands:
        entry["cleanBuildToReference"] = round(
            commands["build-clean"]["seconds"] / commands["reference-build-clean"]["seconds"], 2)
    entry["verifyToCleanBuild"] = round(commands["verify"]["seconds"] / commands["build-clean"]["seconds"], 2)
    results.append(entry)
    json.dump(entry, open(os.path.join(bench, f"results-{files}.json"), "w"), indent=2)

print()
print("| files | command | time (median) | user | system | peak memory | peak / files |")
print("|---|---|---|---|---|---|---|")
for entry in results:
    for name, label in COMMANDS:
        c = entry["commands"].get(name)
        if c is None:
            continue
        if name.startswith("reference"):
            label = label.replace("reference", entry["reference"])
        print(f"| {entry['files']:,} | `{label}` | {c['seconds']:.2f} s | {c['userSeconds']:.1f} s "
              f"| {c['systemSeconds']:.1f} s | {c['peakKB'] * 1024 / 1e6:.0f} MB | {c['peakBytesPerFile']:,} B |")
print()
print("| files | clean build / (cp -r + sync), at most 1 | clean build / reference's | verify / clean build, at most 0.5 |")
print("|---|---|---|---|")
for entry in results:
    print(f"| {entry['files']:,} | {entry.get('cleanBuildToCopy', '-')} | {entry.get('cleanBuildToReference', '-')} "
          f"| {entry['verifyToCleanBuild']} |")
print()
print("| files | odrpack-manifest.json | OnDemandResources.plist | state | archives |")
print("|---|---|---|---|---|")
for entry in results:
    print(f"| {entry['files']:,} | {entry['manifestBytes'] / 1e6:.1f} MB | {entry['plistBytes'] / 1e6:.1f} MB "
          f"| {entry['stateBytes'] / 1e6:.1f} MB | {entry['archiveBytes'] / 1e6:.0f} MB |")

# The extrapolation to 1M files: memory by the bytes each further file costs (the slope between the smallest and the
# largest size run), or, with one size, by peak / files (an upper bound: it counts the fixed part too); time in
# proportion to the file count from the largest size (the commands are near-linear in it).
extrapolated = {}
if results and results[-1]["files"] < TARGET_FILES:
    first, last = results[0], results[-1]
    print()
    basis = (f"slope between {first['files']:,} and {last['files']:,} files" if len(results) > 1
             else f"peak / files at {last['files']:,} files")
    print(f"At {TARGET_FILES:,} files (memory from the {basis}; time in proportion to the files):")
    print()
    print("| command | bytes per further file | memory at 1M | goal | time at 1M | goal |")
    print("|---|---|---|---|---|---|")
    for name, label in COMMANDS:
        if name not in last["commands"] or name not in first["commands"] or name in ("copy",) \
                or name.startswith("reference"):
            continue
        lc = last["commands"][name]
        if len(results) > 1:
            fc = first["commands"][name]
            slope = (lc["peakKB"] - fc["peakKB"]) * 1024 / (last["files"] - first["files"])
        else:
            slope = lc["peakKB"] * 1024 / last["files"]
        memory = lc["peakKB"] * 1024 + slope * (TARGET_FILES - last["files"])
        seconds = lc["seconds"] * TARGET_FILES / last["files"]
        extrapolated[name] = {"bytesPerFurtherFile": round(slope), "peakBytes": round(memory),
                              "memoryOfGoal": round(memory / MEMORY_GOAL, 2), "seconds": round(seconds, 2)}
        time_goal = TIME_GOALS.get(name)
        if time_goal:
            extrapolated[name]["timeOfGoal"] = round(seconds / time_goal, 2)
        print(f"| `{label}` | {slope:,.0f} B | {memory / 1e6:.0f} MB | 300 MB | {seconds:.1f} s "
              f"| {f'{time_goal:g} s' if time_goal else ''} |")
    candidates = [(n, "memory", e["memoryOfGoal"]) for n, e in extrapolated.items()]
    candidates += [(n, "time", e["timeOfGoal"]) for n, e in extrapolated.items() if "timeOfGoal" in e]
    worst = max(candidates, key=lambda item: item[2])
    print()
    print(f"Furthest from the goals: {worst[0]}'s {worst[1]}, {worst[2]:.1f}x its goal at 1M files.")

json.dump({"machine": {"cores": os.cpu_count(), "system": platform.platform()}, "commit": git_commit(),
           "goals": {"peakBytesAt1M": MEMORY_GOAL, "secondsAt1M": TIME_GOALS},
           "sizes": results, "extrapolatedTo1M": extrapolated},
          open(os.path.join(bench, "results.json"), "w"), indent=2)
print(f"\nwrote {os.path.join(bench, 'results.json')}")
