#!/bin/bash
# `make test-bazel`: rules_odrpack (bazel/) with Debian's bazel-bootstrap (Bazel 4.2.3), with no download
# (docs/bazel.md#the-test-workspace). Not part of `make test`.
#
# (a) the sample's packs (both layouts) equal a direct `odrpack build --no-cache --template-path /odrpack/<name>`
#     byte for byte (minus .odrpack.lock);
# (b) after `bazel clean`, a build with --disk_cache runs no odrpack action: every one is a cache hit;
# (c) an over-limit manifest fails its odrpack_validate_test (and its odrpack_packs) while the sample's passes;
# (d) odrpack_ipa builds from a fake .app folder and from an .ipa, and the .ipa lists Payload/OnDemandResources/;
# (e) hermetic inputs: resources-root '../..' or '/etc' fails odrpack_packs and odrpack_validate_test, and an app holding
#     a symbolic link with an absolute target or one leading out fails odrpack_ipa, each naming the path;
# (f) a source folder whose name holds a space ("Bamboo Breakout/") passes odrpack_validate_test and builds its packs,
#     with no extra flag;
# and, when dist/ holds a release archive for this machine, the archive form of the toolchain (file:// URL and its
# SHA-256) gives the same packs as that archive's binary run directly.
#
# ODRPACK=path picks the binary (default: .build/debug/odrpack, else .build/release/odrpack, else built);
# ODRPACK_DIST_DIR=folder where to look for the release archive (default: dist).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
scratch=$repo/.build/bazel
workspace=$scratch/workspace
passed=0
failed=0

pass() {
    echo "PASS: $*"
    passed=$((passed + 1))
}
failure() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}

if ! command -v bazel >/dev/null 2>&1; then
    echo "bazel is missing: install Debian's bazel-bootstrap (make test-bazel does)" >&2
    exit 2
fi

odrpack=${ODRPACK:-}
if [ -z "$odrpack" ]; then
    for candidate in .build/debug/odrpack .build/release/odrpack; do
        if [ -x "$candidate" ]; then
            odrpack=$repo/$candidate
            break
        fi
    done
fi
if [ -z "$odrpack" ]; then
    echo "building odrpack (swift build --product odrpack)"
    swift build --product odrpack
    odrpack=$repo/.build/debug/odrpack
fi
odrpack=$(cd "$(dirname "$odrpack")" && pwd)/$(basename "$odrpack")
if ! "$odrpack" build --help 2>/dev/null | grep -q -- --template-path; then
    echo "$odrpack predates build --template-path: rebuild it (swift build --product odrpack)" >&2
    exit 2
fi
echo "odrpack: $odrpack ($("$odrpack" --version))"

# A fresh output root, disk cache and workspace: nothing of the machine's other Bazel runs leaks in.
if [ -d "$scratch" ]; then
    chmod -R u+w "$scratch" 2>/dev/null || true
    rm -rf "$scratch"
fi
mkdir -p "$scratch"
cp -R Tests/Bazel/workspace "$workspace"
mkdir -p "$workspace/sample"
cp -R SampleProject/odrpack.yml SampleProject/Resources "$workspace/sample/"
cp "$odrpack" "$workspace/tools/odrpack"
# (e) a source folder app holding a relative link that leads out of it (//app:OutsideLinkAppStore): made here, so that
# no link leading out of the checkout is committed.
mkdir -p "$workspace/app/OutsideLink.app"
cp "$workspace/app/Info.plist" "$workspace/app/Bamboo" "$workspace/app/OutsideLink.app/"
ln -s ../../../../../../../../../../etc/hostname "$workspace/app/OutsideLink.app/secret.txt"

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) target=x86_64-unknown-linux-gnu ;;
    Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-gnu ;;
    Darwin-*) target=universal-apple-darwin ;;
    *) target=unknown ;;
esac
archive=
if dist=$(cd "${ODRPACK_DIST_DIR:-dist}" 2>/dev/null && pwd); then
    archive=$(find "$dist" -maxdepth 1 -name "odrpack-*-$target.tar.gz" | sort | tail -n 1)
fi
if [ -n "$archive" ]; then
    sha256=$( (sha256sum "$archive" 2>/dev/null || shasum -a 256 "$archive") | cut -d' ' -f1)
    cat >>"$workspace/WORKSPACE" <<EOF

