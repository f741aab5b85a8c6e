#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The reproducers of ../shared/repro/ (issue 15: exact at the edges), each
# with the values its README works out by hand from what the trace proves.
# Models: m2.json (one OPP at 1000 mW, free idle), m3.json (WFI 100 mW,
# ret 50 mW, off 0 mW; busy 1000 mW).
# Times are compared exactly (decimal text of the JSON), energies too.
. "$(dirname "$0")/lib.sh"

REPRO=${REPRO:-$(dirname "$SHARED")/repro}
[ -d "$REPRO" ] || skip "needs the shared reproducers ($REPRO is absent)"

# jq_py JSON EXPR: print a Python expression over the JSON (d, Decimal).
jq_py() {
	/usr/bin/python3 -c '
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
cpu = {c["cpu"]: c for c in d["cpus"]}
task = {t["pid"]: t for t in d.get("tasks", [])}
def n(x):
    return format(Decimal(x).normalize(), "f")
print(eval(sys.argv[2]))' "$@"
}

# span_check NAME JSON: per CPU busy + idle + unknown = the trace's span,
# to the nanosecond.
span_check() {
	got=$(jq_py "$2" '" ".join(n(c["busy_s"] + c["idle_s"] + c["unknown_s"] - d["duration_s"]) for c in d["cpus"])')
	[ -n "$got" ] || { fail "$1: no busy_s/idle_s/unknown_s per CPU"; return; }
	for g in $got; do
		[ "$g" = 0 ] || { fail "$1: busy + idle + unknown - span = $got"; return; }
	done
	ok "$1: busy + idle + unknown = span on every CPU"
}

# ---------------------------------------------------------------------------
# gen-lookahead.sh N: CPU 0's first record (busy-100 switching to idle at
# +1.0 s) comes after N records of CPU 1. It proves CPU 0 ran pid 100 from the
# start (100.0) to 101.0: busy 1.0 s, then idle (pid 0, no cpu_idle) to the
# end at 101.5: idle 0.5 s, whatever N is. Nothing about CPU 0 is unknown.
# ---------------------------------------------------------------------------
for N in 1000 40000; do
	sh "$REPRO/gen-lookahead.sh" $N >"$TMP/la$N.txt"
	if "$EATRACE" stats -f json "$TMP/la$N.txt" >"$TMP/la$N.json" 2>"$TMP/err"; then
		expect_eq "lookahead $N: CPU 0 busy_s" "$(jq_py "$TMP/la$N.json" 'n(cpu[0]["busy_s"])')" 1
		expect_eq "lookahead $N: CPU 0 idle_s" "$(jq_py "$TMP/la$N.json" 'n(cpu[0]["idle_s"])')" 0.5
		expect_eq "lookahead $N: CPU 0 unknown_s" "$(jq_py "$TMP/la$N.json" 'n(cpu[0]["unknown_s"])')" 0
		expect_eq "lookahead $N: pid 100 runtime_s" "$(jq_py "$TMP/la$N.json" 'n(task[100]["runtime_s"])')" 1
		span_check "lookahead $N" "$TMP/la$N.json"
	else
		fail "lookahead $N: stats failed: $(cat "$TMP/err")"
	fi
done

# ---------------------------------------------------------------------------
# irq-before-exit.txt: CPU 0's first record is an interrupt-context wakeup
# by the idle task at 100.001000, before its first cpu_idle event, an exit
# at 100.001010. CPU 0 was idle (state unknown) until the exit: unknown
# 100.000000-100.001010 = 0.00101 s; busy from the exit to the enter at
# 100.002020: 0.00101 s; idle (state 2) to the end at 100.010000:
# 0.00798 s. The exit is not "unmatched".
# ---------------------------------------------------------------------------
if "$EATRACE" stats -f json "$REPRO/irq-before-exit.txt" >"$TMP/irq.json" 2>"$TMP/err"; then
	expect_eq "irq-before-exit: CPU 0 busy_s" "$(jq_py "$TMP/irq.json" 'n(cpu[0]["busy_s"])')" 0.00101
	expect_eq "irq-before-exit: CPU 0 unknown_s" "$(jq_py "$TMP/irq.json" 'n(cpu[0]["unknown_s"])')" 0.00101
	expect_eq "irq-before-exit: CPU 0 idle_s" "$(jq_py "$TMP/irq.json" 'n(cpu[0]["idle_s"])')" 0.00798
	expect_eq "irq-before-exit: unmatched exits" "$(jq_py "$TMP/irq.json" 'd["inferences"]["idle_exit_unmatched"]')" 0
	span_check "irq-before-exit" "$TMP/irq.json"
else
	fail "irq-before-exit: stats failed: $(cat "$TMP/err")"
fi

