#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The shape of src/: no ring of files, no file over the size limit, no call
up the layers (README "Layout", docs/architecture.md).

    tree-check.py BUILD_DIR [SRC_DIR]

From the object files under BUILD_DIR/src (nm: the symbols each defines and
the ones it uses) it draws the file-level call graph, an edge from user to
definer, and fails (exit 1) on:
  - a ring: files that reach each other (a strongly connected component of
    two or more files), printed as the cycle through them;
  - a call up the layers: a file of one folder using a symbol defined in a
    folder of a higher layer (LAYERS below, lowest first), or, in a folder
    with an order of its own (FOLDER_LAYERS), a file using one of a higher
    group of that folder, or a file in none of its groups;
  - a .c file of SRC_DIR/src with more than MAX_LINES lines.
Exit 2 when it cannot run (no objects, no nm)."""

import fnmatch
import os
import subprocess
import sys

MAX_LINES = 1000

# Lowest first. A folder may use folders of its own or a lower layer only.
LAYERS = [
    ["util"],
    ["input"],
    ["state"],
    ["model"],
    ["energy"],
    ["stats", "diff", "replay", "fit"],
    ["output", "record"],
    ["cli"],
]


# Optional order of the files within a folder, lowest first: a file may use
# files of its own group or a lower one. Names are fnmatch() patterns on
# the file's name without ".c"; a file of the folder in no group is a
# problem too, so that a new file gets its place (docs/replay.md "Layout
# of src/replay").
FOLDER_LAYERS = {
    "replay": [
        ["platform", "em", "em-rfc", "em-opp", "cpumap", "topology", "interval"],  # the model's arithmetic
        ["workload", "workload-apart", "pin", "workload-perturb", "act-store"],  # the recording as activations
        ["wake-affine", "select-idle-capacity", "find-idlest"],  # mainline's pieces
        ["select-idle-sibling"],  # shared by policies
        ["policy-*", "governor", "idle"],  # policies, governors, idle states
        ["policy"],  # the policy table
        ["sim-build", "sim-emit", "sim-apart", "sim-pelt", "sim-arrivals", "sim-exit", "sim-load", "sim-eevdf", "lats"],  # the simulator, by mechanism
        ["sim-idle", "sim-freq", "sim-rq", "sim-busy0", "sim-ahead"],
        ["sim-act", "sim-offline"],
        ["sim-balance", "sim-wake"],
        ["sim-pick"],
        ["sim", "sim-init"],  # its loop and setup
        ["pricing"],  # a simulated timeline priced, to a common end
        ["replay", "shadow"],  # one policy's replay; --shadow
        ["runs"],  # more replays, in threads
        ["ensemble", "sensitivity"],  # --ensemble; wakeup energy's share
    ],
}


def file_layer_of(path):
    """(folder, group index or None) of src/FOLDER/NAME.c; None if the
    folder has no order of its own."""
    parts = path.split("/")
    groups = FOLDER_LAYERS.get(parts[1]) if len(parts) == 3 else None
    if groups is None:
        return None
    stem = parts[2][:-2]
    for i, names in enumerate(groups):
        if any(fnmatch.fnmatchcase(stem, n) for n in names):
            return parts[1], i
    return parts[1], None


def layer_of(folder):
    for i, names in enumerate(LAYERS):
        if folder in names:
            return i
    return None


def objects(build):
    root = os.path.join(build, "src")
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".o"):
                out.append(os.path.join(d, f))
    return sorted(out)


def symbols(objs):
    """{object: (defined, undefined)} global symbol sets of the object files.

    One nm for all of them: each nm process loads the linker plugins
    (clang's LLVMgold.so with libLLVM), 0.1 s of CPU a start, 20 s for
    one nm per object."""
    r = subprocess.run(["nm", "-g", "-A", "--"] + objs, capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit("tree-check: nm: %s" % r.stderr.strip())
    out = {o: (set(), set()) for o in objs}
    for line in r.stdout.splitlines():
        obj, _, rest = line.partition(":")  # nm -A: "FILE:VALUE TYPE NAME"
        if obj not in out:
            sys.exit("tree-check: nm printed an unknown file: %s" % line)
        defined, undefined = out[obj]
        parts = rest.split()
        if len(parts) == 2 and parts[0] in ("U", "w", "v"):
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] not in ("U", "w", "v"):
            defined.add(parts[2])
    return out


def rings(graph):
    """Strongly connected components of two or more nodes (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def cycle_in(comp, graph):
    """One cycle through the first file of a ring, for the message."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node]):
            if nxt not in members:
                continue
            if nxt == start:
                path = [node]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                return path + [start]
            if nxt not in prev:
                prev[nxt] = node
                queue.append(nxt)
    return comp


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tree-check.py BUILD_DIR [SRC_DIR]")
    build = sys.argv[1]
    top = sys.argv[2] if len(sys.argv) > 2 else "."
    objs = objects(build)
    if not objs:
        print("tree-check: no object files under %s/src" % build, file=sys.stderr)
        sys.exit(2)
    name = {}
    defs, uses = {}, {}
    syms = symbols(objs)
    for o in objs:
        rel = os.path.relpath(o, os.path.join(build))
        src = rel[:-2] + ".c"
        if not os.path.exists(os.path.join(top, src)):
            continue  # a stale object of a file since removed
        name[o] = src
        defs[src], uses[src] = syms[o]
    definer = {}
    for f in sorted(defs):
        for s in defs[f]:
            definer.setdefault(s, f)
    graph = {f: set() for f in defs}
    why = {}
    for f in sorted(uses):
        for s in sorted(uses[f]):
            d = definer.get(s)
            if d and d != f:
                graph[f].add(d)
                why.setdefault((f, d), s)
    failed = 0
    for comp in rings(graph):
        cyc = cycle_in(comp, graph)
        steps = " -> ".join(
            "%s (%s)" % (a, why[(a, b)]) for a, b in zip(cyc, cyc[1:])
        )
        print("tree-check: ring of %d files: %s -> %s" % (len(comp), steps, cyc[-1]))
        failed += 1
    for (f, d), s in sorted(why.items()):
        lf = layer_of(f.split("/")[1])
        ld = layer_of(d.split("/")[1])
        if lf is not None and ld is not None and ld > lf:
            print("tree-check: %s calls up into %s (%s)" % (f, d, s))
            failed += 1
    for f in sorted(defs):
        fl = file_layer_of(f)
        if fl and fl[1] is None:
            print("tree-check: %s is in no group of src/%s's order (FOLDER_LAYERS)"
                  % (f, fl[0]))
            failed += 1
    for (f, d), s in sorted(why.items()):
        lf, ld = file_layer_of(f), file_layer_of(d)
        if (lf and ld and lf[0] == ld[0] and lf[1] is not None
                and ld[1] is not None and ld[1] > lf[1]):
            print("tree-check: %s calls up into %s (%s)" % (f, d, s))
            failed += 1
    for d, _, files in os.walk(os.path.join(top, "src")):
        for fn in sorted(files):
            if not fn.endswith(".c"):
                continue
            p = os.path.join(d, fn)
            with open(p, encoding="utf-8", errors="replace") as fh:
                n = sum(1 for _ in fh)
            if n > MAX_LINES:
                print(
                    "tree-check: %s has %d lines (limit %d)"
                    % (os.path.relpath(p, top), n, MAX_LINES)
                )
                failed += 1
    nfiles = len(defs)
    nedges = sum(len(v) for v in graph.values())
    if failed:
        print("tree-check: %d problem(s) in %d files, %d edges" % (failed, nfiles, nedges))
        sys.exit(1)
    print("tree-check: %d files, %d edges, no ring, no call up, none over %d lines"
          % (nfiles, nedges, MAX_LINES))


if __name__ == "__main__":
    main()
