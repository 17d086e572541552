#!/bin/sh
# The release target name for a machine (docs/install.md#release-archives): `target.sh [OS MACHINE]`, by default
# this machine's `uname -s` and `uname -m`. These are the names mise, aqua and ubi pick by themselves.
os=${1:-$(uname -s)}
machine=${2:-$(uname -m)}
case "$os-$machine" in
    Linux-x86_64 | Linux-amd64) echo x86_64-unknown-linux-gnu ;;
    Linux-aarch64 | Linux-arm64) echo aarch64-unknown-linux-gnu ;;
    Darwin-arm64 | Darwin-x86_64) echo universal-apple-darwin ;;
    *) echo "no odrpack release target for $os $machine (Linux x86_64 or aarch64, macOS)" >&2; exit 1 ;;
esac
