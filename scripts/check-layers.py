#!/usr/bin/env python3
"""Fails when a crate's modules import each other in a circle, or a library module
imports what docs/DESIGN.md's map says it must not (its "must not import" column).

Reads every `use crate::...` / `use super::...` of a source tree and every `crate::a::b`
path written inline in code (test modules and comments left out), resolves each path to
the deepest module file it names, and prints the strongly connected components of more
than one module, then every import the map forbids (for `host/src`). A doc link is not
an import.

    scripts/check-layers.py host/src host/cli/src
"""
import os
import re
import sys


def imports(root):
    files={}
    for d,_,fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'): files[os.path.join(d,f)]=None
    def modpath(p):
        rel=os.path.relpath(p,root)[:-3].split('/')
        if rel[-1] in ('mod','lib','main'): rel=rel[:-1]
        return rel
    mods={tuple(modpath(p)):p for p in files}
    def resolve(parts):
        for i in range(len(parts),0,-1):
            if tuple(parts[:i]) in mods: return tuple(parts[:i])
        return None
    edges={}
    for p in files:
        src=open(p).read()
        src=re.sub(r'#\[cfg\(test\)\]\s*mod tests \{.*','',src,flags=re.S)
        me=tuple(modpath(p))
        out=set()
        for m in re.finditer(r'^\s*(?:pub(?:\([^)]*\))? )?use ([^;]+);',src,flags=re.M):
            txt=m.group(1)
            # expand simple braces at top level roughly: take prefix paths
            for path in re.findall(r'((?:crate|super|self)(?:::[A-Za-z_]+)+)',txt):
                parts=path.split('::')
                base=list(me)
                if parts[0]=='crate': base=[]; parts=parts[1:]
                elif parts[0]=='self': parts=parts[1:]
                while parts and parts[0]=='super':
                    base=base[:-1]; parts=parts[1:]
                # brace groups: "super::{a, b}" handled by findall only up to '{'
                tgt=resolve(base+parts)
                if tgt and tgt!=me and not (len(tgt)<len(me) and me[:len(tgt)]==tgt): out.add(tgt)
            for grp in re.finditer(r'((?:crate|super)(?:::[A-Za-z_]+)*)::\{([^{}]*)\}',txt):
                pre=grp.group(1).split('::'); base=list(me)
                if pre[0]=='crate': base=[]; pre=pre[1:]
                while pre and pre[0]=='super': base=base[:-1]; pre=pre[1:]
                for item in grp.group(2).split(','):
                    item=item.strip().split('::')
                    tgt=resolve(base+pre+[x for x in item if x])
                    if tgt and tgt!=me and not (len(tgt)<len(me) and me[:len(tgt)]==tgt): out.add(tgt)
        # Paths written inline (`crate::builtin::of_path(…)`), outside comments.
        code=re.sub(r'(?<![:"])//[^\n]*','',src)
        for m in re.finditer(r'(?<![\w:])crate((?:::[A-Za-z_]\w*)+)',code):
            tgt=resolve(m.group(1).split('::')[1:])
            if tgt and tgt!=me and not (len(tgt)<len(me) and me[:len(tgt)]==tgt): out.add(tgt)
        # … and `super::a::B` written inline (a bindgen `with:` naming a type of a
        # sibling module is an import too).
        for m in re.finditer(r'(?<![\w:])((?:super::)+)([A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)',code):
            base=list(me)
            for _ in range(m.group(1).count('super')): base=base[:-1]
            tgt=resolve(base+m.group(2).split('::'))
            if tgt and tgt!=me and not (len(tgt)<len(me) and me[:len(tgt)]==tgt): out.add(tgt)
        edges[me]=out
    return edges


def cycles(edges):
    # tarjan
    idx={};low={};st=[];on=set();res=[];c=[0]
    sys.setrecursionlimit(10000)
    def sc(v):
        idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in edges.get(v,()):
            if w not in idx: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v:break
            if len(comp)>1: res.append(comp)
    for v in edges:
        if v not in idx: sc(v)
    return res, len(edges)


def layers(design):
    """The map's rows: (top-level modules of the row, modules they must not import)."""
    rows = []
    for line in open(design):
        # Cells split on `|` not escaped (`a \| b` stays in its cell).
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = {n.rstrip("/") for n in re.findall(r"`([a-z_]+/?)`", cells[0])}
        rows.append((names, cells[2]))
    table = []
    for i, (names, banned) in enumerate(rows):
        if banned.startswith("anything above"):
            above = set().union(*(n for n, _ in rows[i + 1:]))
        else:
            above = {b.strip() for b in banned.split(",") if re.fullmatch(r"[a-z_]+", b.strip())}
        table.append((names, above))
    return table


def forbidden(edges, table):
    """Every import of a module into one its row must not import."""
    found = []
    for me, targets in edges.items():
        for names, banned in table:
            if not me or me[0] not in names:
                continue
            for tgt in sorted(targets):
                if tgt[0] in banned:
                    found.append(f"{'::'.join(me)} imports {'::'.join(tgt)}")
    return found


def main():
    failed = False
    here = os.path.dirname(os.path.abspath(__file__))
    design = os.path.join(here, "..", "docs", "DESIGN.md")
    for root in sys.argv[1:] or ["host/src"]:
        edges = imports(root)
        found, count = cycles(edges)
        for comp in found:
            print(f"{root}: circle: " + " <-> ".join("::".join(m) for m in comp))
            failed = True
        print(f"{root}: {len(found)} circles among {count} modules")
        if os.path.normpath(root) == os.path.normpath("host/src"):
            table = layers(design)
            wrong = forbidden(edges, table)
            for line in wrong:
                print(f"{root}: the map forbids: {line}")
            failed = failed or bool(wrong)
            print(f"{root}: {len(wrong)} imports the map forbids ({len(table)} layers read)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
