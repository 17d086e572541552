#!/usr/bin/env bash
# make dist-check: the release archive as a user meets it (docs/install.md#dist-check). A minimal Debian 12 root file
# system (debootstrap --variant=minbase, made once and kept under .build/dist-check), a fresh copy of it per run, the
# archive unpacked there and checked against its .sha256, then, chrooted: every command on a copy of the sample, the
# completions, and `upload --dry-run` without libcurl (it must say what to install); the binary under a loader whose
# C library stops at glibc 2.34, the floor; then libcurl and man-db are installed in the root and `man -l` and
# `upload --dry-run` run against the tests' App Store Connect stand-in, which listens on 127.0.0.1 outside the
# chroot. Linux, as root.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -s)" = Linux ] || { echo "dist-check: runs on Linux (the macOS archive is checked by the release workflow)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "dist-check: needs root (debootstrap and chroot)" >&2; exit 1; }
target=$(sh Packaging/target.sh)
archive=$(ls -t dist/odrpack-*-"$target".tar.gz 2>/dev/null | head -n 1)
[ -n "$archive" ] || { echo "dist-check: no dist/odrpack-*-$target.tar.gz: run make dist" >&2; exit 1; }
name=$(basename "$archive" .tar.gz)
echo "dist-check: $archive"

cache=.build/dist-check
base=$cache/debian12-minbase
if [ ! -f "$base/.odrpack-complete" ]; then
    if ! command -v debootstrap >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
    fi
    echo "dist-check: making a minimal Debian 12 root in $base (once)"
    rm -rf "$base.partial"
    mkdir -p "$cache"
    debootstrap --variant=minbase bookworm "$base.partial" > "$cache/debootstrap.log" 2>&1 \
        || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
    touch "$base.partial/.odrpack-complete"
    rm -rf "$base" && mv "$base.partial" "$base"
fi

root=$cache/root
server=
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    for mount in "$root/proc" "$root/dev"; do
        mountpoint -q "$mount" 2>/dev/null && umount -l "$mount"
    done
    return 0
}
trap cleanup EXIT
cleanup
rm -rf "$root"
cp -a "$base" "$root"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"

# What the checks inside use: the archive and its checksum, the sample, an app for thin and ipa, the stand-in packager.
cp "$archive" "$archive.sha256" "$root/root/"
cp -a SampleProject "$root/root/sample"
rm -rf "$root/root/sample/build"
cp Tests/BackgroundAssets/ba-package-standin "$root/usr/local/bin/ba-package-standin"
cp Packaging/dist-check-inside.sh "$root/root/check.sh"
app=$root/root/Bamboo.app
mkdir -p "$app"
cp -a SampleProject/Resources/. "$app/"
printf '#!/bin/sh\necho bamboo\n' > "$app/Bamboo" && chmod 755 "$app/Bamboo"
cat > "$app/Info.plist" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleExecutable</key>
	<string>Bamboo</string>
	<key>CFBundleIdentifier</key>
	<string>com.example.bamboo</string>
</dict>
</plist>
PLIST

# An App Store Connect API key made for this run: upload finds its key before it needs the network.
keys=$cache/keys
rm -rf "$keys" && mkdir -p "$keys"
python3 - "$keys" <<'PY'
import sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
key = ec.generate_private_key(ec.SECP256R1())
open(sys.argv[1] + "/AuthKey_DISTCHECK1.p8", "wb").write(key.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
open(sys.argv[1] + "/public.pem", "wb").write(key.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
PY
echo '{"apps": [{"id": "1234567890", "bundleId": "com.example.bamboo"}], "partSize": 100}' > "$keys/config.json"
cp "$keys/AuthKey_DISTCHECK1.p8" "$root/root/"
asc_env=(ASC_KEY_ID=DISTCHECK1 ASC_ISSUER_ID=69a6de70-0000-47e3-e053-5b8c7c11a4d1
    ASC_PRIVATE_KEY_PATH=/root/AuthKey_DISTCHECK1.p8)

echo "dist-check: phase 1, a minimal Debian 12 without libcurl"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "${asc_env[@]}" ODRPACK_ASC_API=http://127.0.0.1:9 /bin/bash /root/check.sh without-curl "$name"

# The floor (docs/install.md#what-the-linux-binary-needs-the-c-library): this machine's C library, copied with every
# version above glibc 2.34 renamed, so that its loader judges the binary as RHEL 9's would; --version and plan run so.
echo "dist-check: the binary on a C library whose versions stop at glibc 2.34"
floor=$cache/floor-libc
rm -rf "$floor"
binary=$root/root/$name/bin/odrpack
loader=$(python3 Packaging/linux_floor.py --c-library-at-floor "$binary" "$floor")
for arguments in "--version" "plan $root/root/sample/odrpack.yml"; do
    echo "  \$ odrpack $arguments"
    # shellcheck disable=SC2086 # the arguments are split on purpose
    if ! "$loader" --library-path "$floor" "$binary" $arguments > "$cache/floor.out" 2>&1; then
        sed 's/^/    /' "$cache/floor.out" >&2
        echo "dist-check: FAILED: the binary does not run on glibc 2.34" >&2
        exit 1
    fi
    head -n 1 "$cache/floor.out" | sed 's/^/    /'
done

echo "dist-check: installing libcurl4 and man-db in the root"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    /bin/sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends libcurl4 man-db >/dev/null'

# The App Store Connect stand-in (Tests/AppStoreConnect), on 127.0.0.1 outside the root.
python3 Tests/AppStoreConnect/standin.py --state "$keys/state" --public-key "$keys/public.pem" --key-id DISTCHECK1 \
    --issuer 69a6de70-0000-47e3-e053-5b8c7c11a4d1 --config "$keys/config.json" > "$keys/port" 2> "$keys/standin.log" &
server=$!
for _ in $(seq 100); do grep -q '^port ' "$keys/port" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/^port //p' "$keys/port")
[ -n "$port" ] || { echo "dist-check: the App Store Connect stand-in did not start:" >&2; cat "$keys/standin.log" >&2; exit 1; }

echo "dist-check: phase 2, with libcurl and man-db"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "${asc_env[@]}" ODRPACK_ASC_API="http://127.0.0.1:$port" \
    /bin/bash /root/check.sh with-curl "$name"
echo "dist-check: passed ($name on Debian 12 minbase)"
