#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` does not depend on the target's CPU numbering: tc2 and
# an A7-first copy of it (tests/fixtures/models/tc2-a7-first.json) give
# every policy the same energy within 2% on traces/replay/* (recorded CPUs
# are mapped by capacity rank, src/replay/cpumap.c).
#
# Every policy is held to it: wherever the first CPU visited wins (which
# CPU picks, pulls or balances first) the simulator visits the biggest
# CPUs first, then by id (sim-init.c order_cpus()), the same sequence of CPUs
# under either numbering; pack's ties go to the bigger CPU. Before that,
# pack moved by +2.36% (seven-periodic, schedutil), eas-rfc by -1.34%.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1

for t in traces/replay/*.txt traces/replay/*.dat; do
	for gov in schedutil fixed:A15=600000,A7=1000000; do
		for m in tc2 tests/fixtures/models/tc2-a7-first.json; do
			"$EATRACE" replay "$t" --source-capacity 1024 --target-model "$m" \
				--governor "$gov" $SINGLE_REPLAY -f json >"$TMP/$(basename "$m" .json).json" ||
				fail "replay $t on $m"
		done
		/usr/bin/python3 - "$TMP/tc2.json" "$TMP/tc2-a7-first.json" "$t $gov" <<'PY' || nfail=$((nfail + 1))
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
ea = {p['name']: p['energy']['total'] for p in a['policies']}
eb = {p['name']: p['energy']['total'] for p in b['policies']}
bad = 0
if len(ea) != 6 or sorted(ea) != sorted(eb):
    print('FAIL: policies %s / %s' % (sorted(ea), sorted(eb)))
    bad += 1
for k in ea:
    d = 100 * (eb[k] - ea[k]) / ea[k]
    tag = 'ok' if abs(d) <= 2 else 'FAIL'
    if tag == 'FAIL':
        bad += 1
    print('%s: renumbered %s %s: %+.2f%%' % (tag, sys.argv[3], k, d))
sys.exit(1 if bad else 0)
PY
	done
done
finish
