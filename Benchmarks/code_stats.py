#!/usr/bin/env python3
"""make stats: the house-plan figures of docs/architecture.md#figures, recomputed from Sources/.

Functions of 60 lines or more (a `func`, `init`, `deinit`, `subscript` or accessor body, from its declaration line to
its closing brace), hand path joins (`+ "/" +`), NSString path calls, string inside-checks (`hasPrefix(… + "/")`),
files that branch on the pack format besides the one exhaustive `switch` per module (`extension PackFormat` with
`switch self`, counted apart), comments that cite SPEC instead of docs/; and the figures renaming cannot meet
(issue 56): `FilePath(` conversions, `slashJoined` text joins and `FileManager` uses outside the platform module,
`preconditionFailure` calls,
string literals of a pack version's state (`"COMPLETE"`, ...) outside the one enum, and error cases whose payload is a
bare `String`.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|"
                         r"final|override|mutating|nonmutating|convenience|required|nonisolated|class)\s+)*"
                         r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b")


def strip_strings_and_comments(line, in_block):
    """The line's code without string literals and comments; whether a /* comment is still open."""
    out, i = [], 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block, i = True, i + 2
        elif line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def long_functions(path, minimum):
    lines = open(path, encoding="utf-8").read().split("\n")
    found, stack, in_block, in_multiline = [], [], False, False
    depth = 0
    for number, raw in enumerate(lines, 1):
        if raw.count('"""') % 2 == 1:
            in_multiline = not in_multiline
            continue
        if in_multiline:
            continue
        code, in_block = strip_strings_and_comments(raw, in_block)
        match = DECLARATION.match(code)
        if match and "{" in code:
            stack.append((depth, number, match.group(1)))
        for character in code:
            if character == "{":
                depth += 1
            elif character == "}":
                depth -= 1
                if stack and depth == stack[-1][0]:
                    start_depth, start, name = stack.pop()
                    length = number - start + 1
                    if length >= minimum:
                        found.append((length, f"{os.path.relpath(path, ROOT)}:{start}", name))
        if match and "{" not in code:
            stack.append((depth, number, match.group(1)))
    return found


def main():
    sources = []
    for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
        sources += [os.path.join(folder, name) for name in files if name.endswith(".swift")]
    sources.sort()
    long, joins, nsstring, inside, formats, switches, spec = [], 0, 0, 0, set(), set(), 0
    conversions, text_joins, file_managers, preconditions, state_literals, string_cases = 0, 0, 0, 0, 0, 0
    precondition_sites = []
    states = r'"(?:AWAITING_UPLOAD|PROCESSING|FAILED|COMPLETE)"'
    for path in sources:
        text = open(path, encoding="utf-8").read()
        outside_platform = os.sep + "ODRPackPlatform" + os.sep not in path
        code = "\n".join(strip_strings_and_comments(line, False)[0] for line in text.split("\n"))
        if outside_platform:
            conversions += len(re.findall(r"\bFilePath\(", code))
            text_joins += len(re.findall(r"\.slashJoined\(", code))
            file_managers += len(re.findall(r"\bFileManager\b", code))
        for number, line in enumerate(code.split("\n"), 1):
            if re.search(r"\bpreconditionFailure\(", line):
                preconditions += 1
                precondition_sites.append(f"{os.path.relpath(path, ROOT)}:{number}")
        state_literals += len(re.findall(states, text))
        if re.search(r"\benum\s+\w*Error\b", text):
            string_cases += len(re.findall(r"^\s*case\s+\w+\((?:\w+:\s*)?String\)\s*$", text, re.M))
        long += long_functions(path, 60)
        joins += len(re.findall(r'\+\s*"/"\s*\+', text))
        nsstring += len(re.findall(r"\b(?:NSString|as NSString)\b.*?\.(?:appendingPathComponent|deletingLastPathComponent|"
                                   r"lastPathComponent|pathExtension|deletingPathExtension|standardizingPath|"
                                   r"expandingTildeInPath|resolvingSymlinksInPath)", text))
        inside += len(re.findall(r'hasPrefix\([^)]*\+\s*"/"\s*\)', text))
        if re.search(r"extension PackFormat\b.*?switch self \{\s*case \.odr:", text, re.S):
            switches.add(os.path.relpath(path, ROOT))
        elif re.search(r"case \.backgroundAssets|== \.backgroundAssets|case \.odr\b|== \.odr\b", text):
            formats.add(os.path.relpath(path, ROOT))
        spec += len(re.findall(r"//.*\bSPEC\b", text))
    rows = [("functions of 60+ lines", len(long)), ("hand path joins (+ \"/\" +)", joins),
            ("NSString path calls", nsstring), ("string inside-checks (hasPrefix(x + \"/\"))", inside),
            ("files that branch on the pack format", len(formats)),
            ("exhaustive pack-format switches", len(switches)), ("comments citing SPEC", spec),
            ("FilePath( conversions outside the platform", conversions),
            ("slashJoined text joins outside the platform", text_joins),
            ("FileManager uses outside the platform", file_managers), ("preconditionFailure calls", preconditions),
            ("version-state string literals", state_literals), ("error cases with a bare String payload", string_cases)]
    for label, value in rows:
        print(f"{label:45} {value}")
    if "-v" in sys.argv:
        for length, where, name in sorted(long, reverse=True):
            print(f"  {length:4} {where} {name}")
        for path in sorted(switches):
            print(f"  switch: {path}")
        for path in sorted(formats):
            print(f"  format: {path}")
        for site in precondition_sites:
            print(f"  preconditionFailure: {site}")


if __name__ == "__main__":
    main()
