#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The repository's recordings (traces/vm, traces/diff) converted to Perfetto
# traces (tests/perfetto/to-perfetto.py), per-event and compact_sched, plain,
# gzip'd and in compressed_packets, give the same stats and report JSON as
# their trace.dat (docs/perfetto.md).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../perfetto/lib.sh"
command -v trace-cmd >/dev/null || skip "needs trace-cmd"
/usr/bin/python3 -c 'import zlib, gzip' 2>/dev/null || skip "needs /usr/bin/python3"

for dat in $(sampled "$ROOT"/traces/vm/*.dat "$ROOT"/traces/diff/heavy-1.dat "$ROOT"/traces/diff/light-2.dat); do
	b=$(basename "$dat" .dat)
	for enc in "" "--compact"; do
		if to_pf "$dat" "$TMP/$b.pftrace" $enc; then
			same_json "$b ${enc:-per-event}" "$dat" "$TMP/$b.pftrace"
		else
			fail "$b: conversion failed"
		fi
	done
done
# The containers: gzip'd file, compressed_packets, both; small bundles.
dat=$ROOT/traces/vm/wl-pingpong.dat
zstd=""
command -v zstd >/dev/null && zstd="--compact --zstd"	# zstd_compressed_packets
for opts in "--gzip" "--deflate" "--compact --deflate --gzip" "--compact --bundle 7" ${zstd:+"$zstd"}; do
	# shellcheck disable=SC2086
	to_pf "$dat" "$TMP/c.pftrace" $opts || fail "conversion $opts"
	same_json "wl-pingpong $opts" "$dat" "$TMP/c.pftrace"
done
# The format line says what was read.
to_pf "$dat" "$TMP/p.pftrace" --compact
"$EATRACE" stats "$TMP/p.pftrace" | head -1 | grep -q ": perfetto, 2 CPUs" && ok "format line" || fail "format line: $("$EATRACE" stats "$TMP/p.pftrace" | head -1)"
to_pf "$dat" "$TMP/g.pftrace" --gzip --deflate
"$EATRACE" stats "$TMP/g.pftrace" | head -1 | grep -q ": perfetto (gzip) (compressed packets), 2 CPUs" && ok "format line gzip" || fail "format line gzip"
# The compact encoding is used (the test would prove little otherwise):
# the compact file is much smaller than the per-event one.
to_pf "$dat" "$TMP/e.pftrace"
to_pf "$dat" "$TMP/k.pftrace" --compact
e=$(wc -c <"$TMP/e.pftrace") k=$(wc -c <"$TMP/k.pftrace")
[ $((k * 10)) -lt $((e * 7)) ] && ok "compact encoding used ($k vs $e bytes)" || fail "compact file $k bytes, per-event $e"
finish
