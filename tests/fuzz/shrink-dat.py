#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make a small trace.dat v6 from a big one, for fuzz seeds and hostile tests.

    shrink-dat.py IN.dat OUT.dat [PAGES_PER_CPU [CPUS]]

Keeps the header page/event formats, the event formats of the events
eatrace reads (sched_*, cpu_frequency, cpu_idle), the saved command lines and
the first PAGES_PER_CPU (default 1) data pages of the first CPUS CPUs (default
all; the others get no data); drops the other formats, kallsyms and printk formats. Only flyrecord
v6 files without options are handled (trappy's tests__trace_idle.dat is one).
"""
import struct
import sys

KEEP_SYSTEMS = {b"sched", b"power"}
KEEP_EVENTS = {b"sched_switch", b"sched_wakeup", b"sched_waking",
               b"sched_wakeup_new", b"sched_migrate_task", b"cpu_frequency",
               b"cpu_idle"}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    pages = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    d = open(src, "rb").read()
    p = 0
    out = bytearray()
    if d[:10] != b"\x17\x08\x44tracing" or d[10:12] != b"6\x00":
        sys.exit("not a trace.dat v6")
    endian, longsz = d[12], d[13]
    if endian != 0:
        sys.exit("big endian not handled")
    (pagesz,) = struct.unpack_from("<I", d, 14)
    out += d[:18]
    p = 18
    for name in (b"header_page\x00", b"header_event\x00"):
        assert d[p:p + len(name)] == name, name
        (sz,) = struct.unpack_from("<Q", d, p + len(name))
        end = p + len(name) + 8 + sz
        out += d[p:end]
        p = end
    (nft,) = struct.unpack_from("<I", d, p)
    q = p + 4
    for _ in range(nft):
        (sz,) = struct.unpack_from("<Q", d, q)
        q += 8 + sz
    out += struct.pack("<I", 0)     # ftrace's own formats: not needed
    p = q
    (nsys,) = struct.unpack_from("<I", d, p)
    p += 4
    systems = []
    for _ in range(nsys):
        e = d.index(b"\x00", p)
        name = d[p:e]
        p = e + 1
        (nev,) = struct.unpack_from("<I", d, p)
        p += 4
        evs = []
        for _ in range(nev):
            (sz,) = struct.unpack_from("<Q", d, p)
            ev = d[p + 8:p + 8 + sz]
            if ev.split(b"\n", 1)[0][6:] in KEEP_EVENTS:
                evs.append(ev)
            p += 8 + sz
        if name in KEEP_SYSTEMS:
            systems.append((name, evs))
    out += struct.pack("<I", len(systems))
    for name, evs in systems:
        out += name + b"\x00" + struct.pack("<I", len(evs))
        for ev in evs:
            out += struct.pack("<Q", len(ev)) + ev
    (sz,) = struct.unpack_from("<I", d, p)      # kallsyms
    p += 4 + sz
    out += struct.pack("<I", 0)
    (sz,) = struct.unpack_from("<I", d, p)      # printk
    p += 4 + sz
    out += struct.pack("<I", 0)
    (sz,) = struct.unpack_from("<Q", d, p)      # cmdlines
    out += d[p:p + 8 + sz]
    p += 8 + sz
    (ncpus,) = struct.unpack_from("<I", d, p)
    keep_cpus = int(sys.argv[4]) if len(sys.argv) > 4 else ncpus
    out += d[p:p + 4]
    p += 4
    if d[p:p + 10] == b"options  \x00":
        out += d[p:p + 10]
        p += 10
        while True:
            (oid,) = struct.unpack_from("<H", d, p)
            if oid == 0:
                out += d[p:p + 2]
                p += 2
                break
            (osz,) = struct.unpack_from("<I", d, p + 2)
            out += d[p:p + 6 + osz]
            p += 6 + osz
    if d[p:p + 10] != b"flyrecord\x00":
        sys.exit("no flyrecord section")
    out += d[p:p + 10]
    p += 10
    cpus = [struct.unpack_from("<QQ", d, p + 16 * i) for i in range(ncpus)]
    table = len(out)
    out += b"\x00" * (16 * ncpus)
    off = (len(out) + pagesz - 1) // pagesz * pagesz
    out += b"\x00" * (off - len(out))
    entries = []
    for i, (coff, csz) in enumerate(cpus):
        n = min(csz, pages * pagesz) if i < keep_cpus else 0
        entries.append((len(out) if n else 0, n))
        out += d[coff:coff + n]
    for i, (o, n) in enumerate(entries):
        struct.pack_into("<QQ", out, table + 16 * i, o, n)
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
