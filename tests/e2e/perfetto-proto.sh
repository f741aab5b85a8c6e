#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --perfetto FILE.pftrace (issue 30 item 9): Perfetto's own protobuf,
# decoded here with the protos' Python classes (protoc --python_out from
# ../shared/perfetto/protos) by tests/perfetto/check-pftrace.py, which
# checks clocks, track descriptors, slice BEGIN/END balance, and that the
# slices and counters are those of the same run's Chrome JSON and the
# power integrates to the report's energy. And the JSON's default cap.
#
# ui.perfetto.dev cannot be opened here and Debian has no trace_processor:
# the decoder applies the proto's documented rules itself (the script's
# docstring lists them).
. "$(dirname "$0")/lib.sh"
P=$SHARED/../perfetto/protos
[ -d "$P" ] || skip "needs ../shared/perfetto/protos (absent)"
command -v protoc >/dev/null || skip "needs protoc (protobuf-compiler)"
/usr/bin/python3 -c 'import google.protobuf' 2>/dev/null || skip "needs python3-protobuf"
mkdir "$TMP/py"
protoc -I"$P" --python_out="$TMP/py" "$P/perfetto/trace/perfetto_trace.proto" || fail "protoc --python_out"
CHECK="/usr/bin/python3 $ROOT/tests/perfetto/check-pftrace.py $TMP/py"
TWO=$ROOT/tests/fixtures/energy/two-cpu.json
GEN=$ROOT/traces/demo/gen-periodic.awk

# A trace worked out by hand (traces/demo/gen-periodic.awk, 1 s from
# 100 s, both CPUs at 1 GHz): task1 (pid 1001) on CPU 0 released at 0, 10,
# 20 ms ... runs 1 ms; task2 (pid 1002) on CPU 1 released at 0.997 ms,
# 10.997 ms ... runs 3 ms. So CPU 0 has 100 slices "task1 1001" of
# 1 000 000 ns from 100 000 000 000 ns, CPU 1 100 slices "task2 1002" of
# 3 000 000 ns from 100 000 997 000 ns; the OPP counter is 1000000 kHz from
# each start and 0 from each end, the idle state -1 and 0 (CPU 1 idle
# first, from 100 s).
awk -f "$GEN" -v spec="0:10000:1000,1:10000:3000" -v freqs=1000000,1000000 -v dur_us=1000000 >"$TMP/t.txt"
"$EATRACE" report -m "$TWO" -f json --perfetto "$TMP/t.pftrace" "$TMP/t.txt" >"$TMP/r.json" || fail "report --perfetto t.pftrace"
"$EATRACE" report -m "$TWO" --perfetto "$TMP/t.json" "$TMP/t.txt" >"$TMP/out" || fail "report --perfetto t.json"
[ "$(head -c 1 "$TMP/t.pftrace" | od -An -tx1 | tr -d ' ')" = 0a ] && ok "pftrace: starts with a Trace.packet field" ||
	fail "pftrace: first byte $(head -c 1 "$TMP/t.pftrace" | od -An -tx1)"
$CHECK "$TMP/t.pftrace" --json "$TMP/t.json" --report "$TMP/r.json" --summary "$TMP/sum" >"$TMP/py.out" 2>&1 &&
	ok "pftrace: decodes, balanced, as the JSON, energy as the report ($(cat "$TMP/py.out"))" || fail "pftrace: $(tail -3 "$TMP/py.out")"
P1='actual (recorded trace)'
for want in "slices $P1|CPU 0 100 task1 1001" "slices $P1|CPU 1 100 task2 1002" \
	"first $P1|CPU 0 100000000000+1000000 100010000000+1000000 100020000000+1000000" \
	"first $P1|CPU 1 100000997000+3000000 100010997000+3000000 100020997000+3000000" \
	"counter $P1|OPP CPU 0 (kHz) 100000000000:1000000 100001000000:0 100010000000:1000000 100011000000:0 100020000000:1000000 100021000000:0" \
	"counter $P1|idle state CPU 1 100000000000:0 100000997000:-1 100003997000:0 100010997000:-1 100013997000:0 100020997000:-1"; do
	grep -qxF "$want" "$TMP/sum" && ok "by hand: $want" || fail "by hand: no '$want' in: $(cat "$TMP/sum")"
done
grep -q "^counter $P1|power c (mW) " "$TMP/sum" && grep -q "^counter $P1|wakeup energy CPU 0 (mW x s) " "$TMP/sum" &&
	ok "power and wakeup energy tracks" || fail "power tracks: $(cat "$TMP/sum")"

# .perfetto-trace is protobuf too; replay: one process per run.
"$EATRACE" replay -m "$TWO" --policy all --perfetto "$TMP/p.perfetto-trace" "$TMP/t.txt" >"$TMP/out" || fail "replay --perfetto"
"$EATRACE" replay -m "$TWO" --policy all --perfetto "$TMP/p.json" "$TMP/t.txt" >"$TMP/out" || fail "replay --perfetto json"
$CHECK "$TMP/p.perfetto-trace" --json "$TMP/p.json" --procs 7 >"$TMP/py.out" 2>&1 &&
	ok "replay: 7 processes, as the JSON ($(cat "$TMP/py.out"))" || fail "replay: $(tail -3 "$TMP/py.out")"