# The archive form (run.sh found $(basename "$archive")): used with --extra_toolchains=@odrpack_dist//:toolchain.
load("@rules_odrpack//odrpack:repositories.bzl", "odrpack_archive")

odrpack_archive(
    name = "odrpack_dist",
    sha256 = "$sha256",
    urls = ["file://$archive"],
)
EOF
fi

# Startup options: no rc file of the user's (the system one stays: Debian's sets the install base and the local JDK),
# our own output root; the server stops after the run.
bazel_startup=(--nohome_rc --output_user_root="$scratch/root" --max_idle_secs=120)
# No network is ever needed: a fetch that tries one fails instead of hanging.
# Debian's rc turns --sandbox_debug on, which prints every sandbox's mounts: off.
bazel_flags=(--noshow_progress --color=no --curses=no --repository_cache= --nosandbox_debug)
bz() {
    (cd "$workspace" && bazel "${bazel_startup[@]}" "$@")
}
cleanup() {
    (cd "$workspace" && bazel "${bazel_startup[@]}" shutdown >/dev/null 2>&1) || true
}
trap cleanup EXIT

# The direct builds (a): exactly what odrpack_packs runs, with the same --template-path, minus the lock file.
direct() { # NAME OUTPUT BINARY [options]
    local name=$1 output=$2 binary=$3
    shift 3
    ODRPACK_CACHE_DIR="$scratch/direct-cache" "$binary" build SampleProject/odrpack.yml --no-cache --progress never \
        --output "$output" --template-path "/odrpack/$name" "$@" >/dev/null
    rm -f "$output/.odrpack.lock"
}
# Every OdrpackBuild, OdrpackValidate and OdrpackIpa spawn of an execution log (--execution_log_json_file) was a cache hit.
all_hits() {
    python3 - "$1" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
decoder, at, spawns = json.JSONDecoder(), 0, []
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at == len(text):
        break
    spawn, at = decoder.raw_decode(text, at)
    spawns.append(spawn)
odrpack = [s for s in spawns if s.get("mnemonic") in ("OdrpackBuild", "OdrpackValidate", "OdrpackIpa")]
missed = [s.get("progressMessage", s.get("mnemonic")) for s in odrpack if not s.get("remoteCacheHit")]
print(f"odrpack actions: {len(odrpack)}, cache hits: {len(odrpack) - len(missed)}, ran: {len(missed)} {missed}")
sys.exit(0 if odrpack and not missed else 1)
EOF
}

direct sample_packs "$scratch/direct/sample_packs" "$odrpack"
direct sample_folder_packs "$scratch/direct/sample_folder_packs" "$odrpack" --layout folder

log=$scratch/bazel.log
echo "== bazel build (label form of the toolchain, --disk_cache)"
if bz build "${bazel_flags[@]}" --disk_cache="$scratch/disk-cache" //sample:all //app:all >"$log" 2>&1; then
    pass "bazel build //sample:all //app:all"
else
    cat "$log"
    failure "bazel build //sample:all //app:all"
fi
grep -E '^INFO: [0-9]+ processes' "$log" || true
bin=$(bz info "${bazel_flags[@]}" bazel-bin 2>/dev/null)

# (a) byte for byte.
for name in sample_packs sample_folder_packs; do
    if diff -r "$scratch/direct/$name" "$bin/sample/$name" && [ -f "$bin/sample/$name/odrpack-manifest.json" ]; then
        pass "(a) //sample:$name equals odrpack build --template-path /odrpack/$name byte for byte"
    else
        failure "(a) //sample:$name differs from odrpack build's folder"
    fi
done
if [ -d "$bin/sample/sample_packs" ] && [ ! -e "$bin/sample/sample_packs/.odrpack.lock" ]; then
    pass "(a) the tree artifact holds no .odrpack.lock"
else
    failure "(a) the tree artifact holds .odrpack.lock"
fi
if "$odrpack" verify "$bin/sample/sample_packs" >/dev/null; then
    pass "(a) odrpack verify passes on the tree artifact"
else
    failure "(a) odrpack verify fails on the tree artifact"
fi

