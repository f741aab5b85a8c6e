#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What a Perfetto trace says besides its ftrace events (docs/perfetto.md):
# ftrace_stats' lost-event counts and sys_stats' initial frequencies, from
# tests/fixtures/perfetto/stats-freq.txtpb (encoded with protoc and the
# subset proto beside it). Expected events (stats-freq.expected), by hand:
#  - lost counts: overrun + dropped_events at END_OF_TRACE less at
#    START_OF_TRACE: CPU 0 7 - 2 = 5, given to its bundle with
#    lost_events (at 3000); CPU 2 (3 + 1) - (1 + 0) = 3, and no bundle of
#    CPU 2 says lost_events: before its first event (1100); CPU 1 0;
#  - sys_stats at 1500 (cpufreq_khz 1000000, 1200000, 0): CPU 0 has had
#    no cpu_frequency before 1500: 1000000 kHz at 1500; CPU 1 had one at
#    1200 (500000): nothing; CPU 2: 0 = none.
. "$(dirname "$0")/lib.sh"
command -v protoc >/dev/null || skip "needs protoc (protobuf-compiler)"
F=$ROOT/tests/fixtures/perfetto
enc() { protoc -I"$F" --encode=perfetto.protos.Trace "$F/subset.proto"; }

enc <"$F/stats-freq.txtpb" >"$TMP/sf.pb" || fail "protoc"
"$EATRACE" dump "$TMP/sf.pb" >"$TMP/sf.out" 2>"$TMP/err" || fail "dump: $(cat "$TMP/err")"
if cmp -s "$TMP/sf.out" "$F/stats-freq.expected"; then
	ok "lost counts and initial frequencies as expected"
else
	fail "stats-freq: $(diff "$TMP/sf.out" "$F/stats-freq.expected" | head -6 | tr '\n' ' ')"
fi
# stats counts them like the trace.dat path: 2 markers, 5 + 3 = 8 events
"$EATRACE" stats -f json "$TMP/sf.pb" 2>/dev/null | /usr/bin/python3 -c '
import json, sys
i = json.load(sys.stdin)["inferences"]
assert (i["lost_markers"], i["lost_events"]) == (2, 8), i
' && ok "stats: 2 lost markers, 8 events lost" || fail "stats lost counts"

# The snapshot taken before the first event (at 500): given at the first
# event's time (1000, never earlier: the trace's start stays), for CPUs 0
# and 1 (neither has a cpu_frequency before 1000); CPU 1's own event at
# 1200 follows.
sed 's/timestamp: 1500$/timestamp: 500/' "$F/stats-freq.txtpb" | enc >"$TMP/early.pb" || fail "protoc early"
"$EATRACE" dump "$TMP/early.pb" 2>/dev/null | grep cpu_frequency >"$TMP/early.out"
printf '%s\n' "1000 0 -1 cpu_frequency state=1000000 cpu_id=0" \
	"1000 1 -1 cpu_frequency state=1200000 cpu_id=1" \
	"1200 1 0 cpu_frequency state=500000 cpu_id=1" >"$TMP/early.exp"
cmp -s "$TMP/early.out" "$TMP/early.exp" && ok "early snapshot at the first event" ||
	fail "early snapshot: $(tr '\n' '|' <"$TMP/early.out")"
# Without ftrace_stats: a lost marker with no count, as before.
/usr/bin/python3 - "$F/stats-freq.txtpb" "$TMP/nostats.txtpb" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
# drop the two ftrace_stats packets
t = re.sub(r'packet \{\n  ftrace_stats \{.*?\n  \}\n\}\n', '', t, flags=re.S)
open(sys.argv[2], 'w').write(t)
PY
enc <"$TMP/nostats.txtpb" >"$TMP/ns.pb" || fail "protoc nostats"
"$EATRACE" dump "$TMP/ns.pb" 2>/dev/null | grep lost_events >"$TMP/ns.out"
expect_eq "no ftrace_stats: one marker, count 0" "$(cat "$TMP/ns.out")" "3000 0 -1 lost_events count=0"

# process_tree (procs.txtpb), priced with juno-r0: CPU 1 at 1100000 kHz
# draws 583 mW, so a thread running d s costs 583 x d mW x s: 100 0.2 s
# = 116.6, 101 0.3 s = 174.9, 200 0.1 s = 58.3, 201 0.2 s = 116.6, 300
# 0.2 s = 116.6. Processes: 100 "com.example.app" (cmdline[0]; threads
# 100, 101) 291.5; 200 (no cmdline: its main thread's comm "srv"; 200,
# 201) 174.9; 300 is in no tree: its own, "loner", 116.6; [idle] 0.
enc <"$F/procs.txtpb" >"$TMP/pr.pb" || fail "protoc procs"
"$EATRACE" report -m juno-r0 -f json "$TMP/pr.pb" >"$TMP/pr.json" 2>/dev/null || fail "report procs"
/usr/bin/python3 - "$TMP/pr.json" <<'PY' && ok "process_tree: tasks grouped by process" || fail "process_tree grouping"
import json, sys
j = json.load(open(sys.argv[1]))
p = [(x['tgid'], x['name'], x['in_process_tree'], x['threads'], x['energy']['total'],
      x['runtime_s']) for x in j['processes']]
assert p == [(100, 'com.example.app', True, 2, 291.5, 0.5), (200, 'srv', True, 2, 174.9, 0.3),
             (300, 'loner', False, 1, 116.6, 0.2), (0, '[idle]', False, 1, 0, 0.0)], p
t = {x['pid']: x['tgid'] for x in j['tasks']}
assert t == {100: 100, 101: 100, 200: 200, 201: 200, 300: 300, 0: 0}, t
PY
"$EATRACE" report -m juno-r0 --per-task "$TMP/pr.pb" 2>/dev/null |
	grep -Eq '^100 +com\.example\.app +2 +291\.500000 +50\.0%' && ok "process table in text" ||
	fail "process table in text"
# No process_tree: no "processes" key, no "tgid" in tasks.
enc <"$F/rails.txtpb" >"$TMP/r.pb"
"$EATRACE" report -m juno-r0 -f json "$TMP/r.pb" 2>/dev/null | grep -q '"processes"\|"tgid"' &&
	fail "processes without a process tree" || ok "no processes key without process_tree"
finish
