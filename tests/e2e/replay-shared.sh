#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` on the shared reference traces ($SHARED, skipped when
# absent; the rest is in replay.sh): with the recorded policy, governor and
# idle states, replay energy is within 1% of report energy, and the JSON is
# byte-identical between runs.
. "$(dirname "$0")/lib.sh"
need_shared
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# replay JSON -> "actual replayed delta_pct" of its first policy
rep() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); p=d['policies'][0]
print(d['actual']['energy']['total'], p['energy']['total'], abs(p['delta_pct']))" "$1"; }

worst=0
for t in "$SHARED/lisa/tests__assets__sched_load__trace.dat:juno-r0" \
	 "$SHARED/lisa/tests__assets__trace_txt__trace.txt:juno-r0" \
	 "$SHARED/lisa/ipynb__deprecated__tutorial__example_rtapp__trace.dat:juno-r0" \
	 "$SHARED/trappy/tests__trace_idle.dat:juno-r0" \
	 "$SHARED/idlestat/Experiments__test01.dat:tc2-idlestat" \
	 "$SHARED/idlestat/Experiments__test03.dat:tc2-idlestat"; do
	tr=${t%:*} m=${t##*:}
	[ -f "$tr" ] || { fail "missing $tr"; continue; }
	"$EATRACE" replay -m "$m" --policy recorded -f json "$tr" >"$TMP/r.json" 2>"$TMP/err" ||
		{ fail "replay $tr: $(cat "$TMP/err")"; continue; }
	set -- $(rep "$TMP/r.json")
	if /usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 1.0 else 1)" "$3"; then
		ok "recorded replay within 1% of report: $(basename "$tr") ($3%)"
	else
		fail "$(basename "$tr"): replay $2 vs report $1 ($3%)"
	fi
	worst=$(/usr/bin/python3 -c "import sys; print(max(float(sys.argv[1]), float(sys.argv[2])))" "$worst" "$3")
done
echo "self-consistency worst case: $worst%"

"$EATRACE" replay -m juno-r0 -f json "$SHARED/lisa/tests__assets__sched_load__trace.dat" >"$TMP/a.json"
"$EATRACE" replay -m juno-r0 -f json "$SHARED/lisa/tests__assets__sched_load__trace.dat" >"$TMP/b.json"
cmp -s "$TMP/a.json" "$TMP/b.json" && ok "byte-identical JSON" || fail "JSON differs between runs"
finish
