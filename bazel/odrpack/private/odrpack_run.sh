#!/bin/bash
# rules_odrpack: runs odrpack inside one Bazel action (odrpack_packs, odrpack_ipa) or test (odrpack_validate_test) on
# staged inputs (docs/bazel.md#staging).
#
#   odrpack_run.sh build    ODRPACK OUT_DIR  MANIFEST_REL INPUTS FORMAT PROFILE [odrpack build options...]
#   odrpack_run.sh validate ODRPACK MANIFEST_REL INPUTS [odrpack validate options...]
#   odrpack_run.sh ipa      ODRPACK OUT_IPA  APP BUILD_DIR [odrpack ipa options...]
#
# INPUTS lists the inputs, two lines each: the path to stage it at (relative to the manifest's package), then where
# Bazel put it. Bazel hands inputs over as symbolic links that leave the sandbox (or the runfiles tree), which odrpack
# refuses inside resources-root: every input is staged into a fresh folder as a hard link where the file system
# allows, else as a copy, never as a link. odrpack's cache, HOME and temporaries live in that folder, which is removed
# on every exit; SOURCE_DATE_EPOCH is unset, so the bytes are those of a plain `odrpack build`. `odrpack build` takes
# no --profile (the manifest names its profile): with a PROFILE, `odrpack validate --profile PROFILE` runs first on the
# same staged inputs and its errors fail the action.
set -euo pipefail

absolute() {
    case "$1" in
        /*) printf '%s' "$1" ;;
        *) printf '%s/%s' "$PWD" "$1" ;;
    esac
}

mode=$1
odrpack=$(absolute "$2")
shift 2

work=$(absolute "$(mktemp -d "${TMPDIR:-/tmp}/odrpack-bazel.XXXXXX")")
# Only folders are made writable before the removal: a staged file may be a hard link of a source file or of a Bazel
# output, whose mode must not change.
cleanup() {
    find "$work" -type d ! -perm -u+w -exec chmod u+w {} + 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" ODRPACK_CACHE_DIR="$work/cache"
unset SOURCE_DATE_EPOCH
mkdir -p "$HOME" "$ODRPACK_CACHE_DIR"

# One input at DEST: a file as a hard link (else a copy) of what SRC names, a folder (a tree artifact) as a copy of
# its files with every symbolic link followed.
stage() {
    mkdir -p "$(dirname "$2")"
    if [ -d "$1" ]; then
        cp -RL "$1" "$2"
    else
        ln -L "$1" "$2" 2>/dev/null || cp -L "$1" "$2"
    fi
}

stage_list() {
    local rel source
    while IFS= read -r rel && IFS= read -r source; do
        stage "$(absolute "$source")" "$1/$rel"
    done <"$2"
}

# A copy of an app (or a build folder) at DEST in which no symbolic link leaves it: Bazel lays out a tree artifact's
# files as links with absolute targets, and odrpack ipa keeps links as links; each such link becomes a copy of what
# it names. Links with relative targets (a framework's Versions/Current) stay links.
materialize() {
    if [ ! -d "$1" ]; then
        stage "$1" "$2"
        return
    fi
    mkdir -p "$2"
    cp -R "$1/." "$2/"
    local link target
    find "$2" -type l -print0 | while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        case "$target" in
            /*)
                rm -f "$link"
                cp -RL "$target" "$link"
                ;;
        esac
    done
}

# odrpack's summary goes to a log shown only when it fails: a passing action prints nothing (warnings on stderr
# still show).
run() {
    local status=0
    "$@" >"$work/stdout" || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$work/stdout"
        echo "odrpack_run.sh: odrpack exited $status" >&2
        exit "$status"
    fi
}

case "$mode" in
    build)
        out=$(absolute "$1")
        manifest=$2
        inputs=$(absolute "$3")
        format=$4
        profile=$5
        shift 5
        stage_list "$work/in" "$inputs"
        # From the staging folder, so that diagnostics name the manifest by its path in the package.
        cd "$work/in"
        if [ -n "$profile" ]; then
            "$odrpack" validate "$manifest" --format "$format" --profile "$profile" --quiet
        fi
        run "$odrpack" build "$manifest" --no-cache --progress never --output "$work/out" "$@"
        # The build folder without its lock file, times and modes kept (a folder pack's are part of the pack).
        rm -f "$work/out/.odrpack.lock"
        mkdir -p "$out"
        cp -pR "$work/out/." "$out/"
        ;;
    validate)
        manifest=$1
        inputs=$(absolute "$2")
        shift 2
        stage_list "$work/in" "$inputs"
        cd "$work/in"
        status=0
        "$odrpack" validate "$manifest" "$@" || status=$?
        exit "$status"
        ;;
    ipa)
        out=$(absolute "$1")
        app=$(absolute "$2")
        build_dir=$(absolute "$3")
        shift 3
        mkdir -p "$work/app"
        materialize "$app" "$work/app/$(basename "$app")"
        materialize "$build_dir" "$work/packs"
        run "$odrpack" ipa "$work/app/$(basename "$app")" "$work/packs" --output "$work/out.ipa" --progress never "$@"
        cp "$work/out.ipa" "$out"
        ;;
    *)
        echo "odrpack_run.sh: unknown mode '$mode' (build, validate or ipa)" >&2
        exit 64
        ;;
esac
