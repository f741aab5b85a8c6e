#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --cpus LIST and --task PID|COMM of report, stats and dump (issue 30 item 8):
#  - report --cpus C is exactly CPU C's share of the full report: the same
#    integers (exact decimals) as the full report's cpus[C], two CPUs sum
#    to theirs, every breakdown adds up to the filtered total;
#  - report --task: the energies of a hand-made trace, derived by hand
#    below; on the demo trace each task's filtered total is its row of the
#    full report, and --task '*' / every CPU is the full report;
#  - stats: only the selected rows, the same figures;
#  - dump: only the events about the selected CPUs and tasks;
#  - the outputs say the filter; bad lists are errors, a CPU or task the
#    trace lacks a warning;
#  - with --unit and a model that fails model check, the filtered outputs
#    name the unit and carry the warning as the unfiltered ones do.
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/fixtures
THREE=$FIX/filters/three-tasks.txt
TWO=$FIX/energy/two-cpu.json
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
PY=/usr/bin/python3

# ---- report --task and --cpus on three-tasks.txt, by hand ----
# The fixture's header has the timeline; two-cpu.json: 1 GHz core 100,
# cluster 50 mW; 2 GHz core 300, cluster 80 mW; WFI core 10, cluster 20 mW,
# wakeups core 0.5, cluster 2 mW s. 1 mW x 1 us = 0.000001 mW s.
# The cluster, shared among its busy CPUs (among both when all idle):
#   [0,100)    both idle:           20 x 100, 10 x 100 to each CPU ([idle])
#   [100,200)  a alone (1 GHz):     50 x 100 to a
#   [200,400)  a and worker-1, the fastest at 2 GHz: 80 x 200, 40 x 200 each
#   [400,500)  worker-1 alone:      80 x 100 to worker-1
#   [500,600)  both idle:           20 x 100, 10 x 100 each ([idle])
#   [600,800)  b alone (1 GHz):     50 x 200 to b
#   [800,1000) both idle:           20 x 200, 10 x 200 each ([idle])
# Tasks (core + cluster + the wakeup each ran after):
#   a (10, CPU0):  core 100 x 300 = 0.03, cluster 5000 + 8000 = 0.013,
#                  wakeup at 100 with the cluster idle: 0.5 + 2      = 2.543
#   b (20, CPU0):  core 100 x 200 = 0.02, cluster 50 x 200 = 0.01,
#                  wakeup at 600 with the cluster idle: 0.5 + 2      = 2.53
#   worker-1 (30, CPU1): core 300 x 300 = 0.09, cluster 8000 + 8000 =
#                  0.016, wakeup at 200, CPU0 busy: core 0.5 only    = 0.606
#   [idle] (0):    core 10 x (500 + 700 us) = 0.012, cluster 20 x 400 =
#                  0.008                                             = 0.02
#   total 5.699
# CPUs (own core, their share of the cluster, their wakeups):
#   CPU1: core 0.09 + 10 x 700 = 0.097; cluster 1000 + 8000 + 8000 + 1000 +
#         2000 = 0.02; wakeup 0.5                                    = 0.617
#   CPU0: the rest, 5.699 - 0.617                                    = 5.082
#   CPU1's [idle]: core 0.007, cluster 1000 + 1000 + 2000 = 0.004    = 0.011
# a in 250 us windows: [0,250) core 100 x 150, cluster 5000 + 40 x 50,
#   wakeup 2.5 = 2.522; [250,500) core 100 x 150, cluster 40 x 150 = 0.021.
"$EATRACE" report -q -m "$TWO" -f json "$THREE" >"$TMP/full.json" || fail "three: full report"
rep() { # rep NAME ARGS...: report -f json into $TMP/NAME.json
	n=$1
	shift
	"$EATRACE" report -q -m "$TWO" -f json "$@" "$THREE" >"$TMP/$n.json" 2>"$TMP/$n.err" ||
		fail "three $*: exit $? ($(head -c 200 "$TMP/$n.err"))"
}
rep a --task a
rep w --task 30
rep aw --task 'worker*' --task 10
rep idle --task '[idle]'
rep idle0 --task 0
rep c0 --cpus 0
rep c1 --cpus 1
rep c1idle --cpus 1 --task '[idle]'
rep awin --task a --interval 0.25
$PY - "$TMP" <<'PY' | while read -r line; do case $line in ok*) ok "${line#ok }" ;; *) fail "$line" ;; esac; done
import json, sys
from decimal import Decimal as D
tmp = sys.argv[1]
def load(n): return json.load(open('%s/%s.json' % (tmp, n)), parse_float=D, parse_int=D)
def check(name, got, want):
    print(('ok %s' % name) if got == want else 'three %s: got %s, expected %s' % (name, got, want))
