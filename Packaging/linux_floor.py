#!/usr/bin/env python3
"""linux_floor.py BINARY [OBJDUMP_OUTPUT]: the Linux release binary's floor
(docs/install.md#what-the-linux-binary-needs-the-c-library).

The dynamic loader refuses a binary when a symbol version it names is missing from the system's libraries, so what a
binary needs is the highest version of each library among the symbols it imports, as `objdump -T` lists them, and the
libraries it names (`objdump -p`'s NEEDED). The README promises glibc 2.34 (RHEL 9, Amazon Linux 2023): every GLIBC_
version at most 2.34, libgcc_s at most GCC 7 (GCC 11's has it), and no libstdc++ at all, since `make dist` links it
in. Exit 0 with one line saying what the binary needs, or 1 naming every symbol above the floor and every library
beyond the C library. OBJDUMP_OUTPUT, a file holding `objdump -T -p BINARY`'s output, stands in for running objdump
(the tests plant one).

linux_floor.py --c-library-at-floor BINARY DIR: copies the libraries `ldd BINARY` finds (the C library, libm, the
loader, libgcc_s) into DIR with every GLIBC_ version above 2.34 renamed (GLIBC_2.35 becomes GLIBC_X.35, in the
libraries that define it and those that ask for it alike), and prints DIR's loader. `LOADER --library-path DIR BINARY`
then runs the binary as a glibc 2.34 system's loader would judge it: a version it asks for above the floor is "not
found". `make dist-check` runs the archive's binary so (docs/install.md#make-dist-check-the-archive-as-a-user-meets-it).
"""
import os
import re
import shutil
import subprocess
import sys

# Highest version allowed per version prefix; a prefix listed with None may not appear at all.
FLOOR = {"GLIBC": (2, 34), "GCC": (7, 0, 0), "GLIBCXX": None, "CXXABI": None}
# The libraries a binary at the floor may name: the C library's parts and libgcc_s.
ALLOWED_NEEDED = re.compile(
    r"^(libc|libm|libdl|libpthread|librt|libgcc_s)\.so\.[0-9]+$|^ld-linux[-.a-z0-9_]*\.so\.[0-9]+$")
FIX = (
    "bind a symbol to its older version in Sources/CGlibcFloor, link its library statically in Packaging/dist.sh, "
    "or build on Debian 12 as the release workflow does (docs/install.md#what-the-linux-binary-needs-the-c-library)"
)


def version_key(text):
    return tuple(int(part) for part in text.split("."))


def needs(objdump):
    """The versions the binary imports ({"GLIBC_2.34": ["dlopen", ...]}) and the libraries it names."""
    versions = {}
    needed = []
    for line in objdump.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "NEEDED":
            needed.append(fields[1])
            continue
        if "*UND*" not in fields or len(fields) < 2:
            continue
        version = fields[-2].strip("()")
        if re.fullmatch(r"[A-Z]+_[0-9][0-9.]*", version):
            versions.setdefault(version, []).append(fields[-1])
    return versions, needed


def c_library_at_floor(binary, folder):
    """DIR's loader, after copying BINARY's libraries there with the versions above the floor renamed."""
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    os.makedirs(folder, exist_ok=True)
    loader = None
    for line in ldd.splitlines():
        path = line.split("=>")[-1].split("(")[0].strip()
        if not path.startswith("/"):
            continue
        name = os.path.basename(path)
        if name.startswith("libstdc++"):
            continue
        with open(path, "rb") as file:
            data = file.read()
        # Same length, so no offset in the file moves; the hash beside each name is left as it was, so the loader
        # matches the renamed version only by the renamed name.
        data = re.sub(rb"GLIBC_2\.(3[5-9]|[4-9][0-9])\x00", lambda match: b"GLIBC_X" + match.group(0)[7:], data)
        target = os.path.join(folder, name)
        with open(target, "wb") as file:
            file.write(data)
        shutil.copymode(path, target)
        if name.startswith("ld-linux"):
            loader = target
    if loader is None:
        raise SystemExit(f"linux_floor: ldd {binary} names no loader")
    return loader


def main(arguments):
    if len(arguments) == 3 and arguments[0] == "--c-library-at-floor":
        print(c_library_at_floor(arguments[1], arguments[2]))
        return 0
    if len(arguments) not in (1, 2):
        print("usage: linux_floor.py BINARY [OBJDUMP_OUTPUT]", file=sys.stderr)
        return 64
    binary = arguments[0]
    if len(arguments) == 2:
        with open(arguments[1], encoding="utf-8") as file:
            objdump = file.read()
    else:
        try:
            run = subprocess.run(["objdump", "-T", "-p", binary], capture_output=True, text=True)
        except FileNotFoundError:
            print("linux_floor: objdump not found: install binutils", file=sys.stderr)
            return 1
        if run.returncode != 0:
            print(f"linux_floor: objdump could not read {binary}: {run.stderr.strip()}", file=sys.stderr)
            return 1
        objdump = run.stdout
    versions, needed = needs(objdump)
    if not versions:
        print(f"linux_floor: {binary} imports no versioned symbol: not a dynamically linked glibc binary",
              file=sys.stderr)
        return 1
    highest = {}
    for version in versions:
        prefix, number = version.split("_", 1)
        if prefix not in highest or version_key(number) > version_key(highest[prefix]):
            highest[prefix] = number
    above = []
    for prefix in sorted(highest):
        limit = FLOOR.get(prefix, ())
        if limit is None:
            count = sum(len(set(names)) for version, names in versions.items() if version.split("_", 1)[0] == prefix)
            symbols = "1 symbol" if count == 1 else f"{count} symbols"
            above.append(f"  {prefix}_{highest[prefix]} at most ({symbols}): libstdc++ is not linked in")
            continue
        ours = sorted((v for v in versions if v.split("_", 1)[0] == prefix), key=lambda v: version_key(v.split("_", 1)[1]))
        for version in ours:
            if limit and version_key(version.split("_", 1)[1]) > limit:
                names = sorted(set(versions[version]))
                shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
                above.append(f"  {version}: {shown}")
    extra = [library for library in needed if not ALLOWED_NEEDED.match(library)]
    if above or extra:
        print(f"linux_floor: {binary} needs more than docs/install.md promises, glibc 2.34 (RHEL 9, Amazon Linux 2023) "
              "and no libstdc++:", file=sys.stderr)
        for line in above:
            print(line, file=sys.stderr)
        if extra:
            print(f"  libraries beyond the C library and libgcc_s: {', '.join(extra)}", file=sys.stderr)
        print(f"linux_floor: {FIX}", file=sys.stderr)
        return 1
    summary = ", ".join(f"{prefix}_{highest[prefix]}" for prefix in sorted(highest))
    print(f"linux_floor: {binary} needs {summary} at most ({', '.join(needed)}): at or below the floor, glibc 2.34")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
