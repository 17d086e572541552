#!/usr/bin/env bash
# `make test-browser`: opens the report and diff pages of the sample in headless Chromium. A page passes when its
# script ran to the end (body data-ready), Chromium logged no JavaScript error, and the DOM names every pack and
# tag and shows every limit of the profile.
set -uo pipefail
cd "$(dirname "$0")/../.."
ODRPACK=${ODRPACK:-$PWD/.build/debug/odrpack}
CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$CHROMIUM" ] || { echo "chromium is not installed (make test-browser installs it)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ODRPACK_CACHE_DIR="$work/cache"
passed=0
failed=0
check() { # name, condition result
    if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok: $1"; else failed=$((failed + 1)); echo "FAILED: $1"; fi
}
render() { # page -> dom file, log file
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --virtual-time-budget=5000 --dump-dom "file://$1" > "$1.dom" 2> "$1.log"
}
expect_names() { # page, JSON document, python expression listing the names the DOM must hold
    python3 - "$1.dom" "$2" "$3" <<'PY'
import html, json, sys
dom = html.unescape(open(sys.argv[1], encoding="utf-8").read())
document = json.load(open(sys.argv[2], encoding="utf-8"))
names = eval(sys.argv[3], {"d": document})
missing = [name for name in names if name not in dom]
if missing:
    print("  missing from the page:", missing[:10])
    sys.exit(1)
PY
}
no_script_errors() { # page
    ! grep -Eiq 'Uncaught|CONSOLE.*(error|exception)|SyntaxError|TypeError|ReferenceError' "$1.log"
}

# The sample's report.
cp -r SampleProject "$work/project"
"$ODRPACK" report "$work/project/odrpack.yml" --output "$work/report.html" > /dev/null
"$ODRPACK" plan "$work/project/odrpack.yml" --json > "$work/plan.json"
render "$work/report.html"
grep -q 'data-ready="true"' "$work/report.html.dom"; check "report: the script ran to the end" $?
no_script_errors "$work/report.html"; check "report: no JavaScript error" $?
expect_names "$work/report.html" "$work/plan.json" '[p["id"] for p in d["packs"]] + [t["name"] for t in d["tags"]]'
check "report: every pack and tag is named" $?
expect_names "$work/report.html" "$work/plan.json" '["limit-" + k for k in d["limits"]]'
check "report: every limit of the profile has a gauge" $?
grep -q 'class="tile g-' "$work/report.html.dom"; check "report: the treemap has tiles" $?
! grep -Eiq '<(script|link|img)[^>]+(src|href)="(https?:)?//' "$work/report.html"; check "report: nothing is fetched from the network" $?

# The sample's Background Assets report: asset pack ids and the background-assets profile's gauges.
"$ODRPACK" report "$work/project/odrpack.yml" --format background-assets --output "$work/ba.html" > /dev/null
"$ODRPACK" plan "$work/project/odrpack.yml" --format background-assets --json > "$work/ba.json"
render "$work/ba.html"
grep -q 'data-ready="true"' "$work/ba.html.dom"; check "background-assets report: the script ran to the end" $?
no_script_errors "$work/ba.html"; check "background-assets report: no JavaScript error" $?
expect_names "$work/ba.html" "$work/ba.json" '[p["assetPackId"] for p in d["packs"]] + [t["name"] for t in d["tags"]] + ["limit-" + k for k in d["limits"]]'
check "background-assets report: every asset pack id, tag and limit is shown" $?

# A diff page: one level changes, one file moves to another tag.
"$ODRPACK" build "$work/project/odrpack.yml" -o "$work/old" > /dev/null
echo '{"boss": "panda"}' > "$work/project/Resources/Levels/Level2/boss.json"
"$ODRPACK" build "$work/project/odrpack.yml" -o "$work/new" > /dev/null
"$ODRPACK" diff "$work/old" "$work/new" --json --html "$work/diff.html" > "$work/diff.json"
render "$work/diff.html"
grep -q 'data-ready="true"' "$work/diff.html.dom"; check "diff: the script ran to the end" $?
no_script_errors "$work/diff.html"; check "diff: no JavaScript error" $?
expect_names "$work/diff.html" "$work/diff.json" '[p["id"] for p in d["packs"]] + [t["name"] for t in d["tags"]] + ["changed"]'
check "diff: every pack, tag and status is named" $?

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
