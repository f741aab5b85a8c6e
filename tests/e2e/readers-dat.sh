#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The trace.dat reader end to end, through `eatrace dump`:
#  - one recording of this machine (traces/vm) as trace.dat v6, v7 and v7
#    compressed dumps byte-identically;
#  - its text forms (trace-cmd report, -R, -N, without cpus=N, and the
#    kernel's own trace file) dump the same events, to the microsecond the
#    text keeps;
#  - every trace.dat in $SHARED and traces/vm reads without error;
#  - cut, corrupt and foreign files exit 2 with one line naming the file,
#    never crash and never lose events silently.
. "$(dirname "$0")/lib.sh"

VM=$ROOT/traces/vm

# libtracecmd 3.1.6 leaks the trace clock name (tracecmd_parse_trace_clock,
# through sscanf("%ms")) when it opens a v6 file written by trace-cmd 3, and
# libtraceevent 1.7 a few bytes parsing some event formats (the LISA rtapp
# trace): not ours, but under `make sanitize` LeakSanitizer would fail these
# runs (lib.sh's lsan_dat suppresses them).
lsan_dat

# dump FILE OUT: must succeed silently.
dump() {
	if "$EATRACE" dump "$1" >"$2" 2>"$TMP/dump.err" && [ ! -s "$TMP/dump.err" ]; then
		return 0
	fi
	fail "$(basename "$1"): dump failed (exit $?): $(head -c 300 "$TMP/dump.err")"
	return 1
}

# ---- one recording, three trace.dat variants -------------------------------

dump "$VM/vm-v7.dat" "$TMP/vm.dump"
for t in sched_switch sched_waking sched_wakeup cpu_idle print; do
	if grep -q "^[0-9]* [0-9]* -\{0,1\}[0-9]* $t " "$TMP/vm.dump"; then
		ok "vm-v7: has $t"
	else
		fail "vm-v7: no $t event"
	fi
done
for v in vm-v6 vm-v7-compressed; do
	dump "$VM/$v.dat" "$TMP/$v.dump" || continue
	if cmp -s "$TMP/vm.dump" "$TMP/$v.dump"; then
		ok "$v same as vm-v7"
	else
		fail "$v differs from vm-v7: $(diff "$TMP/vm.dump" "$TMP/$v.dump" | head -n 4)"
	fi
done

# Counted independently from trace-cmd's own rendering of the same file.
if command -v trace-cmd >/dev/null 2>&1; then
	for t in sched_switch sched_wakeup sched_waking sched_wakeup_new sched_migrate_task cpu_idle cpu_frequency; do
		expect_eq "vm: $t count vs trace-cmd report" \
			"$(awk -v t="$t" '$4 == t { n++ } END { print n + 0 }' "$TMP/vm.dump")" \
			"$(trace-cmd report -i "$VM/vm-v7.dat" 2>/dev/null | grep -c " $t: ")"
	done
fi

# ---- the text forms of the same recording ------------------------------------

# Text keeps microseconds, rounded to nearest (the kernel's ns2usecs,
# trace-cmd's printing): round the trace.dat dump the same way. Lost-events
# markers are compared separately: the forms report them differently.
round_us() {
	awk '$4 != "lost_events" { $1 = sprintf("%.0f", int(($1 + 500) / 1000) * 1000); print }' "$1"
}
# same_as_text DAT_DUMP NAME TEXT...
same_as_text() {
	round_us "$1" >"$TMP/dat.us"
	name=$2
	shift 2
	for f in "$@"; do
		dump "$f" "$TMP/text.dump" || continue
		round_us "$TMP/text.dump" >"$TMP/text.us"
		if cmp -s "$TMP/dat.us" "$TMP/text.us"; then
			ok "$(basename "$f") same events as $name"
		else
			fail "$(basename "$f") differs from $name: $(diff "$TMP/dat.us" "$TMP/text.us" | head -n 6)"
		fi
	done
}

same_as_text "$TMP/vm.dump" vm-v7.dat "$VM/vm-report.txt" "$VM/vm-report-raw.txt" \
	"$VM/vm-report-noplugin.txt" "$VM/vm-report-nocpus.txt" "$VM/vm-ftrace.txt"
# the workload recordings: trace.dat and the kernel's text of each
for f in "$VM"/wl-*.dat; do
	w=${f%.dat}
	[ -f "$w-ftrace.txt" ] || continue
	dump "$f" "$TMP/wl.dump" &&
		same_as_text "$TMP/wl.dump" "$(basename "$f")" "$w-ftrace.txt"
done

# The overrun recording: its pages carry lost-events marks.
if dump "$VM/wl-overrun.dat" "$TMP/overrun.dump"; then
	n=$(grep -c '^[0-9]* [0-9]* -1 lost_events ' "$TMP/overrun.dump")
	if [ "$n" -gt 0 ]; then ok "wl-overrun: $n lost_events"; else fail "wl-overrun: no lost_events"; fi
fi

# ---- every trace.dat we have -------------------------------------------------