full = load('full')
check('full total, by hand', full['energy']['total'], D('5.699'))
check('full: tasks by hand', {int(t['pid']): t['energy']['total'] for t in full['tasks']},
      {10: D('2.543'), 20: D('2.53'), 30: D('0.606'), 0: D('0.02')})
check('full: CPUs by hand', [c['energy']['total'] for c in full['cpus']], [D('5.082'), D('0.617')])
a = load('a')
check('--task a: total', a['energy']['total'], D('2.543'))
check('--task a: parts', {k: v for k, v in a['energy'].items() if v and k != 'total'},
      {'busy': D('0.043'), 'wakeup': D('2.5'), 'core_busy': D('0.03'), 'cluster_busy': D('0.013'),
       'core_wakeup': D('0.5'), 'cluster_wakeup': D('2')})
check('--task a: per CPU', [c['energy']['total'] for c in a['cpus']], [D('2.543'), D('0')])
check('--task a: the cluster', a['clusters'][0]['energy']['total'], D('2.543'))
check('--task a: its row only', [(int(t['pid']), t['comm']) for t in a['tasks']], [(10, 'a')])
# a's CPU0 P-states: core 100 x 300 at 1 GHz; its cluster shares at the
# cluster's OPP: 50 x 100 at 1 GHz ([100,200)), 40 x 200 at 2 GHz ([200,400))
check('--task a: CPU0 P-state energy (core, and cluster at the cluster\'s OPP)',
      [p['energy'] for p in a['cpus'][0]['pstates']], [D('0.035'), D('0.008')])
check('--task a: CPU0 C-state energy (the wakeup out of WFI)',
      [p['energy'] for p in a['cpus'][0]['cstates']], [D('2.5'), D('0')])
check('--task a: times stay the CPUs\' own', [c['busy_s'] for c in a['cpus']],
      [c['busy_s'] for c in full['cpus']])
check('--task a: task_filter', a['task_filter'], [{'comm': 'a', 'matched': True}])
check('--task 30 (worker-1)', [load('w')['energy']['total']] + [c['energy']['total'] for c in load('w')['cpus']],
      [D('0.606'), D('0'), D('0.606')])
aw = load('aw')
check('--task worker* --task 10', aw['energy']['total'], D('3.149'))
check('--task worker* --task 10: parts', (aw['energy']['core_busy'], aw['energy']['cluster_busy'],
      aw['energy']['core_wakeup'], aw['energy']['cluster_wakeup']), (D('0.12'), D('0.029'), D('1'), D('2')))
check('--task worker* --task 10: task_filter', aw['task_filter'],
      [{'comm': 'worker*', 'matched': True}, {'pid': 10, 'matched': True}])
check('--task [idle] (its own text)', load('idle')['energy']['total'], D('0.02'))
check('--task 0 = [idle]', load('idle0')['energy'], load('idle')['energy'])
c0, c1 = load('c0'), load('c1')
check('--cpus 0 = CPU0 of the full report', (c0['energy'], c0['cpus']), (full['cpus'][0]['energy'], [full['cpus'][0]]))
check('--cpus 1 by hand', c1['energy']['total'], D('0.617'))
check('--cpus 1 = CPU1 of the full report', (c1['energy'], c1['cpus']), (full['cpus'][1]['energy'], [full['cpus'][1]]))
check('--cpus 1: cpu_filter', c1['cpu_filter'], [1])
check('--cpus 1 --task [idle]', load('c1idle')['energy']['total'], D('0.011'))
check('--task a, 250 us windows', [w['energy']['total'] for w in load('awin')['windows']],
      [D('2.522'), D('0.021'), D('0'), D('0')])
PY

