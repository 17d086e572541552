#!/usr/bin/env bash
# compare.sh OLD NEW [RUNS]: `make bench`'s commands on its corpora (generate them once with `make bench`), run
# alternately with two binaries, run by run, so that both see the same machine; prints the median time and user and
# system time of each command for each binary (docs/performance.md#the-bench-corpora-before-and-after-make-benchs-commands).
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$1 NEW=$2 RUNS=${3:-3}
BENCH=$PWD/.build/bench
[ -f "$BENCH/corpus.stamp" ] || { echo "compare.sh: run make bench once first (it generates the corpora)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CORPUS=$BENCH/corpus/odrpack.yml MEDIA=$BENCH/media/odrpack.yml
EDITED=$BENCH/corpus/Resources/Levels/World2/Level03/scene.json
# timed NAME SIDE COMMAND...: one line "NAME SIDE SECONDS USER SYSTEM" into $WORK/times.
timed() {
    local name=$1 side=$2
    shift 2
    /usr/bin/time -f "$name $side %e %U %S" -a -o "$WORK/times" "$@" > /dev/null 2>&1
}
for ((run = 0; run < RUNS; run++)); do
    for side in old new; do
        bin=$OLD
        [ "$side" = new ] && bin=$NEW
        out=$WORK/out-$side media=$WORK/media-$side
        export ODRPACK_CACHE_DIR=$WORK/cache-$side
        rm -rf "$out" "$media" "$ODRPACK_CACHE_DIR"
        sync
        timed build-full "$side" "$bin" build "$CORPUS" -o "$out" --progress never
        timed build-noop "$side" "$bin" build "$CORPUS" -o "$out" --progress never
        python3 Benchmarks/edit_one_file.py "$EDITED"
        timed build-edit-one "$side" "$bin" build "$CORPUS" -o "$out" --progress never
        timed verify "$side" "$bin" verify "$out"
        sync
        timed media-build-full "$side" "$bin" build "$MEDIA" -o "$media" --progress never
        timed media-verify "$side" "$bin" verify "$media"
        timed validate-200k "$side" "$bin" validate "$BENCH/tree200k/odrpack.yml"
        timed diff-200k "$side" "$bin" diff "$BENCH/diff/old.json" "$BENCH/diff/new.json" --json
    done
done
python3 - "$WORK/times" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, side, *numbers = line.split()
    rows.setdefault(name, {}).setdefault(side, []).append([float(n) for n in numbers])
print("| command | old: median (user, system) | new: median (user, system) | new / old |")
print("|---|---|---|---|")
for name, sides in rows.items():
    medians = {side: [statistics.median(run[i] for run in runs) for i in range(3)] for side, runs in sides.items()}
    old, new = medians["old"], medians["new"]
    ratio = new[0] / old[0] if old[0] else float("nan")
    print(f"| {name} | {old[0]:.2f} s ({old[1]:.2f}, {old[2]:.2f}) | {new[0]:.2f} s ({new[1]:.2f}, {new[2]:.2f}) | {ratio:.2f} |")
PY
