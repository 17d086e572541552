#!/usr/bin/env bash
# `make bench-scale` (issues 38 and 46; not part of `make test`): odrpack at the store's file count. For each size in
# SCALE_SIZES (files; default 100000 300000 1000000) it generates the tree of Benchmarks/make_scale_tree.py once
# (cached under .build/bench-scale), then prints the time (wall, user, system) and peak memory (/usr/bin/time) of a
# clean build, `cp -r` + `sync` of the same tree (the disk's speed, measured in the same run, runs alternating with
# the clean build), the reference release's clean build, a build where nothing changed, validate (warm cache), verify
# (this binary's and the reference's), a build after one file was edited, and diff of the builds before and after
# that edit, with the sizes of the documents and the state; writes .build/bench-scale/results.json.
#   SCALE_SIZES="100000 300000"   the sizes to run          SCALE_MEDIA_MB=4   MB of random media per pack
#   SCALE_PACKS=20                packs (one media file each) SCALE_RUNS=3     runs of the quick commands (median time)
#   SCALE_CLEAN_RUNS=1            runs of the clean build, the copy and the reference's build, alternating
#   SCALE_REFERENCE=PATH|none     the reference binary (default: 0.5.0, built once from its commit into
#                                 .build/bench-scale/reference; `none` skips the reference rows)
#   ODRPACK=PATH                  the binary measured (default: `make release`'s)
# Issue 46's tree: SCALE_SIZES=1000000 SCALE_MEDIA_MB=256 (a 256 MB movie per pack; about 9 GB of disk).
# Disk: about 4.5 KB per file for the tree (a block and an inode per small file) plus 20 x SCALE_MEDIA_MB, the output
# and the copy; the 1M tree takes about 5 GB with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=$PWD/.build/bench-scale
ODRPACK=${ODRPACK:-}
SIZES=${SCALE_SIZES:-100000 300000 1000000}
MEDIA_MB=${SCALE_MEDIA_MB:-4}
PACKS=${SCALE_PACKS:-20}
RUNS=${SCALE_RUNS:-3}
CLEAN_RUNS=${SCALE_CLEAN_RUNS:-1}
REFERENCE=${SCALE_REFERENCE:-}
# 0.5.0, the last release before issue 38 bounded the memory (issue 46's reference).
REFERENCE_COMMIT=888863782d9b83b703185fda76413a3e5bc54f42
need=()
[ -x /usr/bin/time ] || need+=(time)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
if [ -z "$ODRPACK" ]; then
    make --no-print-directory release >/dev/null
    ODRPACK=$PWD/.build/release/odrpack
fi
mkdir -p "$BENCH"
# The reference binary: built once from its commit in a worktree of this clone (needs the history: not a shallow clone).
if [ -z "$REFERENCE" ]; then
    REFERENCE=$BENCH/reference/odrpack-0.5.0
    if [ ! -x "$REFERENCE" ]; then
        if git cat-file -e "$REFERENCE_COMMIT^{commit}" 2>/dev/null; then
            echo "building the reference, 0.5.0 (${REFERENCE_COMMIT:0:7}), once..."
            rm -rf "$BENCH/reference/src"
            git worktree prune
            git worktree add --force --detach "$BENCH/reference/src" "$REFERENCE_COMMIT" >/dev/null
            (cd "$BENCH/reference/src" && make --no-print-directory release >/dev/null)
            cp "$BENCH/reference/src/.build/release/odrpack" "$REFERENCE"
            git worktree remove --force "$BENCH/reference/src"
        else
            echo "bench-scale: 0.5.0's commit is not in this clone (shallow?): no reference rows (SCALE_REFERENCE=PATH)" >&2
            REFERENCE=none
        fi
    fi
fi
generator=$(sha256sum Benchmarks/make_scale_tree.py | cut -c1-16)

# measure NAME RUNS COMMAND...: runs COMMAND RUNS times under /usr/bin/time; appends one
# "SECONDS s KB KB USER u SYSTEM s" line a run to NAME.txt (so alternating calls add up).
measure() {
    local name=$1 runs=$2 i
    shift 2
    for ((i = 0; i < runs; i++)); do
        if ! /usr/bin/time -f '%e s %M KB %U u %S s' -o "$RESULT/time.tmp" "$@" > /dev/null 2> "$RESULT/$name.err"; then
            echo "bench-scale: $name failed at $files files:" >&2
            cat "$RESULT/$name.err" "$RESULT/time.tmp" >&2
            exit 2
        fi
        tail -1 "$RESULT/time.tmp" >> "$RESULT/$name.txt"
    done
    rm -f "$RESULT/time.tmp"
    printf '  %-26s %s\n' "$name" "$(tail -"$runs" "$RESULT/$name.txt" | tr '\n' ' ')"
}


# warm: every timed clean run starts alike, whatever ran before it: nothing waiting to be written, and the tree read
# once (into the page cache, as far as memory holds it). The copy is `cp -r` + `sync` of the same resources.
warm() {
    sync
    tar -cf - -C "$TREE" Resources | cat > /dev/null
}

# warm_output FOLDER: a verify's start, like warm's: the build folder read once.
warm_output() {
    sync
    tar -cf - -C "$1" . | cat > /dev/null
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
    rm -rf "$RESULT"
    mkdir -p "$RESULT"
    echo "$files files:"
    MANIFEST=$TREE/odrpack.yml
    COPY=$BENCH/copy-$files
    REFERENCE_OUT=$BENCH/reference-out-$files
    for ((run = 0; run < CLEAN_RUNS; run++)); do
        rm -rf "$OUT" "$ODRPACK_CACHE_DIR" "$COPY" "$REFERENCE_OUT"
        warm
        measure build-clean 1 "$ODRPACK" build "$MANIFEST" -o "$OUT" --progress never
        warm
        # shellcheck disable=SC2016 # the inner shell expands $1 and $2
        measure copy 1 bash -c 'cp -r "$1" "$2" && sync' copy "$TREE/Resources" "$COPY"
        rm -rf "$COPY"
        if [ "$REFERENCE" != none ]; then
            warm
            measure reference-build-clean 1 env ODRPACK_CACHE_DIR="$BENCH/reference-cache-$files" \
                "$REFERENCE" build "$MANIFEST" -o "$REFERENCE_OUT" --progress never
            rm -rf "$BENCH/reference-cache-$files"
        fi
    done
    # Both verifies start alike too: the build folder read once, so neither pays for what ran before it.
    warm_output "$OUT"
    measure verify 1 "$ODRPACK" verify "$OUT"
    if [ "$REFERENCE" != none ]; then
        warm_output "$REFERENCE_OUT"
        measure reference-verify 1 "$REFERENCE" verify "$REFERENCE_OUT"
        rm -rf "$REFERENCE_OUT"
    fi
    measure build-noop "$RUNS" "$ODRPACK" build "$MANIFEST" -o "$OUT" --progress never
    "$ODRPACK" validate "$MANIFEST" > /dev/null
    measure validate "$RUNS" "$ODRPACK" validate "$MANIFEST"
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
        echo "tree_bytes $(du -sb "$TREE/Resources" | cut -f1)"
        if [ "$REFERENCE" = none ]; then echo "reference none"; else echo "reference $("$REFERENCE" --version)"; fi
    } > "$RESULT/sizes.txt"
    rm -f "$RESULT/before.json"
    ran+=("$files")
done
python3 Benchmarks/scale_summary.py "$BENCH" "${ran[@]}"