# Names that are not UTF-8: protobuf strings must be; U+FFFD instead.
sed 's/task1/t\xffk/g' "$TMP/t.txt" >"$TMP/bad.txt"
"$EATRACE" report -m "$TWO" --perfetto "$TMP/bad.pftrace" "$TMP/bad.txt" >"$TMP/out" || fail "report, invalid UTF-8 comm"
$CHECK "$TMP/bad.pftrace" --summary "$TMP/bsum" >"$TMP/py.out" 2>&1 && grep -q "CPU 0 100 t.k 1001$" "$TMP/bsum" &&
	grep -q "$(printf 't\357\277\275k')" "$TMP/bsum" && ok "invalid UTF-8 name: U+FFFD" || fail "invalid UTF-8: $(cat "$TMP/py.out") $(head -2 "$TMP/bsum")"

# A cap: slices stop, the file stays whole and balanced.
DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
"$EATRACE" report -m tc2 --perfetto "$TMP/c.pftrace" --perfetto-max-mb 0.01 "$DEMO" >"$TMP/out" 2>"$TMP/err"
expect_eq "cap: exit" "$?" 0
grep -q "warning: .*c.pftrace reached --perfetto-max-mb 0.01 at 100\.[0-9]* s" "$TMP/err" && ok "cap: warned" || fail "cap: $(cat "$TMP/err")"
[ "$(wc -c <"$TMP/c.pftrace")" -lt 20000 ] && $CHECK "$TMP/c.pftrace" >"$TMP/py.out" 2>&1 &&
	ok "cap: $(wc -c <"$TMP/c.pftrace") bytes, $(cat "$TMP/py.out")" || fail "cap: $(cat "$TMP/py.out")"

# The JSON's default cap, 50 MiB, on a switch-heavy trace of 60 000
# periods on 2 CPUs (tests/perfetto/gen-switches.awk: 120 000 slices, each
# with 2 OPP and 2 idle-state changes: about 70 MB of JSON uncapped). The
# protobuf of the same run is whole (no cap reached) and small: per slice
# about 43 bytes (BEGIN with 2 extra counter values, END with 2) plus the
# power counters (20 000 buckets x 6 series x about 30 bytes): about 9 MB.
awk -f "$ROOT/tests/perfetto/gen-switches.awk" -v cycles=60000 >"$TMP/big.txt"
"$EATRACE" report -m "$TWO" --perfetto "$TMP/big.json" "$TMP/big.txt" >"$TMP/out" 2>"$TMP/err"
expect_eq "default cap: exit" "$?" 0
n=$(wc -c <"$TMP/big.json")
[ "$n" -gt $((49 << 20)) ] && [ "$n" -lt $((51 << 20)) ] && ok "default cap: JSON $n bytes, about 50 MiB" || fail "default cap: JSON $n bytes"
grep -q "warning: .*big.json reached --perfetto-max-mb 50 (the default for JSON) at 100\.[0-9]* s" "$TMP/err" &&
	ok "default cap: warned, naming the default" || fail "default cap warning: $(cat "$TMP/err")"
/usr/bin/python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/big.json" && ok "default cap: valid JSON" || fail "default cap: invalid JSON"
"$EATRACE" report -m "$TWO" -f json --perfetto "$TMP/big.pftrace" "$TMP/big.txt" >"$TMP/big-r.json" 2>"$TMP/err"
n=$(wc -c <"$TMP/big.pftrace")
[ ! -s "$TMP/err" ] && [ "$n" -lt $((10 << 20)) ] && ok "protobuf: whole, $n bytes" || fail "protobuf: $n bytes, $(cat "$TMP/err")"
$CHECK "$TMP/big.pftrace" --report "$TMP/big-r.json" --summary "$TMP/bigsum" >"$TMP/py.out" 2>&1 &&
	grep -qxF "slices $P1|CPU 0 60000 w0-0 1000,w0-1 1001,w0-2 1002,w0-3 1003,w0-4 1004,w0-5 1005,w0-6 1006,w0-7 1007" "$TMP/bigsum" &&
	ok "protobuf: 60 000 slices a CPU, energy as the report ($(cat "$TMP/py.out"))" || fail "protobuf big: $(tail -3 "$TMP/py.out") $(head -2 "$TMP/bigsum")"
"$EATRACE" report -m "$TWO" --perfetto "$TMP/all.json" --perfetto-max-mb 0 "$TMP/big.txt" >"$TMP/out" 2>"$TMP/err"
[ ! -s "$TMP/err" ] && [ "$(wc -c <"$TMP/all.json")" -gt $((55 << 20)) ] && ok "--perfetto-max-mb 0: no cap ($(wc -c <"$TMP/all.json") bytes)" ||
	fail "--perfetto-max-mb 0: $(wc -c <"$TMP/all.json") bytes, $(cat "$TMP/err")"
rm -f "$TMP/all.json" "$TMP/big.json" "$TMP/big.txt"
expect_fail "cap: negative" 2 "--perfetto-max-mb: '-1' is not a size in MB" -- \
	"$EATRACE" report -m tc2 --perfetto "$TMP/x.pftrace" --perfetto-max-mb -1 "$DEMO"
finish
