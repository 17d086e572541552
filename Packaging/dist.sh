#!/usr/bin/env bash
# make dist: the release archive for this machine, dist/odrpack-<version>-<target>.tar.gz and its .sha256
# (docs/install.md#release-archives). Linux: the Swift runtime, Foundation with its ICU data, libdeflate, zlib and
# libstdc++ are linked in, so the binary needs nothing but the C library and libgcc_s (libcurl is loaded by `upload`
# alone, when it runs), and Packaging/linux_floor.py refuses a binary that asks for more than glibc 2.34. macOS:
# one universal binary (arm64 and x86_64); the Swift runtime is part of the OS.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

# Times from SOURCE_DATE_EPOCH, else the commit's time (reproducible builds' convention); decided before the build,
# so a copy without either stops at once instead of stamping every entry 1970. Only this folder's own .git counts:
# a copy unpacked inside another repository must not take that repository's time.
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    case "$SOURCE_DATE_EPOCH" in
        *[!0-9]*) echo "dist: SOURCE_DATE_EPOCH='$SOURCE_DATE_EPOCH' is not a number of seconds since 1970" >&2; exit 1 ;;
    esac
    epoch=$SOURCE_DATE_EPOCH
elif [ -e .git ] && epoch=$(git log -1 --format=%ct 2>/dev/null) && [ -n "$epoch" ]; then
    :
else
    echo "dist: no time for the archive's entries: this copy has no git history and SOURCE_DATE_EPOCH is unset;" \
        "set SOURCE_DATE_EPOCH (seconds since 1970, e.g. the release commit's: git log -1 --format=%ct)" \
        "or run make dist in a git checkout" >&2
    exit 1
fi

target=$(sh Packaging/target.sh)

if [ "$(uname -s)" = Darwin ]; then
    $SWIFT build -c release --product odrpack --arch arm64 --arch x86_64
    binary=$($SWIFT build -c release --product odrpack --arch arm64 --arch x86_64 --show-bin-path)/odrpack
else
    # The linker takes the first libdeflate/libz/libstdc++ it finds along -L, and prefers a shared library only
    # within one folder: a folder holding just the static archives, searched first, links them in. libstdc++ (the
    # runtime's and Foundation's C++, `-lstdc++` of the static runtime's link flags) linked in is what lets the binary
    # run where the system's libstdc++ is older than the build machine's (GCC 11's on RHEL 9).
    static=.build/dist-static-libs
    mkdir -p "$static"
    for library in libdeflate libz libstdc++; do
        archive=$(for folder in $(${CC:-cc} -print-search-dirs | sed -n 's/^libraries: =//p' | tr : ' '); do
            [ -f "$folder/$library.a" ] && echo "$folder/$library.a" && break; done || true)
        [ -n "$archive" ] || { echo "dist: $library.a not found (make deps installs libdeflate-dev and zlib1g-dev;" \
            "libstdc++.a is GCC's libstdc++-NN-dev, which Swift's Linux install needs)" >&2; exit 1; }
        ln -sf "$(realpath "$archive")" "$static/$library.a"
    done
    $SWIFT build -c release --product odrpack --static-swift-stdlib -Xlinker -L"$PWD/$static" \
        --scratch-path .build/dist
    binary=.build/dist/release/odrpack
    # The README's floor, checked on what the linker made: every glibc symbol version at most 2.34, no libstdc++.
    python3 Packaging/linux_floor.py "$binary"
fi

version=$("$binary" --version | awk 'NR == 1 { print $2 }')
case "$version" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) echo "dist: '$binary --version' gave no version" >&2; exit 1 ;;
esac
name=odrpack-$version-$target
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/odrpack"
strip_tool=$(command -v strip || true)
[ -z "$strip_tool" ] || [ "$(uname -s)" = Darwin ] || "$strip_tool" "$root/bin/odrpack"
"$root/bin/odrpack" --generate-completion-script bash > "$root/share/bash-completion/completions/odrpack"
"$root/bin/odrpack" --generate-completion-script zsh > "$root/share/zsh/site-functions/_odrpack"
"$root/bin/odrpack" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/odrpack.fish"
install -m 0644 docs/odrpack.1 "$root/share/man/man1/odrpack.1"
install -m 0644 README.md CHANGELOG.md LICENSE "$root/"

mkdir -p dist
# dist/ holds this build's archive for the target: an older version's would be picked up beside it.
rm -f dist/odrpack-*-"$target".tar.gz dist/odrpack-*-"$target".tar.gz.sha256
python3 Packaging/dist_archive.py "$root" "dist/$name.tar.gz" "$epoch"
echo "Wrote dist/$name.tar.gz ($(wc -c < "dist/$name.tar.gz") bytes) and dist/$name.tar.gz.sha256"
