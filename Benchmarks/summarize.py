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
diff, report = median("diff-200k"), median("report-200k")
store, tar = median("build-store"), median("tar-store")
verify = median("verify")
archive, reference_archive = number("archive-bytes"), number("reference-bytes")
media_full, media_reference = median("media-build-full"), median("media-reference-bsdtar")
media_edit, media_verify = median("media-build-edit-one"), median("media-verify")
media_after_writes = median("media-build-after-writes")
media_archive, media_reference_archive = number("media-archive-bytes"), number("media-reference-bytes")
memory_kb = number("peak-memory-kb")
results = {
    "machine": {"cores": os.cpu_count(), "system": platform.platform()},
    "corpus": {"bytes": number("corpus-bytes"), "files": number("corpus-files")},
    "mediaCorpus": {"bytes": number("media-bytes"), "files": number("media-files")},
    "seconds": {"buildFull": full, "referenceBsdtar": reference, "buildNoop": noop, "buildEditOne": edit, "verify": verify,
                "validateCorpus": validate_corpus, "validate200k": validate_tree, "diff200k": diff, "report200k": report,
                "buildStore": store, "tarStore": tar, "mediaBuildFull": media_full, "mediaReferenceBsdtar": media_reference,
                "mediaBuildEditOne": media_edit, "mediaVerify": media_verify,
                "mediaBuildAfterOthersWrites": media_after_writes},
    "ratios": {"speedupOverReference": reference / full, "mediaSpeedupOverReference": media_reference / media_full,
               "storeOverTar": store / tar, "archiveBytesOverReference": archive / reference_archive,
               "mediaArchiveBytesOverReference": media_archive / media_reference_archive,
               "noopOverFull": noop / full, "editOneOverFull": edit / full, "mediaEditOneOverFull": media_edit / media_full,
               "verifyOverFull": verify / full, "mediaVerifyOverFull": media_verify / media_full,
               "afterOthersWritesOverAfterSync": media_after_writes / media_full},
    "archiveBytes": {"odrpack": archive, "reference": reference_archive, "mediaOdrpack": media_archive, "mediaReference": media_reference_archive},
    "editOneWrotePacks": number("edit-written"),
    "peakMemoryMB": memory_kb / 1024,
    "targets": {"mediaSpeedup>=10": media_reference / media_full >= 10,
                "archive<=1.02": max(archive / reference_archive, media_archive / media_reference_archive) <= 1.02,
                "mediaEditOne<=6%": media_edit / media_full <= 0.06, "verify<=25%": max(verify / full, media_verify / media_full) <= 0.25,
                "report200k<=1.5s": report <= 1.5, "noop<=3%": noop / full <= 0.03, "validate200k<=1s": validate_tree <= 1,
                "diff200k<=1s": diff <= 1, "memory<=150MB": memory_kb / 1024 <= 150,
                "afterOthersWrites<=1.2x": media_after_writes / media_full <= 1.2},
}
json.dump(results, open(os.path.join(bench, "results.json"), "w"), indent=2)
rows = [
    ("text-heavy corpus", f"{results['corpus']['files']} files", f"{results['corpus']['bytes'] / 1e9:.2f} GB"),
    ("  odrpack build (full, --jobs default)", f"{full:.2f} s", ""),
    ("  bsdtar --format zip, pack after pack", f"{reference:.2f} s", f"odrpack {reference / full:.1f}x faster"),
    ("  odrpack build --compression store", f"{store:.2f} s", f"{store / tar:.2f}x the time of one tar stream"),
    ("  tar cf of the packed files", f"{tar:.2f} s", "one stream, no hashing"),
    ("  archive bytes odrpack / bsdtar", f"{archive / 1e6:.1f} / {reference_archive / 1e6:.1f} MB", f"{archive / reference_archive:.4f}x (target <= 1.02x)"),
    ("  odrpack build, nothing changed", f"{noop * 1000:.0f} ms", f"{noop / full * 100:.1f}% of full (target <= 3%)"),
    ("  odrpack build, one file edited", f"{edit * 1000:.0f} ms", f"{edit / full * 100:.1f}% of full, {number('edit-written')} pack written"),
    ("  odrpack verify", f"{verify * 1000:.0f} ms", f"{verify / full * 100:.1f}% of full (target <= 25%)"),
    ("media-heavy corpus", f"{results['mediaCorpus']['files']} files", f"{results['mediaCorpus']['bytes'] / 1e9:.2f} GB"),
    ("  odrpack build (full)", f"{media_full:.2f} s", ""),
    ("  bsdtar --format zip, pack after pack", f"{media_reference:.2f} s", f"odrpack {media_reference / media_full:.1f}x faster (target >= 10x)"),
    ("  archive bytes odrpack / bsdtar", f"{media_archive / 1e6:.1f} / {media_reference_archive / 1e6:.1f} MB",
     f"{media_archive / media_reference_archive:.4f}x (target <= 1.02x)"),
    ("  odrpack build after 1 GB of others' unflushed writes", f"{media_after_writes:.2f} s",
     f"{media_after_writes / media_full:.2f}x the build after a sync (target <= 1.2x)"),
    ("  odrpack build, one file edited (30 MB pack)", f"{media_edit * 1000:.0f} ms", f"{media_edit / media_full * 100:.1f}% of full (target <= 6%)"),
    ("  odrpack verify", f"{media_verify * 1000:.0f} ms", f"{media_verify / media_full * 100:.1f}% of full (target <= 25%)"),
    ("odrpack validate, text corpus", f"{validate_corpus * 1000:.0f} ms", ""),
    ("odrpack validate, 200,000 files", f"{validate_tree:.2f} s", "target <= 1 s"),
    ("odrpack report, 200,000 files", f"{report:.2f} s", "target <= 1.5 s"),
    ("odrpack diff, 2 x 200,000 files", f"{diff:.2f} s", "target <= 1 s"),
    ("peak memory, full build", f"{memory_kb / 1024:.0f} MB", "target <= 150 MB"),
]
width = max(len(r[0]) for r in rows)
print(f"\nodrpack benchmark, {os.cpu_count()} cores (medians)")
for name, value, note in rows:
    print(f"  {name:<{width}}  {value:>16}  {note}")
failed = [k for k, ok in results["targets"].items() if not ok]
print("targets missed: " + ", ".join(failed) if failed else "all targets met")
print(f"results: {os.path.join(bench, 'results.json')}")