# ---- report --cpus on the demo trace: exactly the full report's CPUs ----
"$EATRACE" report -q -m tc2 -f json --interval 100 "$DEMO" >"$TMP/dfull.json"
for c in 0 1 2 3 4 0,2 2-3 0-4; do
	"$EATRACE" report -q -m tc2 -f json --interval 100 --cpus $c "$DEMO" >"$TMP/dc$c.json" ||
		fail "demo --cpus $c: exit $?"
done
"$EATRACE" report -q -m tc2 -f json --interval 100 --task '*' "$DEMO" >"$TMP/dall.json"
$PY - "$TMP" <<'PY' | while read -r line; do case $line in ok*) ok "${line#ok }" ;; *) fail "$line" ;; esac; done
import json, sys
from decimal import Decimal as D
tmp = sys.argv[1]
def load(n): return json.load(open('%s/%s.json' % (tmp, n)), parse_float=D, parse_int=D)
def check(name, got, want):
    print(('ok %s' % name) if got == want else 'demo %s: got %s, expected %s' % (name, got, want))
def esum(es):
    out = {}
    for e in es:
        for k, v in e.items():
            out[k] = out.get(k, 0) + v
    return out
full = load('dfull')
cpus = {int(c['cpu']): c for c in full['cpus']}
for sel, which in [('0', [0]), ('1', [1]), ('2', [2]), ('3', [3]), ('4', [4]), ('0,2', [0, 2]),
                   ('2-3', [2, 3])]:
    f = load('dc' + sel)
    check('--cpus %s: the total and its parts = the full report\'s CPUs %s' % (sel, which),
          f['energy'], esum([cpus[c]['energy'] for c in which]))
    check('--cpus %s: cpus[] = the full report\'s' % sel, f['cpus'], [cpus[c] for c in which])
    for part in ('clusters', 'tasks', 'windows'):
        check('--cpus %s: %s add up to the total' % (sel, part), esum([x['energy'] for x in f[part]]),
              f['energy'])
    check('--cpus %s: the clusters named are those of the CPUs' % sel, sorted(c['name'] for c in f['clusters']),
          sorted(set(cpus[c]['cluster'] for c in which)))
drop = lambda d, k: {x: v for x, v in d.items() if x != k}
check('--cpus 0-4 = the full report', drop(load('dc0-4'), 'cpu_filter'), full)
check("--task '*' = the full report", drop(load('dall'), 'task_filter'), full)
PY
# Each task alone: its row of the full report, exactly.
$PY -c 'import json,sys
for t in json.load(open(sys.argv[1]))["tasks"]: print(t["pid"], t["energy"]["total"])' \
	"$TMP/dfull.json" >"$TMP/tasks"
n=0
while read -r pid e; do
	got=$("$EATRACE" report -q -m tc2 -f json --task "$pid" "$DEMO" |
		$PY -c 'import json,sys; print(json.load(sys.stdin)["energy"]["total"])')
	[ "$got" = "$e" ] || fail "demo --task $pid: total $got, its row in the full report $e"
	n=$((n + 1))
done <"$TMP/tasks"
expect_eq "demo: --task PID = the task's row, for every task" "$n" 8

# The outputs say the filter.
"$EATRACE" report -q -m tc2 --cpus 0,2 --task 'task*' "$DEMO" >"$TMP/t.txt"
expect_eq "text: the filter line" "$(grep -c '^filter: CPUs 0,2; tasks task\*: ' "$TMP/t.txt")" 1
expect_eq "text: only CPUs 0 and 2" "$(grep -cE '^[0-9] \((A15|A7)\)' "$TMP/t.txt")" 2
expect_eq "text: --task lists the tasks" "$(grep -c '^PID ' "$TMP/t.txt")" 1
"$EATRACE" report -q -m tc2 -f csv --cpus 1-2,4 --task 1005 "$DEMO" >"$TMP/t.csv"
expect_eq "csv: filter rows" "$(sed -n 2,3p "$TMP/t.csv" | tr '\n' ' ')" 'filter,cpus,"1-2,4",,,,,,,, filter,tasks,"1005",,,,,,,, '
expect_eq "csv: only the CPUs selected" "$(grep -c '^cpu,' "$TMP/t.csv")" 3
"$EATRACE" report -q -m tc2 --cpus 3 --html "$TMP/t.html" "$DEMO" >/dev/null
expect_eq "html: the filter line" "$(grep -c 'id="filter">Filter: CPU 3:' "$TMP/t.html")" 1
expect_eq "html: CPU 3's rows only" "$(grep -o 'data-cpu="[0-9]*"' "$TMP/t.html" | sort -u | tr '\n' ' ')" 'data-cpu="3" '

