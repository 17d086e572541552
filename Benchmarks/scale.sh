#!/usr/bin/env bash
# `make bench-scale` (issue 38; not part of `make test`): odrpack at the store's file count. For each size in
# SCALE_SIZES (files; default 100000 300000 1000000) it generates the tree of Benchmarks/make_scale_tree.py once
# (cached under .build/bench-scale), then prints the time and peak memory (/usr/bin/time) of a clean build, a build
# where nothing changed, validate (warm cache), verify, a build after one file was edited, and diff of the builds
# before and after that edit, with the sizes of the documents and the state; writes .build/bench-scale/results.json.
#   SCALE_SIZES="100000 300000"   the sizes to run          SCALE_MEDIA_MB=4   MB of random media per pack
#   SCALE_PACKS=20                packs (one media file each) SCALE_RUNS=3     runs of the quick commands (median time)
# Disk: about 4.5 KB per file for the tree (a block and an inode per small file) plus 20 x SCALE_MEDIA_MB, and the
# output; the 1M tree takes about 5 GB with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=$PWD/.build/bench-scale
ODRPACK=$PWD/.build/release/odrpack
SIZES=${SCALE_SIZES:-100000 300000 1000000}
MEDIA_MB=${SCALE_MEDIA_MB:-4}
PACKS=${SCALE_PACKS:-20}
RUNS=${SCALE_RUNS:-3}
need=()
[ -x /usr/bin/time ] || need+=(time)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
make --no-print-directory release >/dev/null
mkdir -p "$BENCH"
generator=$(sha256sum Benchmarks/make_scale_tree.py | cut -c1-16)

# measure NAME RUNS COMMAND...: runs COMMAND RUNS times under /usr/bin/time; one "SECONDS s KB KB" line a run.
measure() {
    local name=$1 runs=$2 i
    shift 2
    : > "$RESULT/$name.txt"
    for ((i = 0; i < runs; i++)); do
        if ! /usr/bin/time -f '%e s %M KB' -o "$RESULT/time.tmp" "$@" > /dev/null 2> "$RESULT/$name.err"; then
            echo "bench-scale: $name failed at $files files:" >&2
            cat "$RESULT/$name.err" "$RESULT/time.tmp" >&2
            exit 2
        fi
        tail -1 "$RESULT/time.tmp" >> "$RESULT/$name.txt"
    done
    rm -f "$RESULT/time.tmp"
    printf '  %-26s %s\n' "$name" "$(tr '\n' ' ' < "$RESULT/$name.txt")"
}

ran=()
for files in $SIZES; do
    TREE=$BENCH/tree-$files
    OUT=$BENCH/out-$files
    RESULT=$BENCH/$files
    export ODRPACK_CACHE_DIR=$BENCH/cache-$files
    stamp="$generator $files $MEDIA_MB $PACKS"
    if [ "$(cat "$TREE.stamp" 2>/dev/null)" != "$stamp" ]; then
        echo "generating $files files in $PACKS packs, $MEDIA_MB MB of media each (once)..."
        rm -rf "$TREE" "$TREE.stamp"
        python3 Benchmarks/make_scale_tree.py "$TREE" "$files" "$MEDIA_MB" "$PACKS"
        echo "$stamp" > "$TREE.stamp"
    fi
    mkdir -p "$RESULT"
    echo "$files files:"
    MANIFEST=$TREE/odrpack.yml
    rm -rf "$OUT" "$ODRPACK_CACHE_DIR"
    sync
    measure build-clean 1 "$ODRPACK" build "$MANIFEST" -o "$OUT" --progress never
    measure build-noop "$RUNS" "$ODRPACK" build "$MANIFEST" -o "$OUT" --progress never
    "$ODRPACK" validate "$MANIFEST" > /dev/null
    measure validate "$RUNS" "$ODRPACK" validate "$MANIFEST"
    measure verify 1 "$ODRPACK" verify "$OUT"
    # One level file edited: the next build rewrites one pack; diff compares the manifests before and after.
    cp "$OUT/odrpack-manifest.json" "$RESULT/before.json"
    python3 Benchmarks/edit_one_file.py "$TREE/Resources/World05/Levels/Chunk0000/level000001.json"
    measure build-edit-one 1 "$ODRPACK" build "$MANIFEST" -o "$OUT" --progress never
    measure diff "$RUNS" "$ODRPACK" diff "$RESULT/before.json" "$OUT"
    {
        echo "files $files"
        echo "media_mb $MEDIA_MB"
        echo "packs $PACKS"
        echo "manifest_bytes $(stat -c %s "$OUT/odrpack-manifest.json")"
        echo "plist_bytes $(stat -c %s "$OUT/OnDemandResources.plist")"
        echo "state_bytes $(find "$ODRPACK_CACHE_DIR" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')"
        echo "archive_bytes $(du -sb "$OUT/OnDemandResources" | cut -f1)"
    } > "$RESULT/sizes.txt"
    rm -f "$RESULT/before.json"
    ran+=("$files")
done
python3 Benchmarks/scale_summary.py "$BENCH" "${ran[@]}"