# (d) the ipa targets.
for name in BambooAppStore BambooAppStoreFromIpa; do
    ipa=$bin/app/$name.ipa
    listing=$(python3 -m zipfile -l "$ipa" 2>/dev/null || true)
    if printf '%s\n' "$listing" | grep -q '^Payload/OnDemandResources/' &&
        printf '%s\n' "$listing" | grep -q '^Payload/Bamboo.app/Info.plist' &&
        ! printf '%s\n' "$listing" | grep -q '^Payload/Bamboo.app/Tutorial/intro.json'; then
        pass "(d) //app:$name builds $name.ipa with Payload/OnDemandResources/ (the app thinned of the packs' files)"
    else
        printf '%s\n' "$listing" | head -20
        failure "(d) //app:$name: $ipa lacks Payload/OnDemandResources/ or was not thinned"
    fi
done

# (b) after bazel clean, the same build with the disk cache runs no odrpack action.
bz clean >/dev/null 2>&1
exec_log=$scratch/exec.json
if bz build "${bazel_flags[@]}" --disk_cache="$scratch/disk-cache" --execution_log_json_file="$exec_log" \
    //sample:all //app:all >"$log" 2>&1; then
    pass "bazel build after bazel clean"
else
    cat "$log"
    failure "bazel build after bazel clean"
fi
grep -E '^INFO: [0-9]+ processes' "$log" || true
if all_hits "$exec_log"; then
    pass "(b) after bazel clean, every odrpack action was a disk cache hit"
else
    failure "(b) an odrpack action ran after bazel clean with --disk_cache"
fi
# Bazel 4 counts disk cache hits as "remote cache hit", later versions as "disk cache hit".
if grep -Eq 'processes: .*(disk|remote) cache hit' "$log" &&
    ! grep -Eq 'processes: .*(linux-sandbox|processwrapper-sandbox|sandbox|local|worker)' "$log"; then
    pass "(b) Bazel reports only cache hits (and internal steps), no process run"
else
    failure "(b) Bazel ran processes that were not cache hits"
fi
for name in sample_packs sample_folder_packs; do
    if diff -r "$scratch/direct/$name" "$bin/sample/$name" >/dev/null; then
        pass "(b) //sample:$name from the cache still equals odrpack build's"
    else
        failure "(b) //sample:$name from the cache differs"
    fi
done