# ---------------------------------------------------------------------------
# exit-first.txt and exit-first-nofreq.txt, model m3: CPU 1's first cpu_idle
# event is an exit at 100.5: before it CPU 1 was idle in an unknown state,
# 0.5 s of unknown time, priced in the idle state --unknown-idle-state
# (default 0, WFI at 100 mW: 0.5 s x 100 mW = 50 mW s; with 2, "off",
# 0 mW: 0). Then busy 100.5-100.5001 (0.0001 s x 1000 mW = 0.1) and "off"
# to the end at 101.0 (0.4999 s, 0 mW). CPU 0 runs sugov-9 (common_pid 9)
# for the whole second: 1000 mW s. Total 1050.1 by default; the unknown
# share is 50 / 1050.1.
# ---------------------------------------------------------------------------
for f in exit-first exit-first-nofreq; do
	if "$EATRACE" report -f json -m "$REPRO/m3.json" "$REPRO/$f.txt" >"$TMP/$f.json" 2>"$TMP/err" &&
	   "$EATRACE" report -f json --unknown-idle-state 2 -m "$REPRO/m3.json" "$REPRO/$f.txt" >"$TMP/$f-2.json" 2>"$TMP/err"; then
		expect_eq "$f: CPU 1 unknown_s" "$(jq_py "$TMP/$f.json" 'n(cpu[1]["unknown_s"])')" 0.5
		expect_eq "$f: CPU 1 busy_s" "$(jq_py "$TMP/$f.json" 'n(cpu[1]["busy_s"])')" 0.0001
		expect_eq "$f: CPU 1 idle_s" "$(jq_py "$TMP/$f.json" 'n(cpu[1]["idle_s"])')" 0.4999
		expect_eq "$f: CPU 1 energy" "$(jq_py "$TMP/$f.json" 'n(cpu[1]["energy"]["total"])')" 50.1
		expect_eq "$f: CPU 1 unknown energy" "$(jq_py "$TMP/$f.json" 'n(cpu[1]["unknown_energy"])')" 50
		expect_eq "$f: total" "$(jq_py "$TMP/$f.json" 'n(d["energy"]["total"])')" 1050.1
		expect_eq "$f: unknown energy" "$(jq_py "$TMP/$f.json" 'n(d["unknown"]["energy"])')" 50
		expect_eq "$f: unknown idle state" "$(jq_py "$TMP/$f.json" 'd["unknown"]["idle_state"]')" 0
		expect_eq "$f: --unknown-idle-state 2: CPU 1 energy" "$(jq_py "$TMP/$f-2.json" 'n(cpu[1]["energy"]["total"])')" 0.1
		expect_eq "$f: --unknown-idle-state 2: unknown_s" "$(jq_py "$TMP/$f-2.json" 'n(cpu[1]["unknown_s"])')" 0.5
		span_check "$f" "$TMP/$f.json"
	else
		fail "$f: report failed: $(cat "$TMP/err")"
	fi
	# the text report's notes give the share: 50 / 1050.1 = 4.76%
	"$EATRACE" report -m "$REPRO/m3.json" "$REPRO/$f.txt" >"$TMP/$f.out" 2>&1
	if grep -q "4.8% of this energy rests on inference" "$TMP/$f.out"; then
		ok "$f: the notes give the unknown energy's share"
	else
		fail "$f: no '4.8% of this energy rests on inference' in: $(grep -A20 Notes "$TMP/$f.out")"
	fi
done

# ---------------------------------------------------------------------------
# task-two-cpus.txt, model m2: pid 300 is switched in on CPU 1 at 100.0; its
# switch-out there is lost; at 100.2 it is woken with target CPU 0 (a
# running task's wakeup names its own CPU), so it left CPU 1 by then, and
# it runs on CPU 0 from 100.20001 to 100.3. It is charged CPU 1's time only
# up to 100.2: runtime 0.2 + 0.09999 = 0.29999 s, energy at 1000 mW
# 299.99 mW s, energy / runtime = 1000 mW exactly (the model's maximum).
# CPU 1's state from its last sign of pid 300 (100.0) to the idle task's
# record at 100.4 is unknown: 0.4 s; then idle (pid 0) 0.6 s.
# ---------------------------------------------------------------------------
if "$EATRACE" report -f json -m "$REPRO/m2.json" "$REPRO/task-two-cpus.txt" >"$TMP/two.json" 2>"$TMP/err"; then
	expect_eq "task-two-cpus: pid 300 runtime_s" "$(jq_py "$TMP/two.json" 'n(task[300]["runtime_s"])')" 0.29999
	expect_eq "task-two-cpus: pid 300 energy" "$(jq_py "$TMP/two.json" 'n(task[300]["energy"]["total"])')" 299.99
	expect_eq "task-two-cpus: CPU 1 unknown_s" "$(jq_py "$TMP/two.json" 'n(cpu[1]["unknown_s"])')" 0.4
	expect_eq "task-two-cpus: CPU 1 idle_s" "$(jq_py "$TMP/two.json" 'n(cpu[1]["idle_s"])')" 0.6
	span_check "task-two-cpus" "$TMP/two.json"
else
	fail "task-two-cpus: report failed: $(cat "$TMP/err")"
fi

# ---------------------------------------------------------------------------
# lost-switchout.txt, model m2: pid 300 switched in on CPU 1 at 100.0, its
# switch-out lost, the idle task's record at 100.3 shows CPU 1 idle. The
# estimate (pid 300 until 100.3) is fine, but those 0.3 s are unknown time:
# CPU 1 unknown_s 0.3, idle 0.7 (100.3 to 101.0); pid 300's runtime and
# energy cover the same 0.3 s (300 mW s at 1000 mW).
# ---------------------------------------------------------------------------
if "$EATRACE" report -f json -m "$REPRO/m2.json" "$REPRO/lost-switchout.txt" >"$TMP/lost.json" 2>"$TMP/err"; then
	expect_eq "lost-switchout: CPU 1 unknown_s" "$(jq_py "$TMP/lost.json" 'n(cpu[1]["unknown_s"])')" 0.3
	expect_eq "lost-switchout: CPU 1 idle_s" "$(jq_py "$TMP/lost.json" 'n(cpu[1]["idle_s"])')" 0.7
	expect_eq "lost-switchout: pid 300 runtime_s" "$(jq_py "$TMP/lost.json" 'n(task[300]["runtime_s"])')" 0.3
	expect_eq "lost-switchout: pid 300 energy" "$(jq_py "$TMP/lost.json" 'n(task[300]["energy"]["total"])')" 300
	span_check "lost-switchout" "$TMP/lost.json"
else
	fail "lost-switchout: report failed: $(cat "$TMP/err")"
fi

finish