# ---- with --unit and a model that fails model check (issue 30 items 4, 5) ----
# bad.json: two-cpu.json with OFF's core power 20, above WFI's 10, one
# model-check error; the fixture never enters OFF, so the energies above
# stand. mW x s = mJ, and 1 mJ = 1000 uJ: a's 2.543 mW s is 2543 uJ; CPU 1's
# 0.617 (busy: core 0.09 + cluster 0.016 = 0.106; idle: core 0.007 +
# cluster 0.004 = 0.011; wakeup 0.5) is 0.617 mJ, 617 uJ (106, 11, 500).
sed 's/{ "name": "OFF", "core_power": 0,/{ "name": "OFF", "core_power": 20,/' "$TWO" >"$TMP/bad.json"
"$EATRACE" model check "$TMP/bad.json" >/dev/null
expect_eq "bad.json fails model check" "$?" 1
"$EATRACE" report -m "$TMP/bad.json" -f json --task a --unit uJ "$THREE" >"$TMP/u.json" 2>"$TMP/u.err"
expect_eq "--task a --unit uJ, a failing model: one warning on stderr" \
	"$(grep -c "warning: model $TMP/bad.json fails 'eatrace model check'" "$TMP/u.err")" 1
$PY - "$TMP/u.json" <<'PY' | while read -r line; do case $line in ok*) ok "${line#ok }" ;; *) fail "$line" ;; esac; done
import json, sys
from decimal import Decimal as D
j = json.load(open(sys.argv[1]), parse_float=D, parse_int=D)
def check(name, got, want):
    print(('ok %s' % name) if got == want else '--unit uJ %s: got %s, expected %s' % (name, got, want))
check('--task a --unit uJ: 2543 uJ, by hand', (j['energy']['total'], j['energy_unit'], j['power_unit']), (D(2543), 'uJ', 'uW'))
check('... the task_filter', j['task_filter'], [{'comm': 'a', 'matched': True}])
check('... model_check fails', (j['model_check']['ok'], len(j['model_check']['errors'])), (False, 1))
check('... the warning is the first note', (j['notes'][0]['kind'], "fails 'eatrace model check'" in j['notes'][0]['message']),
      ('warning', True))
PY
"$EATRACE" report -q -m "$TMP/bad.json" --cpus 1 --unit mJ --html "$TMP/u.html" "$THREE" >"$TMP/u.txt"
expect_eq "text --cpus 1 --unit mJ: the unit, the filter, the total by hand" \
	"$(grep -E '^(filter:|total )|energy in' "$TMP/u.txt" | sed 's/^.*energy in/energy in/; s/ \{1,\}/ /g')" \
	"energy in mJ
filter: CPU 1: the energies below are their share only (times: the CPUs' and clusters' own)
total 0.617000 100.0% 0.106000 0.011000 0.500000"
expect_eq "text: the model-check warning note" "$(grep -c "^  warning   model $TMP/bad.json fails 'eatrace model check'" "$TMP/u.txt")" 1
expect_eq "html: the red box, the filter, the total in mJ" \
	"$(grep -c '<p class="warn" data-model-check="fail">' "$TMP/u.html"):$(grep -c 'id="filter">Filter: CPU 1:' "$TMP/u.html"):$(grep -o 'data-total-energy="[^"]*" data-energy-unit="[^"]*"' "$TMP/u.html")" \
	'1:1:data-total-energy="0.617" data-energy-unit="mJ"'
"$EATRACE" report -q -m "$TMP/bad.json" -f csv --cpus 1 --unit uJ "$THREE" >"$TMP/u.csv"
expect_eq "csv --unit uJ: the filter row, then CPU 1's share in uJ" "$(sed -n 2,3p "$TMP/u.csv" | tr '\n' ' ')" \
	'filter,cpus,"1",,,,,,,, total,,,,0.001000000,617,106,11,500,300.000000000,"uJ" '

