#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn two sched_switch records of CPU 0 of a trace.dat v6 into
suspend_resume machine_suspend begin and end (for tests/e2e/suspend-dat-shared.sh).

    suspend-dat.py IN.dat OUT.dat K1 K2

The records keep their place, size and timestamp; their payload becomes
suspend_resume's (common_type, action = the address of "machine_suspend"
in the file's printk formats, val 3, start 1 then 0). Prints the two
timestamps (ns), worked out from the page timestamps and the records'
time deltas, independently of eatrace. Little-endian flyrecord v6 files
only (trappy's tests__trace_idle.dat is one).
"""
import re
import struct
import sys


def main():
    src, dst, k1, k2 = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    d = bytearray(open(src, "rb").read())
    assert d[:10] == b"\x17\x08\x44tracing" and d[10:12] == b"6\x00"
    assert d[12] == 0 and d[13] == 8, "little-endian, 8-byte longs only"
    (pagesz,) = struct.unpack_from("<I", d, 14)
    p = 18
    for name in (b"header_page\x00", b"header_event\x00"):
        assert d[p:p + len(name)] == name, name
        (sz,) = struct.unpack_from("<Q", d, p + len(name))
        p += len(name) + 8 + sz
    (nft,) = struct.unpack_from("<I", d, p)
    p += 4
    for _ in range(nft):
        (sz,) = struct.unpack_from("<Q", d, p)
        p += 8 + sz
    (nsys,) = struct.unpack_from("<I", d, p)
    p += 4
    ids = {}
    for _ in range(nsys):
        p = d.index(b"\x00", p) + 1
        (nev,) = struct.unpack_from("<I", d, p)
        p += 4
        for _ in range(nev):
            (sz,) = struct.unpack_from("<Q", d, p)
            fmt = bytes(d[p + 8:p + 8 + sz]).decode()
            name = re.search(r"^name: (\S+)", fmt, re.M).group(1)
            ids[name] = int(re.search(r"^ID: (\d+)", fmt, re.M).group(1))
            p += 8 + sz
    (sz,) = struct.unpack_from("<I", d, p)      # kallsyms
    p += 4 + sz
    (sz,) = struct.unpack_from("<I", d, p)      # printk formats
    printk = bytes(d[p + 4:p + 4 + sz]).decode(errors="replace")
    p += 4 + sz
    addr = int(re.search(r'^0x([0-9a-f]+) : "machine_suspend"', printk, re.M).group(1), 16)
    (sz,) = struct.unpack_from("<Q", d, p)      # cmdlines
    p += 8 + sz
    (ncpus,) = struct.unpack_from("<I", d, p)
    p += 4
    if d[p:p + 10] == b"options  \x00":
        p += 10
        while True:
            (oid,) = struct.unpack_from("<H", d, p)
            if oid == 0:
                p += 2
                break
            (osz,) = struct.unpack_from("<I", d, p + 2)
            p += 6 + osz
    assert d[p:p + 10] == b"flyrecord\x00", "no flyrecord section"
    p += 10
    coff, csz = struct.unpack_from("<QQ", d, p)  # CPU 0's data
    switches = []
    for page in range(coff, coff + csz, pagesz):
        ts, commit = struct.unpack_from("<QQ", d, page)
        q, end = page + 16, page + 16 + (commit & 0xfffff)
        while q < end:
            (h,) = struct.unpack_from("<I", d, q)
            tl, delta = h & 31, h >> 5
            if tl == 29:                        # padding
                if delta == 0:
                    break
                (n,) = struct.unpack_from("<I", d, q + 4)
                q += 4 + n
                continue
            if tl == 30:                        # time extend
                (hi,) = struct.unpack_from("<I", d, q + 4)
                ts += delta + (hi << 27)
                q += 8
                continue
            assert tl != 31, "absolute timestamps not handled"
            ts += delta
            if tl == 0:
                (n,) = struct.unpack_from("<I", d, q + 4)
                data, n = q + 8, n - 4
            else:
                data, n = q + 4, tl * 4
            (typ,) = struct.unpack_from("<H", d, data)
            if typ == ids["sched_switch"]:
                switches.append((data, n, ts))
            q = data + n
    for k, start in ((k1, 1), (k2, 0)):
        data, n, ts = switches[k]
        assert n >= 21
        struct.pack_into("<H", d, data, ids["suspend_resume"])
        struct.pack_into("<QiB", d, data + 8, addr, 3, start)
        print(ts)
    open(dst, "wb").write(d)


if __name__ == "__main__":
    main()
