#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay` scheduling classes (docs/replay.md "Scheduling classes"):
# RT and deadline tasks (prio < 100) are not placed by the CFS policies but
# kept on the CPU they ran on, and preempt CFS tasks there; CFS tasks share
# a CPU by nice weight.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
two=tests/fixtures/energy/two-cpu.json

# 1. rt-task (prio 49) wakes at 10 ms on CPU 0, where cfs-hog runs, and
# blocks at 12 ms (2 ms of work at the same capacity). Every policy keeps it
# on CPU 0, where it preempts whatever CFS task runs there at once: it runs
# [10, 12) ms on CPU 0, latency 0. (cfs used to put it on idle CPU 1.)
for p in cfs feec eas-rfc pack spread; do
	"$EATRACE" replay --target-model $two --source-capacity 1024 --governor performance \
		--policy $p --emit-trace "$TMP/e.txt" -f json tests/fixtures/replay/rt.txt >"$TMP/r.json" ||
		{ fail "replay $p"; continue; }
	got=$(grep 'sched_switch:.*rt-task' "$TMP/e.txt" | sed 's/.*\[\(00[0-9]\)\] [^ ]* *\([0-9.]*\): .*/\1@\2/' | tr '\n' ' ')
	expect_eq "$p: rt-task stays on its CPU, preempts CFS" "$got" "000@100.010000000 000@100.012000000 "
	expect_eq "$p: rt-task latency 0" \
		"$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['policies'][0]['latency']['max'])" "$TMP/r.json")" "0.0"
done

# The CFS task an RT task preempts runs next: a and b share CPU 0 in 3 ms
# slices (a from 0, b from 1 ms: a's half slice to 4 ms, then b [4, 7),
# a [7, 10), b from 10); rt wakes at 11 ms and preempts b, runs 1 ms, and
# b, not a, resumes at 12 ms.
"$EATRACE" replay --target-model $two --source-capacity 1024 --governor performance \
	--policy cfs --pin a=0 --pin b=0 --emit-trace "$TMP/p.txt" \
	tests/fixtures/replay/rt-preempt.txt >"$TMP/out" || fail "replay rt-preempt"
got=$(grep sched_switch "$TMP/p.txt" | sed -n 3,5p |
	sed 's/.* \([0-9.]*\): sched_switch: prev_comm=\([a-z]*\) .*next_comm=\([a-z]*\) .*/\1:\2>\3/' | tr '\n' ' ')
expect_eq "the preempted CFS task resumes after the RT task" "$got" \
	"100.010000000:a>b 100.011000000:b>rt 100.012000000:rt>b "

# 2. n0 (nice 0, weight 1024) and n5 (nice 5, weight 335) share CPU 0
# (pinned) for 100 ms. n0 runs alone [0, 4 ms), then its half slice to
# 7 ms; from then on slices are 6 ms x weight / 1359: n0 4.521 ms, n5
# 1.479 ms, so n5 gets 1.479 / 6 of [7, 100): 22.9 ms, give or take the
# last partial cycle (at most 1.479): 22.9 .. 24.4 ms; n0 the rest.
# (Equal shares would give n5 about 46 ms.) Both go on past the trace's
# end until their work is done (docs/replay.md "Work"): counted to 100 ms.
"$EATRACE" replay --target-model $two --source-capacity 1024 --governor performance \
	--policy cfs --pin 'n*=0' --emit-trace "$TMP/n.txt" tests/fixtures/replay/nice.txt >"$TMP/out" ||
	fail "replay nice"
n5=$(/usr/bin/python3 - "$TMP/n.txt" <<'PY'
import re, sys
run, cur, since = 0.0, False, 0.0
for l in open(sys.argv[1]):
    m = re.search(r'\[000\].* (\d+\.\d+): sched_switch: .*next_comm=(\S+)', l)
    if not m:
        continue
    t = min(float(m.group(1)), 100.1)
    if cur:
        run += t - since
    cur, since = m.group(2) == 'n5', t
if cur:
    run += 100.1 - since
print('%.1f' % (run * 1000))
PY
)
/usr/bin/python3 -c "import sys; sys.exit(0 if 22.9 <= float(sys.argv[1]) <= 24.4 else 1)" "$n5" &&
	ok "nice 5 gets its weight's share ($n5 ms of 100)" || fail "nice 5 ran $n5 ms, not 22.9 .. 24.4"
finish
