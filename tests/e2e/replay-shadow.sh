#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay --shadow POLICY` (docs/replay.md "Decision-level
# validation") on tests/fixtures/replay/shadow-tc2.txt: task t1 runs 2 ms
# on A15 CPU 0, sleeps 8 ms, is woken to CPU 0 (the kernel kept prev), runs
# 1 ms, sleeps 9 ms, is woken to A7 CPU 2 (moved), all on tc2.
#  - t1's util is small (~35 after 2 ms of running and 8 of sleep: 1024 x
#    (1 - 0.5^(2/32)) x 0.5^(8/32)), every CPU idle, nothing overutilised;
#  - feec: the A7s (800 MHz, the lowest efficient OPP: 1498 per CPU, cap
#    819) cost 1498/819 = 1.829 per util, the A15s (1 GHz: 8069, cap 1679)
#    4.806: both wakeups go to the first A7 of most spare capacity, CPU 2:
#    disagrees at the first (stayed on prev 0/1), agrees at the second
#    (moved 1/1); each candidate's energy: A15 / A7 = 4.806 / 1.829 =
#    2.6275 whatever the util;
#  - cfs: prev (CPU 0) is idle both times: stayed 1/1, moved 0/1. The
#    first wakeup is written on CPU 0 (no sched_waking: the waker's CPU is
#    the sched_wakeup's), prev: no wake_affine, target 0 idle. The second
#    on CPU 2, an A7, another LLC than prev's: wake_affine_idle() does not
#    take an idle this_cpu of another LLC, prev is idle: prev; target 0
#    idle. No candidates compared (0 of 2);
#  - baselines on the same 2 decisions: keep prev (0, 0) agrees once; the
#    waker's CPU (0, then 2) twice. feec compared energies both times
#    (compared 2, agreeing 1).
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
fx=tests/fixtures/replay/shadow-tc2.txt

# kinds JSON: "stayed agree/n moved agree/n over agree/n"
kinds() { /usr/bin/python3 -c "
import json,sys; k=json.load(open(sys.argv[1]))['kinds']
print(' '.join('%d/%d' % (k[x]['agree'], k[x]['decisions'])
      for x in ('stayed_on_prev', 'moved', 'overutilised')))" "$1"; }

"$EATRACE" replay "$fx" -m tc2 --shadow feec -f json \
	--emit-decisions "$TMP/d.csv" >"$TMP/feec.json" || fail "shadow feec"
expect_eq "feec: stayed 0/1, moved 1/1, overutilised 0/0" "$(kinds "$TMP/feec.json")" "0/1 1/1 0/0"
"$EATRACE" replay "$fx" -m tc2 --shadow cfs -f json >"$TMP/cfs.json" || fail "shadow cfs"
expect_eq "cfs: stayed 1/1, moved 0/1" "$(kinds "$TMP/cfs.json")" "1/1 0/1 0/0"
base() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
print(d['agree_keep_prev'], d['agree_waker_cpu'], d['compared'], d['compared_agree'])" "$1"; }
expect_eq "cfs: keep prev 1, waker's CPU 2, compared 0" "$(base "$TMP/cfs.json")" "1 2 0 0"
expect_eq "feec: keep prev 1, waker's CPU 2, compared 2 (1 agrees)" "$(base "$TMP/feec.json")" "1 2 2 1"
"$EATRACE" replay "$fx" -m tc2 --shadow cfs >"$TMP/cfs.txt" || fail "shadow cfs text"
expect_eq "text: the baselines beside the agreement" \
	"$(sed -n 2p "$TMP/cfs.txt")" \
	"baselines on the same decisions: keep prev 1 (50.0%), the waker's CPU 2 (100.0%)"
# the CSV: header + 2 decisions; columns; candidate energies' ratio
expect_eq "decisions CSV rows" "$(wc -l <"$TMP/d.csv" | tr -d ' ')" "3"
expect_eq "decisions CSV first row" "$(sed -n 2p "$TMP/d.csv" | cut -d, -f1-8)" \
	"100.010000000,101,t1,0,0,2,0,stayed_on_prev"
expect_eq "A15 / A7 candidate energy" "$(sed -n 3p "$TMP/d.csv" | awk -F, '{ printf "%.4f", $9 / $11 }')" "2.6275"
"$EATRACE" replay "$fx" -m tc2 --shadow eas-rfc --emit-decisions "$TMP/d.json" \
	>"$TMP/out" || fail "shadow eas-rfc json"
expect_eq "decisions JSON" "$(/usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
print(len(d), [x['policy_cpu'] for x in d], len(d[0]['energy']))" "$TMP/d.json")" "2 [2, 2] 5"
expect_fail "--emit-decisions needs --shadow" 2 "needs --shadow" -- \
	"$EATRACE" replay "$fx" -m tc2 --emit-decisions "$TMP/x.csv"
expect_fail "--shadow recorded" 2 "is not a placement policy" -- \
	"$EATRACE" replay "$fx" -m tc2 --shadow recorded
expect_fail "--shadow on another platform" 2 "no --target-model" -- \
	"$EATRACE" replay "$fx" -m tc2 --shadow feec --target-model juno-r0
[ ! -e "$TMP/x.csv" ] && ok "no decisions file on error" || fail "decisions file left"
finish
