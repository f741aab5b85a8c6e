#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` does not depend on the target's CPU numbering: tc2 and
# an A7-first copy of it (tests/fixtures/models/tc2-a7-first.json) give
# every policy the same energy within 2% on traces/replay/* (recorded CPUs
# are mapped by capacity rank, src/replay/cpumap.c).
#
# RENUMBER_POLICIES: the policies held to it. cfs, pack and spread are not
# yet: the simulator's idle pulls go in CPU id order (the first idle CPU
# by id pulls), which is the numbering's (printed, not checked).
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
POLS=${RENUMBER_POLICIES:-recorded,eas-rfc,feec}

for t in traces/replay/*.txt; do
	for gov in schedutil fixed:A15=600000,A7=1000000; do
		for m in tc2 tests/fixtures/models/tc2-a7-first.json; do
			"$EATRACE" replay "$t" --source-capacity 1024 --target-model "$m" \
				--governor "$gov" -f json >"$TMP/$(basename "$m" .json).json" ||
				fail "replay $t on $m"
		done
		/usr/bin/python3 - "$TMP/tc2.json" "$TMP/tc2-a7-first.json" "$POLS" "$t $gov" <<'PY' || nfail=$((nfail + 1))
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
held = sys.argv[3].split(',')
ea = {p['name']: p['energy']['total'] for p in a['policies']}
eb = {p['name']: p['energy']['total'] for p in b['policies']}
bad = 0
for k in ea:
    d = 100 * (eb[k] - ea[k]) / ea[k]
    tag = 'ok' if abs(d) <= 2 else ('FAIL' if k in held else 'info')
    if tag == 'FAIL':
        bad += 1
    print('%s: renumbered %s %s: %+.2f%%' % (tag, sys.argv[4], k, d))
sys.exit(1 if bad else 0)
PY
	done
done
finish
