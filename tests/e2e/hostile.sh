#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile inputs through the CLI (docs/robustness.md): each must exit with
# the documented code (2 for bad input), print exactly one stderr line
# naming the file (and the position, where the format has one), leave an
# existing -o file untouched and no temporary file behind, and never crash
# or hang (every run is under `timeout 20`: a hang exits 124).
. "$(dirname "$0")/lib.sh"

# Under 'make sanitize': leaks inside libtraceevent/libtracecmd on corrupt
# trace.dat files are a known limitation (see the end of this file), not
# eatrace's; leaks in eatrace itself still fail.
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

H=$ROOT/tests/fixtures/hostile
DAT=$H/trappy-idle-2cpu.dat	# 16 KiB: tests/fuzz/shrink-dat.py of trappy's
DATSIZE=$(wc -c <"$DAT")	# tests__trace_idle.dat, 2 CPUs with data
OUT=$TMP/o/report.json
mkdir -p "$TMP/o"

# bad NAME MESSAGE CMD ARGS...: like expect_fail with exit 2, plus: the old
# output file survives and nothing else is left in its directory.
bad() {
	name=$1 msg=$2
	shift 2
	echo OLD >"$OUT"
	expect_fail "$name" 2 "$msg" -- timeout 20 "$@" -o "$OUT"
	expect_eq "$name: old output kept" "$(cat "$OUT")" "OLD"
	expect_eq "$name: no temporary left" "$(ls "$TMP/o")" "report.json"
}

# stats_bad NAME MESSAGE FILE
stats_bad() { bad "$1" "$2" "$EATRACE" stats "$3"; }

# A text trace: three good events around what the test inserts.
L1='          <idle>-0     [002]    50.123456789: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=cat next_pid=42 next_prio=120'
L2='             cat-42    [002]    50.123457000: cpu_frequency: state=998400 cpu_id=2'
L3='             cat-42    [002]    50.200000001: sched_switch: prev_comm=cat prev_pid=42 prev_prio=120 prev_state=Z ==> next_comm=swapper/2 next_pid=0 next_prio=120'
text() { # text FILE LINE...: header, L1, the lines given, L3
	f=$1
	shift
	{ printf '# tracer: nop\n#\n%s\n' "$L1"; printf '%s\n' "$@"; printf '%s\n' "$L3"; } >"$f"
}

# ---- empty and unrecognisable files ----
: >"$TMP/empty"
stats_bad "empty file" "$TMP/empty: empty file" "$TMP/empty"
printf '\027\010Dtrac' >"$TMP/magic5"
stats_bad "5 bytes of the trace.dat magic" "$TMP/magic5: not a trace.dat, Perfetto trace, ftrace text or systrace file" "$TMP/magic5"

# ---- trace.dat cut at several offsets ----
# In the magic, the version string, the header page/event formats, the
# event formats, the CPU offsets, the first and second CPU's data pages.
for off in 10 11 12 17 100 700 3000 6200 6300 8191 8192 9000 12287 12288 14000 $((DATSIZE - 1)); do
	head -c $off "$DAT" >"$TMP/cut.dat"
	stats_bad "trace.dat cut at $off of $DATSIZE bytes" "$TMP/cut.dat: " "$TMP/cut.dat"
	expect_eq "trace.dat cut at $off: says trace.dat" "$(grep -c 'trace\.dat' "$TMP/err")" 1
done
# The full-size reference trace cut mid-data, if the shared traces are here.
BIG=$SHARED/trappy/tests__trace_idle.dat
if [ -f "$BIG" ]; then
	for off in 2500000 3000000; do
		head -c $off "$BIG" >"$TMP/cut.dat"
		stats_bad "trappy trace.dat cut at $off" "$TMP/cut.dat: truncated or corrupt trace.dat" "$TMP/cut.dat"
	done
fi

# ---- trace.dat with a corrupt header ----
cp "$DAT" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 10 37	# version "7\0": v6 data read as v7
stats_bad "trace.dat version byte" "$TMP/c.dat: truncated or corrupt trace.dat" "$TMP/c.dat"
cp "$DAT" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 10 39	# version "9"
stats_bad "trace.dat unknown version" "$TMP/c.dat: trace.dat version 9 not supported" "$TMP/c.dat"
cp "$DAT" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 12 01	# big endian
# (libtracecmd may crash on it, in the rehearsal child: ASan builds see it)
stats_bad "trace.dat endianness flipped" "$TMP/c.dat: truncated or corrupt trace.dat" "$TMP/c.dat"
# First CPU's data offset (after "flyrecord\0" at 6271) far beyond the end.
cp "$DAT" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 6281 00000000e8030000
stats_bad "trace.dat CPU offset beyond the file" "$TMP/c.dat: truncated or corrupt trace.dat" "$TMP/c.dat"
cp "$DAT" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 6289 00000000e8030000
stats_bad "trace.dat CPU size beyond the file" "$TMP/c.dat: truncated or corrupt trace.dat" "$TMP/c.dat"

