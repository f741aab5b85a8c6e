#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Perfetto traces from text-format protos, encoded with protoc and
# ../shared/perfetto's protos (docs/perfetto.md):
#  - tests/fixtures/perfetto/*.txtpb: each decodes to exactly the events in
#    its .expected file (worked out by hand from the text form: per CPU in
#    bundle order, CPUs merged by timestamp then CPU number; compact_sched
#    prev task = the CPU's previous next task, the CPU's first compact
#    switch dropped; ties in a bundle: compact switches, compact wakings,
#    then per-event; the first bundles' latest previous_bundle_end_timestamp
#    crops what is before it);
#  - Perfetto's own parser tests (tests/perfetto/conformance.py).
. "$(dirname "$0")/lib.sh"
PERFETTO=${PERFETTO:-$SHARED/../perfetto}
[ -d "$PERFETTO/protos" ] || skip "needs ../shared/perfetto (absent)"
command -v protoc >/dev/null || skip "needs protoc (protobuf-compiler)"
P=$PERFETTO/protos

for t in "$ROOT"/tests/fixtures/perfetto/*.txtpb; do
	b=$(basename "$t" .txtpb)
	if ! protoc -I"$P" --encode=perfetto.protos.Trace "$P/perfetto/trace/perfetto_trace.proto" <"$t" >"$TMP/$b.pb"; then
		fail "$b: protoc"
		continue
	fi
	"$EATRACE" dump "$TMP/$b.pb" >"$TMP/$b.out" 2>"$TMP/$b.err" || fail "$b: dump: $(cat "$TMP/$b.err")"
	if cmp -s "$TMP/$b.out" "$ROOT/tests/fixtures/perfetto/$b.expected"; then
		ok "$b: events as expected ($(wc -l <"$TMP/$b.out"))"
	else
		fail "$b: $(diff "$TMP/$b.out" "$ROOT/tests/fixtures/perfetto/$b.expected" | head -4 | tr '\n' ' ')"
	fi
	# gzip'd, the same events
	gzip -c "$TMP/$b.pb" >"$TMP/$b.pb.gz"
	"$EATRACE" dump "$TMP/$b.pb.gz" | cmp -s - "$TMP/$b.out" && ok "$b: gzip'd" || fail "$b: gzip'd differs"
done
# sched-power: lost_events and the crop are reported by stats.
protoc -I"$P" --encode=perfetto.protos.Trace "$P/perfetto/trace/perfetto_trace.proto" \
	<"$ROOT/tests/fixtures/perfetto/sched-power.txtpb" >"$TMP/sp.pb"
"$EATRACE" stats -f json "$TMP/sp.pb" >"$TMP/sp.json" || fail "stats sched-power"
/usr/bin/python3 - "$TMP/sp.json" <<'PY' && ok "sched-power: stats counts" || fail "sched-power: stats counts"
import json, sys
j = json.load(open(sys.argv[1]))
e = j['events']
# from the .txtpb: 4 switches (2 per CPU), 1 each of wakeup, waking, wakeup_new, migrate,
# 1 cpu_frequency, 2 cpu_idle, 1 bundle with lost_events; 2 CPUs
assert (e['sched_switch'], e['sched_wakeup'], e['sched_waking'], e['sched_wakeup_new'],
        e['sched_migrate_task'], e['cpu_frequency'], e['cpu_idle'], e['lost_events']) == \
       (4, 1, 1, 1, 1, 1, 2, 1), e
assert j['ncpus'] == 2, j['ncpus']
PY
mkdir -p "$TMP/conf"
/usr/bin/python3 "$ROOT/tests/perfetto/conformance.py" "$EATRACE" "$PERFETTO" "$TMP/conf" >"$TMP/conf.out" 2>&1 || nfail=$((nfail + 1))
cat "$TMP/conf.out"
finish