# (b) the key never depends on the output base or the workspace's folder: another copy of the workspace, with another
# output root, gets every odrpack action from the same disk cache.
cp -R "$workspace" "$scratch/workspace2"
rm -f "$scratch/workspace2"/bazel-*
if (cd "$scratch/workspace2" && bazel --nohome_rc --output_user_root="$scratch/root2" --max_idle_secs=60 build \
    "${bazel_flags[@]}" --disk_cache="$scratch/disk-cache" --execution_log_json_file="$scratch/exec2.json" \
    //sample:all //app:all >"$log" 2>&1) && all_hits "$scratch/exec2.json"; then
    pass "(b) another workspace folder and output root: every odrpack action was a disk cache hit"
else
    cat "$log"
    failure "(b) another workspace folder and output root ran an odrpack action"
fi
(cd "$scratch/workspace2" && bazel --nohome_rc --output_user_root="$scratch/root2" shutdown >/dev/null 2>&1) || true

# (c) validate tests: the sample's (also with profile ios) pass, the over-limit one fails, and so does its build.
if bz test "${bazel_flags[@]}" //sample:sample_validate_test //sample:sample_ios_validate_test >"$log" 2>&1; then
    pass "(c) //sample:sample_validate_test and //sample:sample_ios_validate_test pass"
else
    cat "$log"
    failure "(c) the sample's validate tests fail"
fi
status=0
bz test "${bazel_flags[@]}" //overlimit:overlimit_validate_test >"$log" 2>&1 || status=$?
test_log=$(bz info "${bazel_flags[@]}" bazel-testlogs 2>/dev/null)/overlimit/overlimit_validate_test/test.log
if [ "$status" -eq 3 ] && grep -q 'FAILED' "$log" && grep -qi 'max-pack-size\|limit' "$test_log"; then
    pass "(c) //overlimit:overlimit_validate_test fails (exit $status), naming the limit"
else
    cat "$log"
    failure "(c) //overlimit:overlimit_validate_test did not fail as expected (exit $status)"
fi
status=0
bz build "${bazel_flags[@]}" //overlimit:overlimit_packs >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] && grep -q 'OdrpackBuild\|odrpack' "$log"; then
    pass "(c) //overlimit:overlimit_packs fails to build (exit $status)"
else
    cat "$log"
    failure "(c) //overlimit:overlimit_packs built"
fi

status=0
bz build "${bazel_flags[@]}" //overlimit:outside_packs >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] && grep -q "lies outside the manifest's package" "$log"; then
    pass "(c) a src outside the manifest's package fails at analysis, naming it"
else
    cat "$log"
    failure "(c) //overlimit:outside_packs did not fail at analysis"
fi

# (e) hermetic inputs: what leads out of the declared inputs fails, naming the path (never read, never skipped).
expect_failure() { # WHAT PATTERN COMMAND... : the bazel command fails and its output matches PATTERN
    local what=$1 pattern=$2 status=0
    shift 2
    bz "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && grep -q -- "$pattern" "$log"; then
        pass "(e) $what fails (exit $status): $(grep -o -m 1 -- "$pattern.*" "$log" | cut -c1-150)"
    else
        cat "$log"
        failure "(e) $what did not fail naming '$pattern' (exit $status)"
    fi
}
expect_failure "//escape:escape_packs (resources-root: ../..)" "resources-root '../..' leads to" \
    build "${bazel_flags[@]}" //escape:escape_packs
expect_failure "//escape_absolute:escape_absolute_packs (resources-root: /etc)" "resources-root '/etc' leads to '/etc'" \
    build "${bazel_flags[@]}" //escape_absolute:escape_absolute_packs
expect_failure "//app:AbsoluteLinkAppStore (a link to /etc/hostname in the app)" \
    "holds the symbolic link 'secret.txt' to '/etc/hostname', which is absolute" \
    build "${bazel_flags[@]}" //app:AbsoluteLinkAppStore
expect_failure "//app:OutsideLinkAppStore (a relative link leading out of the app)" \
    "holds the symbolic link 'secret.txt' to '../" build "${bazel_flags[@]}" //app:OutsideLinkAppStore
for name in escape escape_absolute; do
    status=0
    bz test "${bazel_flags[@]}" "//$name:${name}_validate_test" >"$log" 2>&1 || status=$?
    test_log=$(bz info "${bazel_flags[@]}" bazel-testlogs 2>/dev/null)/$name/${name}_validate_test/test.log
    if [ "$status" -eq 3 ] && grep -q "outside --input-root" "$test_log"; then
        pass "(e) //$name:${name}_validate_test fails (exit $status), naming where resources-root leads"
    else
        cat "$log" "$test_log" 2>/dev/null || true
        failure "(e) //$name:${name}_validate_test did not fail naming the path (exit $status)"
    fi
done

# (f) a source folder named with a space, on the tested Bazel, with no extra flag.
if bz test "${bazel_flags[@]}" //spaces:spaces_validate_test >"$log" 2>&1; then
    pass "(f) //spaces:spaces_validate_test passes on 'Bamboo Breakout/' (no --nobuild_runfile_links)"
else
    cat "$log"
    failure "(f) //spaces:spaces_validate_test fails on a path with a space"
fi
if bz build "${bazel_flags[@]}" //spaces:spaces_packs >"$log" 2>&1 &&
    "$odrpack" verify "$bin/spaces/spaces_packs" >/dev/null; then
    pass "(f) //spaces:spaces_packs builds from 'Bamboo Breakout/' and verifies"
else
    cat "$log"
    failure "(f) //spaces:spaces_packs"
fi

# The archive form, when dist/ has an archive for this machine.
if [ -n "$archive" ]; then
    unpacked=$scratch/dist
    mkdir -p "$unpacked"
    tar -xzf "$archive" -C "$unpacked"
    dist_odrpack=$(ls -d "$unpacked"/odrpack-*/bin/odrpack)
    direct sample_packs "$scratch/direct-dist/sample_packs" "$dist_odrpack"
    if bz build "${bazel_flags[@]}" --extra_toolchains=@odrpack_dist//:toolchain //sample:sample_packs >"$log" 2>&1 &&
        diff -r "$scratch/direct-dist/sample_packs" "$bin/sample/sample_packs"; then
        grep -E "^INFO: [0-9]+ processes" "$log" || true
        pass "archive form: @odrpack_dist (file:// URL, SHA-256) builds //sample:sample_packs as its binary does"
    else
        cat "$log"
        failure "archive form: //sample:sample_packs with @odrpack_dist"
    fi
else
    echo "SKIP: no dist/odrpack-*-$target.tar.gz (make dist): the archive form of the toolchain was not exercised"
fi

echo "test-bazel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
