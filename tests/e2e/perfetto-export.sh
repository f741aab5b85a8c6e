#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# report --perfetto (issue 17): the OPP counter shows the frequency busy
# time is priced at, the assumed OPP included; timestamps are the trace's
# own (not rebased to 0); cluster power never exceeds what the model allows
# (wakeup energy is a counter of its own); --perfetto-max-mb caps the file.
. "$(dirname "$0")/lib.sh"
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
SW=$ROOT/tests/fixtures/state/swapper-idle.txt
TWO=$ROOT/tests/fixtures/energy/two-cpu.json

# swapper-idle.txt has no cpu_frequency: busy time is priced at two-cpu's
# highest OPP, 2000000 kHz (or at --assume-opp's: 1000000 is an OPP).
opp_values() {
	/usr/bin/python3 -c "
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
print(sorted({e['args']['value'] for e in ev if e['ph'] == 'C' and e['name'].startswith('OPP CPU')}))" "$1"
}
"$EATRACE" report -m "$TWO" --perfetto "$TMP/sw.json" "$SW" >"$TMP/out"
expect_eq "OPP counter at the assumed top OPP, not 0 (0 = idle)" "$(opp_values "$TMP/sw.json")" "[0, 2000000]"
"$EATRACE" report -m "$TWO" --assume-opp 1000000 --perfetto "$TMP/sw1.json" "$SW" >"$TMP/out"
expect_eq "OPP counter at --assume-opp's OPP" "$(opp_values "$TMP/sw1.json")" "[0, 1000000]"

# Timestamps: the trace's first event is at 100.000000 s = 1e8 us, the
# last at 100.001000 s; CPU 0 runs 'a' from 100.000000 to 100.000300.
/usr/bin/python3 - "$TMP/sw.json" <<'PY' && ok "timestamps are the trace's own" || fail "timestamps: $(head -c 400 "$TMP/sw.json")"
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
ts = [e['ts'] for e in ev if 'ts' in e]
assert min(ts) == 100000000.0 and max(ts) <= 100001000.0, (min(ts), max(ts))
a = [e for e in ev if e['ph'] == 'X' and e['args']['pid'] == 10]
assert len(a) == 1 and a[0]['ts'] == 100000000.0 and a[0]['dur'] == 300.0, a
PY

# Cluster power never above the model's maximum: every CPU of the cluster
# busy at the top OPP, max over OPPs of cluster_power + n x core_power.
"$EATRACE" report -m tc2 --perfetto "$TMP/demo.json" "$DEMO" >"$TMP/out"
/usr/bin/python3 - "$TMP/demo.json" "$ROOT/models/tc2.json" <<'PY' && ok "cluster power <= the model's maximum" || fail "cluster power (python says why above)"
import json, re, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
text = re.sub(r'/\*.*?\*/', '', open(sys.argv[2]).read(), flags=re.S)
text = re.sub(r'(?m)^\s*//.*$', '', text)
m = json.loads(text)
for cl in m['clusters']:
    top = max(c['cluster_power'] + len(cl['cpus']) * c['core_power'] for c in cl['cap_states'])
    vals = [e['args']['value'] for e in ev if e['ph'] == 'C' and e['name'] == 'power %s (%s)' % (cl['name'], m['power_unit'])]
    assert vals and max(vals) <= top * (1 + 1e-9), (cl['name'], max(vals), top)
    w = [e for e in ev if e['ph'] == 'C' and e['name'].startswith('wakeup energy %s ' % cl['name'])]
    assert w, 'no wakeup energy track for ' + cl['name']
PY

# The cap: 0.05 MB on the demo (about 0.5 MB uncapped).
"$EATRACE" report -m tc2 --perfetto "$TMP/full.json" "$DEMO" >"$TMP/out"
"$EATRACE" report -m tc2 --perfetto "$TMP/cap.json" --perfetto-max-mb 0.05 "$DEMO" >"$TMP/out" 2>"$TMP/err"
expect_eq "cap: exit" "$?" 0
full=$(wc -c <"$TMP/full.json") cap=$(wc -c <"$TMP/cap.json")
[ "$full" -gt 100000 ] && [ "$cap" -lt 100000 ] && ok "cap: $full -> $cap bytes" || fail "cap: $full -> $cap bytes"
/usr/bin/python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/cap.json" && ok "cap: valid JSON" || fail "cap: invalid JSON"
grep -q "warning: .*cap.json reached --perfetto-max-mb 0.05 at 100\.[0-9]* s: task slices and OPP and idle-state counters stop there" "$TMP/err" &&
	ok "cap: warned, with the time" || fail "cap warning: $(cat "$TMP/err")"
"$EATRACE" report -m tc2 --perfetto "$TMP/big.json" --perfetto-max-mb 100 "$DEMO" >"$TMP/out" 2>"$TMP/err"
expect_eq "cap not reached: no warning" "$(wc -c <"$TMP/err")" 0
expect_fail "cap: bad size" 2 "--perfetto-max-mb: 'x' is not a size in MB" -- "$EATRACE" report -m tc2 --perfetto "$TMP/x.json" --perfetto-max-mb x "$DEMO"
finish
