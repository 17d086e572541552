#!/usr/bin/env bash
# `make bench`: generates the corpora once (cached under .build/bench), then times odrpack against
# bsdtar with hyperfine and writes .build/bench/results.json. Takes about five minutes on 2 cores. ODRPACK=PATH times
# another binary (a release archive's: docs/install.md#speed) instead of `make release`'s, and BENCH=DIR writes there.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=${BENCH:-.build/bench}
ODRPACK=${ODRPACK:-}
need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v bsdtar >/dev/null || need+=(libarchive-tools)
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
stamp=$(cat Benchmarks/corpus_kit.py Benchmarks/make_corpus.py Benchmarks/make_media_corpus.py Benchmarks/make_validate_tree.py \
    Benchmarks/make_diff_manifests.py | sha256sum | cut -c1-16)
if [ "$(cat "$BENCH/corpus.stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "generating the corpora (once)..."
    rm -rf "$BENCH/corpus" "$BENCH/media" "$BENCH/tree200k" "$BENCH/diff"
    python3 Benchmarks/make_corpus.py "$BENCH/corpus"
    python3 Benchmarks/make_media_corpus.py "$BENCH/media"
    python3 Benchmarks/make_validate_tree.py "$BENCH/tree200k" 200000
    python3 Benchmarks/make_diff_manifests.py "$BENCH/diff"
    echo "$stamp" > "$BENCH/corpus.stamp"
fi
CORPUS=$PWD/$BENCH/corpus
OUT=$PWD/$BENCH/out
export ODRPACK_CACHE_DIR=$PWD/$BENCH/cache
du -sb "$CORPUS/Resources" | cut -f1 > "$BENCH/corpus-bytes"
find "$CORPUS/Resources" -type f | wc -l > "$BENCH/corpus-files"
"$ODRPACK" plan "$CORPUS/odrpack.yml" --json > "$BENCH/plan.json"
python3 Benchmarks/reference_bsdtar.py "$BENCH/plan.json" "$CORPUS/Resources" "$PWD/$BENCH"
hf() { name=$1; shift; hyperfine --style basic --export-json "$BENCH/$name.json" "$@"; }

hf build-full --runs 5 --prepare "rm -rf $OUT $ODRPACK_CACHE_DIR; sync" "$ODRPACK build $CORPUS/odrpack.yml -o $OUT --progress never"
hf reference-bsdtar --runs 3 --prepare "sync" "bash $PWD/$BENCH/reference.sh"
# Store mode beside one plain tar stream of the same packed files (no hashing, no per-pack archives).
python3 -c 'import json, sys; print("\n".join(f["path"] for p in json.load(open(sys.argv[1]))["packs"] for f in p["files"]))' \
    "$BENCH/plan.json" > "$BENCH/packed-files.txt"
hf build-store --runs 3 --prepare "rm -rf $OUT-store; sync" "$ODRPACK build $CORPUS/odrpack.yml -o $OUT-store --compression store --no-cache --progress never"
hf tar-store --runs 3 --prepare "rm -f $PWD/$BENCH/packed.tar; sync" "tar cf $PWD/$BENCH/packed.tar -C $CORPUS/Resources -T $PWD/$BENCH/packed-files.txt"
rm -rf "$OUT-store" "$BENCH/packed.tar"
du -sb "$OUT/OnDemandResources" | cut -f1 > "$BENCH/archive-bytes"
du -sb "$BENCH/reference" | cut -f1 > "$BENCH/reference-bytes"
python3 -c 'import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
    "$ODRPACK" build "$CORPUS/odrpack.yml" -o "$OUT" --no-cache --progress never > "$BENCH/peak-memory-kb"
"$ODRPACK" build "$CORPUS/odrpack.yml" -o "$OUT" >/dev/null
hf build-noop --warmup 2 --runs 15 "$ODRPACK build $CORPUS/odrpack.yml -o $OUT --progress never"
EDITED="$CORPUS/Resources/Levels/World2/Level03/scene.json"
hf build-edit-one --runs 7 --prepare "python3 Benchmarks/edit_one_file.py $EDITED" "$ODRPACK build $CORPUS/odrpack.yml -o $OUT --progress never"
python3 Benchmarks/edit_one_file.py "$EDITED"
"$ODRPACK" build "$CORPUS/odrpack.yml" -o "$OUT" --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["build"]["written"]))' > "$BENCH/edit-written"
hf verify --warmup 1 --runs 5 "$ODRPACK verify $OUT"

# The media-heavy corpus (issue #19): mostly incompressible PNG, audio and video, about 15% text.
MEDIA=$PWD/$BENCH/media
MOUT=$PWD/$BENCH/media-out
du -sb "$MEDIA/Resources" | cut -f1 > "$BENCH/media-bytes"
find "$MEDIA/Resources" -type f | wc -l > "$BENCH/media-files"
"$ODRPACK" plan "$MEDIA/odrpack.yml" --json > "$BENCH/media-plan.json"
python3 Benchmarks/reference_bsdtar.py "$BENCH/media-plan.json" "$MEDIA/Resources" "$PWD/$BENCH/media-reference"
hf media-build-full --runs 5 --prepare "rm -rf $MOUT $ODRPACK_CACHE_DIR; sync" "$ODRPACK build $MEDIA/odrpack.yml -o $MOUT --progress never"
hf media-reference-bsdtar --runs 3 --prepare "sync" "bash $PWD/$BENCH/media-reference/reference.sh"
# The same build right after another program wrote 1 GB it has not flushed (docs/build-output.md#durable: a build flushes only
# what it wrote, so it must not wait for that gigabyte; target: at most 1.2x the build after a sync).
hf media-build-after-writes --runs 5 --prepare "rm -rf $MOUT $ODRPACK_CACHE_DIR; sync; dd if=/dev/zero of=$PWD/$BENCH/other-program.bin bs=1M count=1024 status=none" \
    "$ODRPACK build $MEDIA/odrpack.yml -o $MOUT --progress never"
rm -f "$BENCH/other-program.bin"
du -sb "$MOUT/OnDemandResources" | cut -f1 > "$BENCH/media-archive-bytes"
du -sb "$BENCH/media-reference/reference" | cut -f1 > "$BENCH/media-reference-bytes"
MEDIA_EDITED="$MEDIA/Resources/Tutorial/step03.json"
hf media-build-edit-one --runs 7 --prepare "python3 Benchmarks/edit_one_file.py $MEDIA_EDITED" "$ODRPACK build $MEDIA/odrpack.yml -o $MOUT --progress never"
hf media-verify --warmup 1 --runs 5 "$ODRPACK verify $MOUT"
rm -rf "$BENCH/media-reference/reference"

hf report-200k --warmup 1 --runs 5 "$ODRPACK report $PWD/$BENCH/tree200k/odrpack.yml --output $PWD/$BENCH/report-200k.html"
hf validate-corpus --warmup 2 --runs 10 "$ODRPACK validate $CORPUS/odrpack.yml"
hf validate-200k --warmup 1 --runs 5 "$ODRPACK validate $PWD/$BENCH/tree200k/odrpack.yml"
hf diff-200k --warmup 1 --runs 5 "$ODRPACK diff $PWD/$BENCH/diff/old.json $PWD/$BENCH/diff/new.json --json"
python3 Benchmarks/summarize.py "$BENCH"
