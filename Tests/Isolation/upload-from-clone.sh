#!/usr/bin/env bash
# make test-clone: the upload suites from a fresh clone in a temporary folder, with nothing of this machine's
# project folders visible (issue 48): in a private mount namespace (root), an empty tmpfs hides the folder beside
# this checkout that the developers' tools keep (`../shared`) and /work, so a test that reads a path outside the
# repository fails here instead of passing by luck. What it runs: the clone's own `swift build --build-tests`, then
# the App Store Connect suites (they start Tests/AppStoreConnect/standin.py, which reads Apple's API description from
# Tests/AppStoreConnect/api only).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "test-clone: needs root (a private mount namespace)" >&2; exit 1; }
command -v unshare >/dev/null 2>&1 || { echo "test-clone: needs unshare (util-linux)" >&2; exit 1; }
work=$(mktemp -d /tmp/odrpack-clone-XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-hardlinks . "$work/odrpack"
echo "test-clone: cloned $(git rev-parse --short HEAD) into $work/odrpack"
hide=()
for folder in "$PWD/../shared" /work; do
    [ -d "$folder" ] && hide+=("$(realpath "$folder")")
done
unshare --mount --propagation private bash -euo pipefail -c '
    work=$1; shift
    for folder in "$@"; do mount -t tmpfs -o size=1m,mode=0755 odrpack-hidden "$folder"; done
    for folder in "$@"; do [ -z "$(ls -A "$folder" 2>/dev/null)" ] || { echo "test-clone: $folder is not hidden" >&2; exit 1; }; done
    echo "test-clone: hidden: ${*:-nothing}"
    cd "$work/odrpack"
    swift build --build-tests 2>&1 | tail -n 1
    swift test --skip-build --filter "UploadCommandTests|UploadFailureTests" 2>&1 | tail -n 5
' test-clone "$work" "${hide[@]}"
