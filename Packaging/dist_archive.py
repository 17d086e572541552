#!/usr/bin/env python3
"""Writes a release archive whose bytes depend only on its files (docs/install.md#release-archives).

    dist_archive.py STAGE_DIR OUTPUT.tar.gz EPOCH

STAGE_DIR is the archive's one top folder (`odrpack-<version>-<target>`); OUTPUT gets a `.sha256` beside it in
sha256sum's form (`<hex>  <file name>` and a newline). Entries are sorted by path, each folder before what it holds;
owner and group are 0 with no names; every time is EPOCH; modes are 0755 for folders and executables, 0644 for the
rest, whatever the umask made; gzip stores no file name and no time. Python's tarfile and gzip write the same bytes on
Linux and macOS, where GNU tar and bsdtar would differ.
"""
import gzip
import hashlib
import io
import os
import stat
import sys
import tarfile


def entries(stage):
    """(archive name, path on disk) for the top folder and everything below it, sorted by name bytes."""
    top = os.path.basename(os.path.normpath(stage))
    found = [(top, stage)]
    for folder, subfolders, files in os.walk(stage):
        for name in subfolders + files:
            path = os.path.join(folder, name)
            found.append((top + "/" + os.path.relpath(path, stage).replace(os.sep, "/"), path))
    return sorted(found, key=lambda item: item[0].encode("utf-8", "surrogateescape"))


def tar_bytes(stage, epoch):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for name, path in entries(stage):
            status = os.lstat(path)
            info = tarfile.TarInfo(name)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = epoch
            if stat.S_ISDIR(status.st_mode):
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                archive.addfile(info)
            elif stat.S_ISREG(status.st_mode):
                info.mode = 0o755 if status.st_mode & 0o111 else 0o644
                info.size = status.st_size
                with open(path, "rb") as file:
                    archive.addfile(info, file)
            else:
                sys.exit(f"dist_archive.py: {path} is neither a file nor a folder: a release archive holds only those")
    return buffer.getvalue()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: dist_archive.py STAGE_DIR OUTPUT.tar.gz EPOCH")
    stage, output, epoch = sys.argv[1], sys.argv[2], int(sys.argv[3])
    compressed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=compressed, mtime=0) as stream:
        stream.write(tar_bytes(stage, epoch))
    data = compressed.getvalue()
    temporary = output + ".tmp"
    with open(temporary, "wb") as file:
        file.write(data)
    os.replace(temporary, output)
    with open(output + ".sha256", "w") as file:
        file.write(f"{hashlib.sha256(data).hexdigest()}  {os.path.basename(output)}\n")


if __name__ == "__main__":
    main()
