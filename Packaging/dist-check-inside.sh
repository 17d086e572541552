#!/bin/bash
# Run by Packaging/dist-check.sh inside the minimal Debian 12 root: check.sh without-curl|with-curl NAME.
set -euo pipefail
phase=$1
name=$2
cd /root
fail() { echo "dist-check: FAILED: $*" >&2; exit 1; }
run() { echo "  \$ $*"; "$@"; }

if [ "$phase" = without-curl ]; then
    run sha256sum -c "$name.tar.gz.sha256"
    tops=$(tar -tzf "$name.tar.gz" | cut -d/ -f1 | sort -u)
    [ "$tops" = "$name" ] || fail "the archive holds other top folders than $name/: $tops"
    run tar -xzf "$name.tar.gz"
    for file in bin/odrpack share/man/man1/odrpack.1 share/bash-completion/completions/odrpack \
        share/zsh/site-functions/_odrpack share/fish/vendor_completions.d/odrpack.fish README.md CHANGELOG.md LICENSE; do
        [ -f "$name/$file" ] || fail "the archive has no $name/$file"
    done
fi
bin=/root/$name/bin
export PATH=$bin:$PATH

if [ "$phase" = without-curl ]; then
    echo "  \$ ldd $bin/odrpack"
    ldd "$bin/odrpack" | sed 's/^/    /'
    unexpected=$(ldd "$bin/odrpack" | awk '{ print $1 }' \
        | grep -vE '^(linux-vdso\.so\.1|linux-gate\.so\.1|/lib.*/ld-linux.*\.so\.[0-9]+|lib(c|m|gcc_s|pthread|dl|rt)\.so\.[0-9.]+)$' || true)
    [ -z "$unexpected" ] || fail "the binary needs more than the C library: $unexpected"

    echo "  \$ odrpack --version"
    version=$(odrpack --version)
    echo "    $version"
    case "$version" in "odrpack "[0-9]*) ;; *) fail "--version printed '$version'" ;; esac

    # init on a folder of resources, then plan what it wrote once the bundle id is set.
    mkdir -p fresh && cp -a sample/Resources fresh/Resources
    (cd fresh && run odrpack init Resources)
    sed -i 's/^bundle-id:.*/bundle-id: com.example.fresh/' fresh/odrpack.yml
    (cd fresh && run odrpack plan > /dev/null)

    cd sample
    run odrpack plan odrpack.yml > /dev/null
    run odrpack validate odrpack.yml
    run odrpack build odrpack.yml --output /root/out1 --progress never
    run odrpack verify /root/out1
    edited=$(find Resources/Levels/Level2 -type f | sort | head -n 1)
    echo "one more line" >> "$edited"
    run odrpack build odrpack.yml --output /root/out2 --progress never
    run odrpack verify /root/out2
    run odrpack diff /root/out1 /root/out2 > /root/diff.txt
    status=0; odrpack diff /root/out1 /root/out2 --exit-code > /dev/null || status=$?
    [ "$status" = 1 ] || fail "diff --exit-code of two different builds exited $status, not 1"
    run odrpack report odrpack.yml --output /root/report.html
    grep -q '<html' /root/report.html || fail "report wrote no HTML page"
    run odrpack build odrpack.yml --format background-assets \
        --ba-package 'ba-package-standin {manifest} -o {output}' --output /root/ba --progress never
    run odrpack verify /root/ba
    cd /root

    cp -a Bamboo.app Thin.app
    run odrpack thin Thin.app /root/out1
    [ -f Thin.app/OnDemandResources.plist ] || fail "thin put no OnDemandResources.plist in the app"
    [ ! -e Thin.app/Levels/Level1 ] || fail "thin left the level1 pack's files in the app"
    run odrpack ipa Bamboo.app /root/out1 --output /root/Bamboo.ipa
    [ "$(head -c 2 Bamboo.ipa)" = PK ] || fail "ipa wrote no zip"

    echo "  \$ source the bash completion"
    bash -c "source /root/$name/share/bash-completion/completions/odrpack && complete -p odrpack" \
        | grep -q odrpack || fail "the bash completion registers nothing for odrpack"
    head -n 1 "/root/$name/share/zsh/site-functions/_odrpack" | grep -q '^#compdef odrpack' \
        || fail "the zsh completion does not start with #compdef odrpack"
    grep -qE "^complete -c '?odrpack'? " "/root/$name/share/fish/vendor_completions.d/odrpack.fish" \
        || fail "the fish completion completes nothing for odrpack"

    echo "  \$ odrpack upload /root/ba --all --dry-run   (no libcurl here)"
    status=0; odrpack upload /root/ba --all --dry-run > /root/upload.out 2> /root/upload.err || status=$?
    sed 's/^/    /' /root/upload.err
    [ "$status" = 2 ] || fail "upload without libcurl exited $status, not 2"
    grep -qF "upload needs libcurl: install libcurl4 (Debian, Ubuntu) or curl (Fedora, Alpine)" /root/upload.err \
        || fail "upload without libcurl did not say what to install"
else
    echo "  \$ man -l $name/share/man/man1/odrpack.1"
    man -l -P cat "$name/share/man/man1/odrpack.1" > /root/man.txt 2>/dev/null
    for section in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
        grep -q "$section" /root/man.txt || fail "the man page has no $section section"
    done
    run odrpack upload /root/ba --all --dry-run
    odrpack upload /root/ba --all --dry-run --json > /root/upload.json
    grep -q '"would-upload"' /root/upload.json || fail "upload --dry-run --json lists no pack it would upload"
fi
echo "  $phase: passed"