# ---- trace.dat with a corrupt data page ----
# The first CPU's page starts at 8192: timestamp (8), commit (8), records.
cp "$DAT" "$TMP/c.dat"; patch_bytes "$TMP/c.dat" 8200 ffffffffffffffff
stats_bad "trace.dat page commit size corrupt" "$TMP/c.dat: truncated or corrupt trace.dat" "$TMP/c.dat"
# Garbage records: read (libtracecmd sees nothing wrong), never a crash.
cp "$DAT" "$TMP/c.dat"
head -c 512 /dev/zero | tr '\0' '\245' | dd of="$TMP/c.dat" bs=1 seek=8208 conv=notrunc status=none
timeout 20 "$EATRACE" stats "$TMP/c.dat" >/dev/null 2>"$TMP/err"
rc=$?
case $rc in
0 | 2) ok "trace.dat garbage records: exit $rc" ;;
*) fail "trace.dat garbage records: exit $rc: $(cat "$TMP/err")" ;;
esac

# ---- text: garbage, overlong and cut lines ----
text "$TMP/t.txt" "$(printf 'cat-42 [002] 50.2: \001\002\003\377\376binary\200\201')"
stats_bad "text with binary garbage" "$TMP/t.txt:line 4: binary data in text trace" "$TMP/t.txt"
{ printf '# tracer: nop\n%s\n' "$L1"; head -c 3000 /dev/zero; printf '\n%s\n' "$L3"; } >"$TMP/t.txt"
stats_bad "text with NUL bytes" "$TMP/t.txt:line 3: NUL byte" "$TMP/t.txt"
long=$(head -c 70000 /dev/zero | tr '\0' x)
text "$TMP/t.txt" "$long"
stats_bad "overlong line" "$TMP/t.txt:line 4: line longer than 65536 bytes" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [002]    50.123457000: cpu_frequency: state=99"
stats_bad "line cut mid-field" "$TMP/t.txt:line 4: malformed cpu_frequency event: 'state=99'" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [002]    50.12345"
stats_bad "line cut mid-timestamp" "$TMP/t.txt:line 4: bad timestamp in event line: '[002]    50.12345'" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [0"
stats_bad "line cut mid-CPU" "$TMP/t.txt:line 4: truncated event line" "$TMP/t.txt"
stats_bad "sched_wakeup cut mid-file" "cut-mid-wakeup.txt:line 31: malformed sched_wakeup event: 'comm=t'" "$H/cut-mid-wakeup.txt"
# The same cut as the last line: a capture copied while being written.
timeout 20 "$EATRACE" stats "$H/cut-last-wakeup.txt" >"$TMP/s" 2>"$TMP/err"
expect_eq "sched_wakeup cut as the last line: exit" "$?" 0
expect_eq "sched_wakeup cut as the last line: warning" \
	"$(grep -c 'the last line (55) is an event cut short' "$TMP/s")" 1

# ---- timestamps ----
text "$TMP/t.txt" "$L2" \
	"             cat-42    [002]    52.000000000: cpu_frequency: state=998400 cpu_id=2" \
	"             cat-42    [002]    45.000000000: cpu_frequency: state=998400 cpu_id=2"
stats_bad "timestamp going backwards" "$TMP/t.txt:line 6: timestamp 45.000000000 goes backwards beyond the reorder window" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [002] 99999999999999999999.0: cpu_frequency: state=998400 cpu_id=2"
stats_bad "timestamp overflowing 64 bits" "$TMP/t.txt:line 4: bad timestamp in event line" "$TMP/t.txt"

# ---- CPUs: 2^31, beyond the header's count, missing ----
text "$TMP/t.txt" "             cat-42    [2147483648]    50.123457000: cpu_frequency: state=998400 cpu_id=2"
stats_bad "CPU column 2^31" "$TMP/t.txt:line 4: CPU column [2147483648] out of range" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [002]    50.123457000: cpu_frequency: state=998400 cpu_id=2147483648"
stats_bad "cpu_id 2^31" "$TMP/t.txt:line 4: malformed cpu_frequency event" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [002]    50.123457000: cpu_idle: state=1 cpu_id=2147483647"
stats_bad "cpu_id 2^31-1" "$TMP/t.txt:line 4: CPU 2147483647 out of range (max 4095)" "$TMP/t.txt"
text "$TMP/t.txt" "             cat-42    [002]    50.123457000: sched_wakeup: comm=a pid=7 prio=120 target_cpu=4096"
stats_bad "target_cpu 4096" "$TMP/t.txt:line 4: CPU 4096 out of range (max 4095)" "$TMP/t.txt"
{ echo "cpus=2"; sed 1,2d "$ROOT/tests/fixtures/text/report-plugin.txt" 2>/dev/null | head -n 0; } >/dev/null
printf 'cpus=2\n%s\n%s\n' "$L1" "$L3" >"$TMP/t.txt"
stats_bad "CPU beyond the header's cpus=2" "$TMP/t.txt:line 2: CPU 2 out of range (trace has CPUs 0 to 1)" "$TMP/t.txt"
# Duplicate header lines: the trace is still read (the last count wins or
# the first; either way CPU 2 must be in range of what is used).
printf 'cpus=4\ncpus=4\n%s\n%s\n' "$L1" "$L3" >"$TMP/t.txt"
timeout 20 "$EATRACE" stats "$TMP/t.txt" >/dev/null 2>"$TMP/err"
expect_eq "duplicate cpus= header: exit" "$?" 0
# Missing CPUs: cpus=8 but events on CPU 2 only; the others are reported.
printf 'cpus=8\n%s\n%s\n' "$L1" "$L3" >"$TMP/t.txt"
timeout 20 "$EATRACE" stats --format csv "$TMP/t.txt" >"$TMP/s" 2>"$TMP/err"
expect_eq "missing CPUs: exit" "$?" 0

# ---- values the model lacks: priced at the nearest, with notes ----
timeout 20 "$EATRACE" report -m "$H/model-sparse.json" "$H/freq-idle-unknown.txt" >"$TMP/r" 2>"$TMP/err"
expect_eq "model lacks freqs/idle states: exit" "$?" 0
expect_eq "model lacks freqs/idle states: no stderr" "$(cat "$TMP/err")" ""
# One note per cause, with the energy resting on it (issue 27 item 7).
# CPU 0 busy 10.000-10.0201 (its idle task's records until its first
# cpu_idle, an enter) and 10.030-10.040: 30.1 ms; CPU 1 busy until its
# enter at 10.025: 25 ms; both at 750000 then 2000000 kHz (one frequency
# domain), priced at 1000000 (core 300 mW, cluster 20 mW): cores 300 x
# 55.1 ms = 16.53, the cluster busy 10.000-10.025 and 10.030-10.040 =
# 35 ms x 20 = 0.7: 17.23 mW s of a total of 17.235 (the cluster idle
# 10.025-10.030 in off, CPU 1's, 1 mW x 5 ms = 0.005): 99.97%. CPU 0's
# state 3 (9.9 ms) is priced as off, core 0 mW, while the cluster's
# shallowest state is CPU 1's (modelled): 0 mW s.
expect_eq "frequency the model lacks: note" \
	"$(grep -c 'busy at frequencies the model lacks on 2 CPU(s), 0.055100000 s (CPU 0 0.030100000 s, CPU 1 0.025000000 s), priced at the next higher OPP (eatrace model check MODEL --trace TRACE lists them): 17.230000 mW x s, 99.97% of the total' "$TMP/r")" 1
expect_eq "idle state the model lacks: note" \
	"$(grep -c 'idle in states deeper than the model has on 1 CPU(s), 0.009900000 s (CPU 0 0.009900000 s), priced as its deepest: 0.000000 mW x s, 0.00% of the total' "$TMP/r")" 1

# ---- hostile models ----
M=$ROOT/tests/fixtures/models
TR=$H/freq-idle-unknown.txt
bad "model with NaN" "bad-nan-power.json:12: clusters[0].cap_states[1].core_power: nan is not a finite number" \
	"$EATRACE" report -m "$M/bad-nan-power.json" "$TR"
bad "model with a negative power" "bad-negative-power.json:12: clusters[0].cap_states[1].core_power: -110 is negative" \
	"$EATRACE" report -m "$M/bad-negative-power.json" "$TR"
bad "model with an absurd power" "bad-absurd-power.json:12: clusters[0].cap_states[1].core_power: 2000000000 is beyond the sanity limit 1e9" \
	"$EATRACE" report -m "$M/bad-absurd-power.json" "$TR"
bad "model with duplicate CPUs" "bad-duplicate-cpu.json:21: clusters[1].cpus[0]: CPU 1 is also in cluster 'little'" \
	"$EATRACE" report -m "$M/bad-duplicate-cpu.json" "$TR"
sed 's/"freq_khz": 500000/"freq_khz": 0/' "$H/model-sparse.json" >"$TMP/zero.json"
bad "model with a zero frequency" "zero.json:12: clusters[0].cap_states[0].freq_khz: 0 is out of range (1..100000000 kHz)" \
	"$EATRACE" report -m "$TMP/zero.json" "$TR"
sed 's/"name": "c",/"name": "c\\nerror: forged",/' "$H/model-sparse.json" >"$TMP/ctl.json"
bad "model with a newline in a name" "ctl.json:9: clusters[0].name: control character in cluster name" \
	"$EATRACE" report -m "$TMP/ctl.json" "$TR"
# Far larger than any real model (the limit is 16 MiB): refused at once.
{ echo '{ "eatrace_model": 1, "name": "huge", "power_unit": "mW", "clusters": ['
  yes '  { "name": "c", "cpus": [0], "cap_states": [ { "freq_khz": 1, "cap": 1, "core_power": 1, "cluster_power": 1 } ] },' |
	head -n 170000
  echo '  { "name": "last", "cpus": [1], "cap_states": [] } ] }'; } >"$TMP/huge.json"
bad "model of $(($(wc -c <"$TMP/huge.json") >> 20)) MiB" "$TMP/huge.json: larger than 16 MiB: not a model file" \
	"$EATRACE" report -m "$TMP/huge.json" "$TR"

# ---- outputs that cannot be written: the old file survives ----
echo OLD >"$OUT"
expect_fail "output in a missing directory" 2 "$TMP/o/nosuch/r.json: cannot write" -- \
	timeout 20 "$EATRACE" report -m "$H/model-sparse.json" -o "$TMP/o/nosuch/r.json" "$TR"
expect_fail "output under a file" 2 "$OUT/r.json: cannot write" -- \
	timeout 20 "$EATRACE" report -m "$H/model-sparse.json" -o "$OUT/r.json" "$TR"
expect_eq "output under a file: old file kept" "$(cat "$OUT")" "OLD"
mkdir "$TMP/o/adir"
expect_fail "output onto a directory" 2 "$TMP/o/adir: is a directory" -- \
	timeout 20 "$EATRACE" report -m "$H/model-sparse.json" -o "$TMP/o/adir" "$TR"
expect_eq "output onto a directory: nothing left" "$(ls -A "$TMP/o" | tr '\n' ' ')" "adir report.json "
rmdir "$TMP/o/adir"
if [ -w /dev/full ]; then
	expect_fail "stdout on a full disk" 2 "stdout: write error" -- \
		sh -c 'timeout 20 "$1" report -m "$2" "$3" >/dev/full' sh "$EATRACE" "$H/model-sparse.json" "$TR"
fi

# ---- known limitations (docs/robustness.md): behaviour pinned here ----
# KNOWN LIMITATION: libtraceevent's tep_parse_event() leaks a few bytes on
# a corrupt event format. Smallest input: the v7 fuzz seed with one byte of
# sched_switch's format changed ("unsigned" -> "u\356signed"). eatrace
# reports it correctly; the leak is suppressed (tests/fuzz/lsan.supp).
stats_bad "KNOWN LIMITATION libtraceevent leak: still one clean error" \
	"known-tep-parse-event-leak.dat: sched_switch format has no usable field prev_comm" \
	"$H/known-tep-parse-event-leak.dat"
# KNOWN LIMITATION: libtracecmd's tracecmd_open_head() fails on this
# corrupt header and then spends 1-3 s in tracecmd_close() (inside the
# rehearsal child of dat-guard.c). Bounded in every case seen; the test
# pins that it ends, with the usual error, within the timeout.
stats_bad "KNOWN LIMITATION slow tracecmd_close: ends with one error" \
	"known-tracecmd-close-slow.dat: truncated or corrupt trace.dat headers" \
	"$H/known-tracecmd-close-slow.dat"

finish
