#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Decompression bombs for tests/e2e/inflate-bounds.sh and spool-bounds.sh
# (issue 29 items 1, 2), written into the test's scratch directory, never
# committed. Large ones are one small compressed frame of 16 MiB repeated:
# zstd frames and gzip members may follow each other, and decompress to
# their concatenation.
#
#   bombs.py zpkt OUT MIB N     N packets, each zstd_compressed_packets of
#                               MIB MiB of zeros
#   bombs.py zpad OUT MIB N     N packets, each zstd_compressed_packets of
#                               one valid packet of MIB MiB of padding
#                               (field 99); prints each payload's offset
#   bombs.py zbundles OUT MIB   one zstd packet of MIB MiB of 6-byte packets,
#                               each one ftrace bundle { cpu: 0 }
#   bombs.py zevents OUT MIB    one zstd packet of one bundle of MIB MiB of
#                               6-byte events { timestamp: 1, sched_switch {} }
#   bombs.py gzpad OUT MIB      gzip'd Perfetto file: one packet of MIB MiB
#                               of padding
#   bombs.py datz OUT MIB       zstd'd trace.dat magic and MIB MiB of zeros
import subprocess
import sys
import zlib

CHUNK = 16 << 20


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def zstd(data):
    return subprocess.run(["zstd", "-q", "-c"], input=data, check=True,
                          stdout=subprocess.PIPE).stdout


def gzip(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def zeros(comp, head, mib):
    """head then mib MiB of zeros, compressed (head + zeros < 16 MiB first)."""
    total = head + bytes((mib << 20) % CHUNK or CHUNK)
    rest = ((mib << 20) - (len(total) - len(head))) // CHUNK
    return comp(total) + comp(bytes(CHUNK)) * rest


def packet(payload):
    return b"\x0a" + varint(len(payload)) + payload


mode, out, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])
if mode == "zpkt":
    data = packet(field(133, zeros(zstd, b"", mib))) * int(sys.argv[4])
elif mode == "zpad":
    pad = mib << 20
    hdr = varint(99 << 3 | 2) + varint(pad)
    z = zeros(zstd, b"\x0a" + varint(len(hdr) + pad) + hdr, mib)
    one = packet(field(133, z))
    data = one * int(sys.argv[4])
    # packet k's zstd frame (its field 133's payload) ends the packet
    for k in range(int(sys.argv[4])):
        print(k * len(one) + len(one) - len(z))
elif mode == "zbundles":
    one = packet(field(1, b"\x08\x00"))
    data = packet(field(133, zstd(one * ((mib << 20) // len(one)))))
elif mode == "zevents":
    ev = field(2, b"\x08\x01" + field(4, b""))
    bundle = b"\x08\x00" + ev * ((mib << 20) // len(ev))
    data = packet(field(133, zstd(packet(field(1, bundle)))))
elif mode == "gzpad":
    pad = mib << 20
    hdr = varint(99 << 3 | 2) + varint(pad)
    data = zeros(gzip, b"\x0a" + varint(len(hdr) + pad) + hdr, mib)
elif mode == "datz":
    data = zeros(zstd, b"\x17\x08\x44tracing6\x00", mib)
else:
    sys.exit("bombs.py: unknown mode " + mode)
open(out, "wb").write(data)
