#!/usr/bin/env python3
"""Writes a stand-in release archive for developing the Action before `make dist` exists.

    standin_dist.py BINARY OUTPUT_DIR

Same name and layout as `make dist` (SPEC section 14): OUTPUT_DIR/odrpack-<version>-<target>.tar.gz, one folder
odrpack-<version>-<target>/ with bin/odrpack, and its .sha256 in sha256sum's form. <version> is the word after
`odrpack` in `BINARY --version`; <target> is this machine's. Only bin/odrpack is put in: the Action
needs nothing else. `make test-action` itself tests `make dist`'s real archives.
"""
import hashlib
import io
import os
import platform
import subprocess
import sys
import tarfile


def host_target():
    system, machine = platform.system(), platform.machine().lower()
    if system == "Darwin":
        return "universal-apple-darwin"
    if system == "Linux" and machine in ("x86_64", "amd64"):
        return "x86_64-unknown-linux-gnu"
    if system == "Linux" and machine in ("aarch64", "arm64"):
        return "aarch64-unknown-linux-gnu"
    sys.exit(f"standin_dist.py: no release target for {system} {machine}")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: standin_dist.py BINARY OUTPUT_DIR")
    binary, output = sys.argv[1], sys.argv[2]
    words = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.split()
    if len(words) < 2 or words[0] != "odrpack":
        sys.exit(f"standin_dist.py: {binary} --version printed {' '.join(words)!r}")
    version = words[1]
    folder = f"odrpack-{version}-{host_target()}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name in (folder, f"{folder}/bin"):
            info = tarfile.TarInfo(name)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            archive.addfile(info)
        info = tarfile.TarInfo(f"{folder}/bin/odrpack")
        info.mode, info.size = 0o755, os.path.getsize(binary)
        with open(binary, "rb") as file:
            archive.addfile(info, file)
    os.makedirs(output, exist_ok=True)
    path = os.path.join(output, folder + ".tar.gz")
    with open(path, "wb") as file:
        file.write(buffer.getvalue())
    with open(path + ".sha256", "w") as file:
        file.write(f"{hashlib.sha256(buffer.getvalue()).hexdigest()}  {os.path.basename(path)}\n")
    print(path)


if __name__ == "__main__":
    main()
