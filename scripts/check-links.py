#!/usr/bin/env python3
"""Checks the relative links of the documentation: README.md, docs/*.md and the
guide's pages (docs/guide/src/**/*.md).

Every relative link (`[text](path)`, `[text](path#anchor)`, `[text](#anchor)`,
reference definitions, `href=`/`src=` in HTML, and mdBook's `{{#include path}}`)
must name a file or directory that exists, and an `#anchor` into a Markdown file
must name one of its headings as GitHub spells them: the heading's text in lower
case, spaces become `-`, punctuation other than `-` and `_` is dropped, and a
repeated heading gets `-1`, `-2`, …  Links with a scheme (https:, mailto:) are not
followed. Exits 1 listing every broken link, 0 when there is none.

Usage: scripts/check-links.py [FILE.md ...]   (default: the files above)
"""

import re
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*(?:\s#+\s*)?$")
SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# [text](target) or ![alt](target); the target may be <…> and may carry a title.
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ATTR = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
HTML_ANCHOR = re.compile(r"""<a\s[^>]*\b(?:name|id)\s*=\s*["']([^"']+)["']""")
HTML_ID = re.compile(r"""<[a-zA-Z][^>]*\bid\s*=\s*["']([^"']+)["']""")
INCLUDE = re.compile(r"\{\{#(?:include|rustdoc_include|playground)\s+([^}\s]+)[^}]*\}\}")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def default_files():
    files = [ROOT / "README.md"]
    files += sorted((ROOT / "docs").glob("*.md"))
    files += sorted((ROOT / "docs" / "guide" / "src").rglob("*.md"))
    return [f for f in files if f.is_file()]


def lines_outside_code(text):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                continue
            yield number, line
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                and not line.strip()[len(m.group(1)):].strip():
            fence = None


def heading_text(raw):
    """The text GitHub renders for a heading's Markdown."""
    text = INLINE_LINK.sub(lambda m: m.group(1), raw)
    text = re.sub(r"<[^>]+>", "", text)
    text = INLINE_CODE.sub(lambda m: m.group(2), text)
    return text.replace("*", "")


def slug(text):
    text = heading_text(text).strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


_anchors = {}


def anchors(path):
    """Every anchor a Markdown file defines."""
    if path in _anchors:
        return _anchors[path]
    found, seen = set(), {}
    previous = ""
    for _, line in lines_outside_code(path.read_text(encoding="utf-8")):
        title = None
        m = ATX.match(line)
        if m:
            title = m.group(2)
        elif SETEXT.match(line) and previous.strip() and not previous.lstrip().startswith(
                ("|", "-", "*", "#", ">", "```")):
            title = previous.strip()
        if title is not None:
            base = slug(title)
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        for rx in (HTML_ANCHOR, HTML_ID):
            for a in rx.findall(line):
                found.add(a)
        previous = line
    _anchors[path] = found
    return found


def targets(text):
    """(line number, target) of every link in the Markdown text."""
    for number, line in lines_outside_code(text):
        for m in INCLUDE.finditer(line):
            yield number, m.group(1), True
        stripped = INLINE_CODE.sub("", line)
        m = REF_DEF.match(stripped)
        if m:
            yield number, m.group(1), False
        for m in INLINE_LINK.finditer(stripped):
            yield number, m.group(2), False
        for m in HTML_ATTR.finditer(stripped):
            yield number, m.group(1), False


def check(path):
    broken = []
    text = path.read_text(encoding="utf-8")
    for number, target, include in targets(text):
        target = target.strip("<>")
        if not target or SCHEME.match(target):
            continue
        where = f"{path.relative_to(ROOT)}:{number}: {target}"
        if include:
            file_part, anchor = target.split(":", 1)[0], None
        else:
            file_part, _, anchor = target.partition("#")
        file_part = urllib.parse.unquote(file_part)
        if file_part:
            if file_part.startswith("/"):
                broken.append(f"{where} — an absolute path (GitHub and mdBook read it differently)")
                continue
            resolved = (path.parent / file_part).resolve()
            try:
                resolved.relative_to(ROOT)
            except ValueError:
                broken.append(f"{where} — outside the repository")
                continue
            if not resolved.exists():
                broken.append(f"{where} — no such file or directory")
                continue
        else:
            resolved = path
        if anchor and resolved.is_file() and resolved.suffix == ".md":
            if anchor not in anchors(resolved):
                broken.append(f"{where} — no heading #{anchor} in {resolved.relative_to(ROOT)}")
    return broken


def main(argv):
    files = [Path(a).resolve() for a in argv] or default_files()
    broken = []
    for f in files:
        broken += check(f)
    for b in broken:
        print(b)
    print(f"check-links: {len(files)} files, {len(broken)} broken link(s)", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
