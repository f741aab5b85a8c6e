#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: perfetto-same.sh runs the same comparisons sanitized on traces/ and edges.sh reads every shared trace sanitized
# The shared reference recordings (../shared/traces) converted to Perfetto
# traces, per-event and compact_sched: the same stats and report JSON as
# their trace.dat (docs/perfetto.md). Perfetto has no sched_load_* events:
# the Juno sched_load recording is compared with those left out (their
# counts, the PELT-vs-kernel check and its note).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../perfetto/lib.sh"
need_shared
command -v trace-cmd >/dev/null || skip "needs trace-cmd"

for dat in "$SHARED"/lisa/ipynb__deprecated__tutorial__example_rtapp__trace.dat \
	"$SHARED"/trappy/tests__trace_idle.dat; do
	b=$(basename "$dat" .dat)
	for enc in "" "--compact"; do
		to_pf "$dat" "$TMP/$b.pftrace" $enc || fail "$b: conversion failed"
		same_json "$b ${enc:-per-event}" "$dat" "$TMP/$b.pftrace"
	done
done
# sched_load: everything but the kernel's util events and what they feed.
dat=$SHARED/lisa/tests__assets__sched_load__trace.dat
to_pf "$dat" "$TMP/sl.pftrace" --compact || fail "sched_load: conversion failed"
"$EATRACE" stats -f json "$dat" >"$TMP/a.json" && "$EATRACE" stats -f json "$TMP/sl.pftrace" >"$TMP/b.json" || fail "sched_load: stats"
/usr/bin/python3 - "$TMP/a.json" "$TMP/b.json" <<'PY' && ok "sched_load: stats JSON identical but for sched_load_*" || fail "sched_load: stats JSON differs beyond sched_load_*"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a['events']['sched_load_se'] > 0 and b['events']['sched_load_se'] == 0
for j in (a, b):
    j['events']['sched_load_se'] = j['events']['sched_load_cfs_rq'] = 0
    j.pop('pelt_vs_kernel', None)
    j['notes'] = [n for n in j['notes'] if 'sched_load_cfs_rq' not in n['message']]
assert a == b, [k for k in a if a[k] != b.get(k)]
PY
finish
