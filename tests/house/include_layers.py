"""reference/'s folders include downward only (docs/architecture.md, "Layout"): the graph of
#include "folder/..." edges between reference/'s top-level folders has no cycle. Prints the edges
read and, for a cycle, the files that make each of its edges. Run: python3 include_layers.py ROOT"""

import os
import re
import sys
from collections import defaultdict

root = os.path.join(sys.argv[1], "reference")
folders = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}
edges = defaultdict(lambda: defaultdict(list))  # folder -> folder it includes -> files
files = 0
for here, _, names in os.walk(root):
    for name in names:
        if not name.endswith((".cpp", ".hpp")):
            continue
        files += 1
        path = os.path.join(here, name)
        source = os.path.relpath(path, root).split(os.sep)[0]
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r'\s*#\s*include\s+"([^/"]+)/', line)
                if m and m.group(1) in folders and m.group(1) != source:
                    edges[source][m.group(1)].append(os.path.relpath(path, root))


def cycle_from(start):
    """A path start -> ... -> start through the edges, or None."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in edges[node]:
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


count = sum(len(t) for t in edges.values())
def canonical(c):
    """A cycle a -> b -> a as the rotation that starts at its smallest folder (one per cycle)."""
    ring = c[:-1]
    at = ring.index(min(ring))
    return tuple(ring[at:] + ring[:at] + [ring[at]])


cycles = {canonical(c) for c in (cycle_from(f) for f in sorted(folders)) if c}
for c in sorted(cycles):
    print("cycle: " + " -> ".join(c))
    for a, b in zip(c, c[1:]):
        print(f"  {a} -> {b}: " + ", ".join(sorted(edges[a][b])[:4]))
print(f"include layers: {files} files, {len(folders)} folders, {count} folder edges, {len(cycles)} cycles")
sys.exit(1 if cycles else 0)