for f in $(sampled "$SHARED"/*/* "$VM"/*.dat); do
	is_dat "$f" || continue
	if dump "$f" "$TMP/any.dump"; then
		if [ -s "$TMP/any.dump" ] && sort -s -n -c -k1,1 "$TMP/any.dump" 2>/dev/null; then
			ok "$(basename "$f"): read, sorted"
		else
			fail "$(basename "$f"): empty or unsorted dump"
		fi
	fi
done

# ---- damaged and foreign files -----------------------------------------------

# cut_check NAME FILE FULL_DUMP BYTES...: FILE cut to each size must either
# dump exactly what the whole file does (the cut part held nothing the
# reader needs) or fail with exit 2 and one stderr line naming the file.
cut_check() {
	name=$1 file=$2 full=$3
	shift 3
	for n in "$@"; do
		head -c "$n" "$file" >"$TMP/cut.dat"
		"$EATRACE" dump "$TMP/cut.dat" >"$TMP/cut.out" 2>"$TMP/cut.err"
		rc=$?
		if [ $rc -eq 0 ] && cmp -s "$TMP/cut.out" "$full"; then
			ok "$name cut to $n bytes: complete"
		elif [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/cut.err")" -eq 1 ] &&
			grep -q 'cut.dat: .*trace.dat' "$TMP/cut.err"; then
			ok "$name cut to $n bytes: $(cut -c1-100 "$TMP/cut.err")"
		else
			fail "$name cut to $n bytes: exit $rc, $(wc -l <"$TMP/cut.out") events, stderr: $(head -c 300 "$TMP/cut.err")"
		fi
	done
}

for v in vm-v6 vm-v7 vm-v7-compressed; do
	f=$VM/$v.dat
	[ -f "$TMP/$v.dump" ] || cp "$TMP/vm.dump" "$TMP/$v.dump"
	size=$(wc -c <"$f")
	cut_check "$v" "$f" "$TMP/$v.dump" 11 12 64 1000 4096 \
		$((size / 4)) $((size / 2)) $((size * 3 / 4)) $((size - 4097)) \
		$((size - 4096)) $((size - 100)) $((size - 1))
done

# Specific messages (the v6 file: headers first, CPU data at the end).
size=$(wc -c <"$VM/vm-v6.dat")
head -c 300 "$VM/vm-v6.dat" >"$TMP/head.dat"
expect_fail "v6 cut in the headers" 2 "head.dat: truncated or corrupt trace.dat headers (300 bytes)" \
	-- "$EATRACE" dump "$TMP/head.dat"
# libtracecmd itself crashes on this one (tracecmd_buffer_instance_handle's
# error path): the reader must catch it.
head -c $((size - 1)) "$VM/vm-v6.dat" >"$TMP/short.dat"
expect_fail "v6 missing its last byte" 2 "short.dat: truncated or corrupt trace.dat: instance buffer unreadable" \
	-- "$EATRACE" dump "$TMP/short.dat"
T=$SHARED/trappy/tests__trace_idle.dat
if [ -f "$T" ]; then
	head -c $(($(wc -c <"$T") - 1)) "$T" >"$TMP/trappy-short.dat"
	expect_fail "trappy missing its last byte" 2 "trappy-short.dat: truncated or corrupt trace.dat: CPU data unreadable" \
		-- "$EATRACE" dump "$TMP/trappy-short.dat"
fi

printf '\027\010\104tracing8\000' >"$TMP/v8.dat"
head -c 4096 /dev/zero >>"$TMP/v8.dat"
expect_fail "version 8" 2 "v8.dat: trace.dat version 8 not supported (6 and 7 are)" \
	-- "$EATRACE" dump "$TMP/v8.dat"
printf '\027\010\104tracing' >"$TMP/magic.dat"
expect_fail "magic only" 2 "magic.dat: corrupt trace.dat header (no version)" \
	-- "$EATRACE" dump "$TMP/magic.dat"
{ printf '\027\010\104tracing6\000'; head -c 20000 /dev/urandom; } >"$TMP/junk.dat"
expect_fail "random bytes after the magic" 2 "junk.dat: " \
	-- "$EATRACE" dump "$TMP/junk.dat"

# Bytes overwritten all over the small v6 file: exit 0 or 2, one line.
# Under make sanitize every third place (14 of the 40): the same reader
# code on each; tests/fuzz/replay.sh (sanitized) replays the dat corpus.
i=0 step=1 nflip=0
[ "${EA_SANITIZE:-0}" = 1 ] && step=3
size=$(wc -c <"$VM/vm-v6.dat")
bad=0
while [ $i -lt 40 ]; do
	off=$(( (i * 7919 * 13) % size ))
	cp "$VM/vm-v6.dat" "$TMP/flip.dat"
	printf '\377\377\377\377' | dd of="$TMP/flip.dat" bs=1 seek=$off conv=notrunc 2>/dev/null
	"$EATRACE" dump "$TMP/flip.dat" >/dev/null 2>"$TMP/flip.err"
	rc=$?
	if { [ $rc -ne 0 ] && [ $rc -ne 2 ]; } || [ "$(wc -l <"$TMP/flip.err")" -gt 1 ] ||
		{ [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/flip.err")" -ne 1 ]; }; then
		fail "vm-v6 with 4 bytes overwritten at $off: exit $rc: $(head -c 300 "$TMP/flip.err")"
		bad=1
	fi
	i=$((i + step)) nflip=$((nflip + 1))
done
[ $bad -eq 0 ] && ok "vm-v6 with 4 bytes overwritten at $nflip places: clean exits"

finish
