#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` on the shared reference traces ($SHARED, skipped when
# absent; the rest is in replay.sh): with the recorded policy, governor and
# idle states, replay energy is within 0.5% of report energy on every trace
# there (one exception below), and the JSON is byte-identical between runs.
. "$(dirname "$0")/lib.sh"
need_shared
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# replay JSON -> "actual replayed delta_pct" of its first policy
rep() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); p=d['policies'][0]
print(d['actual']['energy']['total'], p['energy']['total'], abs(p['delta_pct']))" "$1"; }

# Every trace in $SHARED, priced on the model of its platform; the 8-CPU
# trappy traces have none bundled: two-cpu.json's costs over 8 CPUs.
sed -e 's/"cpus": \[0, 1\]/"cpus": [0, 1, 2, 3, 4, 5, 6, 7]/' \
	"$ROOT/tests/fixtures/energy/two-cpu.json" >"$TMP/eight-cpu.json"
worst=0 n=0
for tr in $(find "$SHARED" -type f \( -name '*.dat' -o -name '*.txt' -o -name '*.html' \) \
		! -name 'LICENSE*' | sort); do
	case $tr in
	*/idlestat/*) m=tc2-idlestat ;;
	*/trappy/tests__trace_idle_unsorted.txt | */trappy/*surfaceflinger*) m=$TMP/eight-cpu.json ;;
	*) m=juno-r0 ;;
	esac
	# Within 0.5%, but for trace_idle_unsorted.txt (0.47 ms, its last line
	# cut short, one cpu_idle pair out of order): 52.4% (docs/replay.md
	# "Self-consistency"): the replay has CPU 6 idle, and waking, between
	# trace-cmd's switch-out at the first instant and kworker's switch-in
	# 13 us later, where report has it busy in the idle task.
	lim=0.5
	case $tr in */tests__trace_idle_unsorted.txt) lim=53 ;; esac
	n=$((n + 1))
	"$EATRACE" replay -m "$m" --policy recorded $SINGLE_REPLAY -f json "$tr" >"$TMP/r.json" 2>"$TMP/err" ||
		{ fail "replay $tr: $(cat "$TMP/err")"; continue; }
	set -- $(rep "$TMP/r.json")
	if awk -v d="$3" -v l="$lim" 'BEGIN { exit !(d < l) }'; then
		ok "recorded replay within $lim% of report: $(basename "$tr") ($3%)"
	else
		fail "$(basename "$tr"): replay $2 vs report $1 ($3%)"
	fi
	[ "$lim" = 0.5 ] || continue
	worst=$(awk -v a="$worst" -v b="$3" 'BEGIN { print (b > a ? b : a) }')
done
[ "$n" -ge 12 ] || fail "only $n traces found in $SHARED"
echo "self-consistency worst case: $worst%"

"$EATRACE" replay -m juno-r0 -f json "$SHARED/lisa/tests__assets__sched_load__trace.dat" >"$TMP/a.json"
"$EATRACE" replay -m juno-r0 -f json "$SHARED/lisa/tests__assets__sched_load__trace.dat" >"$TMP/b.json"
cmp -s "$TMP/a.json" "$TMP/b.json" && ok "byte-identical JSON" || fail "JSON differs between runs"
finish