# ---- stats: only the rows selected, the same figures ----
"$EATRACE" stats -f json "$DEMO" >"$TMP/s.json"
"$EATRACE" stats -f json --cpus 1,3 --task 'task[12]' --task 1007 "$DEMO" >"$TMP/sf.json"
$PY - "$TMP" <<'PY' | while read -r line; do case $line in ok*) ok "${line#ok }" ;; *) fail "$line" ;; esac; done
import json, sys
tmp = sys.argv[1]
full, f = (json.load(open('%s/%s.json' % (tmp, n))) for n in ('s', 'sf'))
def check(name, got, want):
    print(('ok %s' % name) if got == want else 'stats %s: got %s, expected %s' % (name, got, want))
check('--cpus 1,3: those rows, as in the full output', f['cpus'], [c for c in full['cpus'] if c['cpu'] in (1, 3)])
check('--task: those rows, as in the full output', f['tasks'],
      [t for t in full['tasks'] if t['pid'] in (1001, 1002, 1007)])
check('cpu_filter, task_filter', (f['cpu_filter'], f['task_filter']),
      ([1, 3], [{'comm': 'task[12]', 'matched': True}, {'pid': 1007, 'matched': True}]))
check('the rest is the whole trace\'s', {k: v for k, v in f.items() if k not in ('cpus', 'tasks', 'cpu_filter', 'task_filter')},
      {k: v for k, v in full.items() if k not in ('cpus', 'tasks')})
PY
"$EATRACE" stats --cpus 4 --task task5 "$DEMO" >"$TMP/s.txt"
expect_eq "stats text: the filter line" "$(grep -c '^filter: CPU 4; tasks task5: only their rows' "$TMP/s.txt")" 1
expect_eq "stats text: one task row" "$(grep -c '^100[0-9] ' "$TMP/s.txt")" 1
"$EATRACE" stats -f csv --cpus 0,4 "$DEMO" >"$TMP/s.csv"
expect_eq "stats csv: the filter row" "$(sed -n 2p "$TMP/s.csv")" 'filter,,,,,,cpus,"0,4"'
expect_eq "stats csv: CPUs 0 and 4 only" "$(grep '^cpu,' "$TMP/s.csv" | cut -d, -f2 | sort -u | tr '\n' ' ')" "0 4 "

# ---- dump: the events about the CPUs and tasks selected ----
"$EATRACE" dump "$THREE" >"$TMP/d.all"
"$EATRACE" dump --task a "$THREE" >"$TMP/d.a"
expect_eq "dump --task a: its wakeup, switch in and out" "$(cat "$TMP/d.a")" \
	"$(grep -E 'comm=a pid=10|_comm=a ' "$TMP/d.all")"
expect_eq "dump --task a: 3 events" "$(wc -l <"$TMP/d.a")" 3
"$EATRACE" dump --task worker-1 --task 20 "$THREE" >"$TMP/d.wb"
expect_eq "dump --task worker-1 --task 20: 6 events" "$(grep -c 'pid=30\|pid=20' "$TMP/d.wb")" 6
"$EATRACE" dump --cpus 1 "$THREE" >"$TMP/d.c1"
expect_eq "dump --cpus 1: the events recorded on CPU 1" "$(cat "$TMP/d.c1")" "$(awk '$2 == 1' "$TMP/d.all")"
expect_eq "dump --cpus 1: 7 events" "$(wc -l <"$TMP/d.c1")" 7
expect_eq "dump --cpus 1 --task a: none" "$("$EATRACE" dump --cpus 1 --task a "$THREE" | wc -l)" 0
# sched_load_se has no name: a task selected by name is known by its pid
{ cat "$THREE"; echo '          <idle>-0     [000] d..2.   300.001000: sched_load_se: cpu=0 path=(null) comm=a pid=10 load=0 util=12'; } >"$TMP/se.txt"
expect_eq "dump --task a: its sched_load_se" "$("$EATRACE" dump --task a "$TMP/se.txt" | grep -c 'sched_load_se.*pid=10')" 1
expect_eq "dump --task b: not a's sched_load_se" "$("$EATRACE" dump --task b "$TMP/se.txt" | grep -c sched_load_se)" 0
# a wakeup recorded elsewhere is about its target CPU
sed 's/\[000\] d..2.   300.000100: sched_wakeup/[001] d..2.   300.000100: sched_wakeup/' "$THREE" >"$TMP/wk.txt"
expect_eq "dump --cpus 0: a wakeup recorded on CPU 1 for CPU 0" \
	"$("$EATRACE" dump --cpus 0 "$TMP/wk.txt" | grep -c 'sched_wakeup: \|sched_wakeup comm=a')" 1

