#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay`: no latency, wait or work figure outside what is
# physically possible (tests/e2e/replay-bounds-check.py), on every trace in
# traces/ and the fixtures, with every policy; the defects that broke them
# (issue 14); the window (--start/--end) covers every figure.
# ../shared/traces: tests/e2e/replay-bounds-shared.sh.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
check() { /usr/bin/python3 "$ROOT/tests/e2e/replay-bounds-check.py" "$@"; }
# jq-like: field of the replay JSON, by a Python expression on d
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# 1. A run the state backdates to the trace start, before the task's
# wakeup (CPU 0 first seen switching a out, at 30 ms; a woken at 10 ms from
# CPU 1): the wakeup found a running, so its activation has no measured
# latency. It used to be released at 10 ms and eligible at 0: latency and
# wait_s were 2^64 ns - 10 ms.
fx=tests/fixtures/replay/backdated.txt
"$EATRACE" replay -m tests/fixtures/energy/two-cpu.json -f json "$fx" >"$TMP/b.json" ||
	fail "replay $fx"
check "$TMP/b.json" "$fx" && ok "backdated run: figures within bounds" || fail "backdated run"
expect_eq "backdated run: no latency measured (null)" \
	"$(field "$TMP/b.json" "[p['latency']['max'] for p in d['policies']][0]")" "None"
# a runs [0, 30 ms) in the recording, nothing waits: wait 0 under recorded
expect_eq "backdated run: wait_s 0 under recorded" \
	"$(field "$TMP/b.json" "d['policies'][0]['wait_s']")" "0.0"
"$EATRACE" replay -m tests/fixtures/energy/two-cpu.json "$fx" >"$TMP/b.txt" || fail "text"
grep -q '^recorded .* n/a *n/a *n/a ' "$TMP/b.txt" && ok "text: latency n/a" ||
	fail "text: latency not n/a: $(grep '^recorded' "$TMP/b.txt")"

# 2. The window: --start 0.5 --end 1.0 on the 2 s seven-periodic trace.
# duration_s is the window (0.5 s, not the trace's 1.996488 s); busy time,
# overutilised time are within it; fewer activations are measured than
# over the whole trace (the tasks wake every 8-100 ms: about a quarter).
sp=traces/replay/seven-periodic.txt
"$EATRACE" replay --target-model tc2 --source-capacity 1024 -f json "$sp" >"$TMP/all.json" || fail "seven"
"$EATRACE" replay --target-model tc2 --source-capacity 1024 --start 0.5 --end 1.0 -f json \
	"$sp" >"$TMP/win.json" || fail "seven windowed"
expect_eq "window: duration_s is the window" "$(field "$TMP/win.json" "d['duration_s']")" "0.5"
check "$TMP/win.json" "$sp window" && ok "window: figures within the window's bounds" || fail "window bounds"
/usr/bin/python3 - "$TMP/all.json" "$TMP/win.json" <<'PY' && ok "window: latency counts a quarter of the activations, work a quarter" || fail "window: activations or work not windowed"
import json, sys
a = {p['name']: p for p in json.load(open(sys.argv[1]))['policies']}
w = {p['name']: p for p in json.load(open(sys.argv[2]))['policies']}
for n in a:
    na, nw = a[n]['latency']['activations'], w[n]['latency']['activations']
    # 0.5 s of 1.996 s: 25% of the wakeups, give or take a period each
    assert 0.2 * na < nw < 0.3 * na, (n, na, nw)
    wa, ww = float(a[n]['work']), float(w[n]['work'])
    assert 0.2 * wa < ww < 0.3 * wa, (n, wa, ww)
PY

# 3. late_activations counts only measured activations (it was 192 of 150
# under eas-rfc on wl-overrun).
ov=traces/vm/wl-overrun.dat
"$EATRACE" replay --target-model tc2 --source-capacity 1024 -f json "$ov" >"$TMP/o.json" || fail "overrun"
check "$TMP/o.json" "$ov" && ok "wl-overrun: late <= activations" || fail "wl-overrun bounds"
# late means past the recorded end by more than 1 ms: replaying the
# recording's own choices on its own platform, nothing is late.
"$EATRACE" replay -m tc2 --policy recorded -f json traces/demo/tc2-seven-tasks.txt >"$TMP/r.json" ||
	fail "recorded"
expect_eq "recorded on its own platform: no late activation" \
	"$(field "$TMP/r.json" "d['policies'][0]['late_activations']")" "0"

# 4. The sweep: every trace in traces/ with every policy, on tc2 from an
# unknown source, on the recorded platform where there is a model, and
# windowed.
n=0
# under make sanitize a sixth of the traces (sampled_1_in 6): the bounds
# are checked by the same code on each, which make check sweeps whole
for tr in $(sampled_1_in 6 traces/*/*.txt traces/*/*.dat tests/fixtures/replay/*.txt); do
	[ -f "$tr" ] || continue
	for args in "--target-model tc2 --source-capacity 1024" \
		    "--target-model tc2 --source-capacity 1024 --start 0.1 --end 0.3"; do
		if "$EATRACE" replay $args -f json "$tr" >"$TMP/s.json" 2>"$TMP/err"; then
			check "$TMP/s.json" "$tr $args" || fail "bounds: $tr $args"
			n=$((n + 1))
		elif ! grep -q "^eatrace" "$TMP/err"; then
			fail "replay $tr: $(cat "$TMP/err")"
		fi
	done
done
"$EATRACE" replay -m tc2 -f json traces/demo/tc2-seven-tasks.txt >"$TMP/s.json" &&
	check "$TMP/s.json" "tc2-seven-tasks -m tc2" || fail "bounds: tc2-seven-tasks -m tc2"
min=20
[ "${EA_SANITIZE:-0}" = 1 ] && min=4 # a sixth under make sanitize
[ $n -ge $min ] && ok "sweep: $n replays within physical bounds" || fail "sweep: only $n replays"
finish
