#!/usr/bin/env python3
"""Fails when a Rust file is over MAX_FILE lines or a function over MAX_FN lines.

Usage: check-sizes.py DIR...  (CI: host/src host/cli/src)

A file is counted whole (its unit tests too: a file that needs more tests than
fit is two concepts). A function is counted from its `fn` line to the closing
brace at the same indentation; a one-line signature's body and a multi-line one
alike. The limits are issue 39's: a file a reader holds in mind, a function a
screen or two.
"""

import pathlib
import re
import sys

MAX_FILE = 450
MAX_FN = 80

FN = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)")


def functions(lines):
    """(name, first line number, length) of every fn with a body."""
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        indent = m.group(1)
        # The body starts at the first line ending in `{` (after the signature);
        # a declaration ending in `;` has none.
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith("{"):
            if lines[j].rstrip().endswith(";"):
                break
            j += 1
        if j >= len(lines) or not lines[j].rstrip().endswith("{"):
            continue
        if lines[j].rstrip().endswith(";"):
            continue
        close = indent + "}"
        for k in range(j + 1, len(lines)):
            if lines[k].rstrip() == close:
                yield m.group(2), i + 1, k - i + 1
                break


def main(dirs):
    problems = []
    files = 0
    for d in dirs:
        for path in sorted(pathlib.Path(d).rglob("*.rs")):
            files += 1
            lines = path.read_text(encoding="utf-8").splitlines()
            if len(lines) > MAX_FILE:
                problems.append(f"{path}: {len(lines)} lines (at most {MAX_FILE})")
            for name, start, length in functions(lines):
                if length > MAX_FN:
                    problems.append(
                        f"{path}:{start}: fn {name} is {length} lines (at most {MAX_FN})"
                    )
    for p in problems:
        print(p)
    print(f"{len(problems)} over the limits in {files} files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["host/src", "host/cli/src"]))
