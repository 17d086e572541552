#!/bin/bash
# rules_odrpack: runs odrpack inside one Bazel action (odrpack_packs, odrpack_ipa, and the validation an
# odrpack_validate_test reports) on staged inputs (docs/bazel.md#staging), confined to them with --input-root
# (docs/bazel.md#hermetic-inputs).
#
#   odrpack_run.sh build    ODRPACK OUT_DIR MANIFEST_REL INPUTS FORMAT PROFILE [odrpack build options...]
#   odrpack_run.sh validate ODRPACK OUT_LOG OUT_STATUS MANIFEST_REL INPUTS [odrpack validate options...]
#   odrpack_run.sh ipa      ODRPACK OUT_IPA APP BUILD_DIR [odrpack ipa options...]
#
# Every path is an exec path (relative to the action's folder). INPUTS lists the inputs, two lines each: the path to
# stage it at (relative to the manifest's package), then its exec path. Bazel hands inputs over as symbolic links that
# leave the sandbox, which odrpack refuses: every input is staged into a fresh folder, a file as a hard link where the
# file system allows, else as a copy (Bazel keys a file's content, so following its links reads nothing undeclared), a
# folder (a tree artifact) as a copy whose links stay links, except those Bazel made for its files. odrpack then runs
# with --input-root on that folder: a resources-root, an app or a link leading out of it fails the action, naming it.
# odrpack's cache, HOME and temporaries live in the work folder, which is removed on every exit; SOURCE_DATE_EPOCH is
# unset, so the bytes are those of a plain `odrpack build`. `odrpack build` takes no --profile (the manifest names its
# profile): with a PROFILE, `odrpack validate --profile PROFILE` runs first on the same staged inputs and its errors
# fail the action. `validate` records odrpack's output and exit status for the test to report, and fails only when
# it cannot run odrpack at all.
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

# The execution root of a sandboxed action, learned from a declared file Bazel linked there (EXEC_PATH is a link to
# EXECROOT/EXEC_PATH); empty when the action runs in the execution root itself or on a remote executor, where no
# link of Bazel's is left to tell apart.
execroot=
find_execroot() {
    local target
    [ -L "$1" ] || return 0
    target=$(readlink "$1")
    case "$target" in
        /*"/$1") execroot=${target%"/$1"} ;;
    esac
}

# A folder input (EXEC_PATH) copied to DEST with its links kept as links: a link is replaced by what it names only
# when Bazel made it, that is when it leads to EXECROOT/EXEC_PATH/REL, the same file in the execution root (a
# sandbox's links to a tree artifact's files), and then by one step only, so that a link the tree itself holds stays a
# link. Every other link, absolute or leading out, stays for odrpack to refuse (--input-root), never followed here.
copy_tree() {
    local link rel target
    mkdir -p "$2"
    cp -R "$1/." "$2/"
    [ -n "$execroot" ] || return 0
    find "$2" -type l -print0 | while IFS= read -r -d '' link; do
        rel=${link#"$2"/}
        target=$(readlink "$link")
        if [ "$target" = "$execroot/$1/$rel" ]; then
            rm -f "$link"
            cp -R "$target" "$link"
        fi
    done
}

# One input (EXEC_PATH) at DEST: a file as a hard link (else a copy) of what it names, a folder by copy_tree.
stage() {
    mkdir -p "$(dirname "$2")"
    if [ -d "$1" ]; then
        copy_tree "$1" "$2"
    else
        ln -L "$1" "$2" 2>/dev/null || cp -L "$1" "$2"
    fi
}

stage_list() {
    local rel source
    while IFS= read -r rel && IFS= read -r source; do
        stage "$source" "$1/$rel"
    done <"$2"
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
        inputs=$3
        format=$4
        profile=$5
        shift 5
        find_execroot "$inputs"
        stage_list "$work/in" "$inputs"
        # From the staging folder, so that diagnostics name the manifest by its path in the package.
        cd "$work/in"
        if [ -n "$profile" ]; then
            "$odrpack" validate "$manifest" --format "$format" --profile "$profile" --input-root "$work/in" --quiet
        fi
        run "$odrpack" build "$manifest" --no-cache --progress never --input-root "$work/in" --output "$work/out" "$@"
        # The build folder without its lock file, times and modes kept (a folder pack's are part of the pack).
        rm -f "$work/out/.odrpack.lock"
        mkdir -p "$out"
        cp -pR "$work/out/." "$out/"
        ;;
    validate)
        log=$(absolute "$1")
        status_file=$(absolute "$2")
        manifest=$3
        inputs=$4
        shift 4
        find_execroot "$inputs"
        stage_list "$work/in" "$inputs"
        cd "$work/in"
        status=0
        "$odrpack" validate "$manifest" --input-root "$work/in" "$@" >"$work/log" 2>&1 || status=$?
        cp "$work/log" "$log"
        echo "$status" >"$status_file"
        ;;
    ipa)
        out=$(absolute "$1")
        app=$2
        build_dir=$3
        shift 3
        find_execroot "$build_dir"
        find_execroot "$build_dir/odrpack-manifest.json"
        name=$(basename "$app")
        mkdir -p "$work/in/app"
        stage "$app" "$work/in/app/$name"
        stage "$build_dir" "$work/in/packs"
        run "$odrpack" ipa "$work/in/app/$name" "$work/in/packs" --input-root "$work/in" --output "$work/out.ipa" \
            --progress never "$@"
        cp "$work/out.ipa" "$out"
        ;;
    *)
        echo "odrpack_run.sh: unknown mode '$mode' (build, validate or ipa)" >&2
        exit 64
        ;;
esac
