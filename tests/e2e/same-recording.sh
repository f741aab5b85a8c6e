#!/bin/sh
# One recording (traces/vm, see its README), every form: identical stats JSON.
# - the trace.dat variants (v6, v7, v7 compressed) give byte-identical JSON;
# - trace-cmd report of it with nanosecond timestamps (-t), in plugin, -R and
#   -N forms, gives the same JSON as the .dat;
# - the committed microsecond text forms (/sys/kernel/tracing/trace, report,
#   -R, -N, without cpus=) give byte-identical JSON among themselves (their
#   timestamps are the .dat's rounded to the microsecond, so they differ from
#   the .dat in the last three digits of the times).
. "$(dirname "$0")/lib.sh"
V=$ROOT/traces/vm
json() { "$EATRACE" stats -f json "$1" > "$2" || fail "stats $1"; }

json "$V/vm-v7.dat" "$TMP/ref.json"
for f in vm-v6.dat vm-v7-compressed.dat; do
	json "$V/$f" "$TMP/x.json"
	cmp -s "$TMP/ref.json" "$TMP/x.json" && ok "$f = vm-v7.dat" || fail "$f differs from vm-v7.dat"
done
for form in "" "-R" "-N"; do
	trace-cmd report -t $form "$V/vm-v7.dat" > "$TMP/ns.txt" 2>/dev/null || fail "trace-cmd report -t $form"
	json "$TMP/ns.txt" "$TMP/x.json"
	cmp -s "$TMP/ref.json" "$TMP/x.json" && ok "report -t $form = vm-v7.dat" || fail "report -t $form differs from vm-v7.dat"
done
json "$V/vm-ftrace.txt" "$TMP/us.json"
for f in vm-report.txt vm-report-raw.txt vm-report-noplugin.txt vm-report-nocpus.txt; do
	json "$V/$f" "$TMP/x.json"
	cmp -s "$TMP/us.json" "$TMP/x.json" && ok "$f = vm-ftrace.txt" || fail "$f differs from vm-ftrace.txt"
done
# And the microsecond forms agree with the .dat apart from sub-us digits:
# same events, same CPUs, same counts.
/usr/bin/python3 - "$TMP/ref.json" "$TMP/us.json" <<'PY' && ok "us text = .dat in counts" || fail "us text counts differ from .dat"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["events"] == b["events"] and a["ncpus"] == b["ncpus"] and a["inferences"] == b["inferences"]
assert [t["pid"] for t in a["tasks"]] == [t["pid"] for t in b["tasks"]]
assert all(abs(x["busy_s"] - y["busy_s"]) < 1e-3 for x, y in zip(a["cpus"], b["cpus"]))
PY
finish