# ---- errors, and what the trace lacks ----
expect_fail "report --cpus x" 2 "--cpus: 'x' is not a list of CPUs" -- "$EATRACE" report -m tc2 --cpus x "$DEMO"
expect_fail "report --cpus 2-1" 2 "--cpus: '2-1' is not a list of CPUs" -- "$EATRACE" report -m tc2 --cpus 2-1 "$DEMO"
expect_fail "report --cpus 0," 2 "--cpus: '0,' is not a list of CPUs" -- "$EATRACE" report -m tc2 --cpus 0, "$DEMO"
expect_fail "report --cpus 7 (not in the model)" 2 "--cpus: CPU 7 is not in model ARM TC2 (CPUs 0 to 4)" -- \
	"$EATRACE" report -m tc2 --cpus 7 "$DEMO"
expect_fail "report --task ''" 2 "--task: an empty name" -- "$EATRACE" report -m tc2 --task '' "$DEMO"
expect_fail "report --task 99999999999" 2 "--task: '99999999999' is not a PID" -- \
	"$EATRACE" report -m tc2 --task 99999999999 "$DEMO"
expect_fail "report --perfetto with --cpus" 2 "--perfetto shows the whole trace" -- \
	"$EATRACE" report -m tc2 --cpus 0 --perfetto "$TMP/p.json" "$DEMO"
[ ! -e "$TMP/p.json" ] && ok "report --perfetto with --cpus: no file" || fail "report --perfetto with --cpus: a file"
expect_fail "stats --cpus 1-" 2 "--cpus: '1-' is not a list of CPUs" -- "$EATRACE" stats --cpus 1- "$DEMO"
expect_fail "dump --cpus ''" 2 "--cpus: '' is not a list of CPUs" -- "$EATRACE" dump --cpus '' "$DEMO"
expect_fail "dump --start 1 (not a dump option)" 2 "dump: unknown option '--start'" -- "$EATRACE" dump --start 1 "$DEMO"
expect_fail "dump --task (no value)" 2 "dump: option --task needs a value" -- "$EATRACE" dump "$DEMO" --task
# A CPU of the model the trace does not have, a task it never names: a
# warning, exit 0, as trace-cmd and perf give an empty selection.
sed 's/"cpus": \[0, 1\]/"cpus": [0, 1, 2, 3, 4]/' "$TWO" >"$TMP/five.json"	# CPUs 0-4
expect_fail "report --cpus 4 on a 2-CPU trace: a warning" 0 "warning: $THREE: --cpus: CPU 4 is not in the trace" -- \
	"$EATRACE" report -m "$TMP/five.json" -f json --cpus 4 "$THREE"
expect_eq "... and a zero total" "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["energy"]["total"])' "$TMP/out")" 0
expect_fail "report --task nosuch: a warning" 0 "warning: $DEMO: --task nosuch: no task of that name in the trace" -- \
	"$EATRACE" report -m tc2 -f json --task nosuch "$DEMO"
expect_eq "... and matched false in the JSON" "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["task_filter"])' "$TMP/out")" \
	"[{'comm': 'nosuch', 'matched': False}]"
expect_fail "stats --task 4242: a warning" 0 "warning: $DEMO: --task 4242: no such task in the trace" -- \
	"$EATRACE" stats --task 4242 "$DEMO"
expect_fail "dump --cpus 9: a warning" 0 "warning: $DEMO: --cpus: CPU 9 is not in the trace" -- \
	"$EATRACE" dump --cpus 9 "$DEMO"
"$EATRACE" stats -q --cpus 9 --task nosuch "$DEMO" >"$TMP/out" 2>"$TMP/err"
expect_eq "stats -q: no warning" "$?:$(wc -c <"$TMP/err")" "0:0"
finish
