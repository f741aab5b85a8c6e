#!/bin/sh
# run.sh: exclusive
# eatrace record on this machine (needs root and tracefs; CI runs as root):
# a known workload recorded, read back by eatrace and trace-cmd, markers,
# sidecar, signals, errors; after every run no instance of ours remains and
# the top-level tracing state is as it was.
. "$(dirname "$0")/lib.sh"

T=/sys/kernel/tracing
grep -qw tracefs /proc/filesystems || { echo "SKIP: this kernel has no tracefs"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: recording needs root (CI runs as root)"; exit 0; }
[ -d "$T/instances" ] || mount -t tracefs nodev "$T" 2>/dev/null
[ -d "$T/instances" ] || { echo "SKIP: tracefs cannot be mounted on $T"; exit 0; }

# The top-level tracing state, which eatrace must never change.
top_state() { cat "$T/tracing_on" "$T/set_event" "$T/current_tracer" 2>&1; }
top_state >"$TMP/top-before"

# run_bg NAME ARGS...: eatrace in the background; $pid, $rc, $secs when done.
run_bg() {
	name=$1
	shift
	t0=$(date +%s.%N)
	"$EATRACE" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	pid=$!
	wait $pid
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
}

# no_leftovers NAME: eatrace's instance (named after its pid) is gone.
no_leftovers() {
	if [ -e "$T/instances/eatrace-record-$pid" ]; then
		fail "$1: instance eatrace-record-$pid left behind"
		rmdir "$T/instances/eatrace-record-$pid" 2>/dev/null
	else
		ok "$1: instance removed"
	fi
	top_state >"$TMP/top-after"
	if cmp -s "$TMP/top-before" "$TMP/top-after"; then ok "$1: top-level tracing unchanged"
	else fail "$1: top-level tracing changed: $(diff "$TMP/top-before" "$TMP/top-after" | tr '\n' ' ')"; fi
}

# json_num FILE KEY: the first number for "KEY" in a pretty-printed JSON file.
json_num() { sed -n "s/^ *\"$2\": \(-\{0,1\}[0-9.e+-]*\),\{0,1\}\$/\1/p" "$1" | head -n 1; }

# 1. a known workload: a shell busy loop
run_bg rec record -o "$TMP/x.dat" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'
expect_eq "record exits 0" "$rc" 0
[ -s "$TMP/x.dat" ] && ok "trace written" || fail "no trace: $(cat "$TMP/rec.err")"
[ -s "$TMP/x.dat.json" ] && ok "sidecar written" || fail "no sidecar"
expect_eq "no temporary file left" "$(ls -A "$TMP" | grep -c '^\.eatrace')" 0
no_leftovers "record COMMAND"

"$EATRACE" dump "$TMP/x.dat" >"$TMP/dump" 2>"$TMP/dump.err"
expect_eq "eatrace dump reads it" "$?" 0
nsw=$(grep -c ' sched_switch ' "$TMP/dump")
[ "$nsw" -gt 0 ] && ok "trace holds sched_switch ($nsw)" || fail "no sched_switch in the trace"
grep -q ' sched_waking \| sched_wakeup ' "$TMP/dump" && ok "trace holds wakeups" || fail "no wakeups in the trace"

# markers: what the trace lacks
ncpus=$(sed -n 's/^ *"ncpus": \([0-9]*\),$/\1/p' "$TMP/x.dat.json")
grep -q "print text=eatrace: ncpus=$ncpus\$" "$TMP/dump" && ok "ncpus marker ($ncpus)" ||
	fail "no 'eatrace: ncpus=$ncpus' marker"
if [ -r /sys/devices/system/cpu/cpu0/cpuidle/state0/name ]; then
	name=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state0/name)
	grep -qF "print text=eatrace: cpu0.idle0=$name" "$TMP/dump" && ok "cpuidle name marker ($name)" ||
		fail "no 'eatrace: cpu0.idle0=$name' marker"
	grep -qF "\"$name\"" "$TMP/x.dat.json" && ok "cpuidle name in the sidecar" || fail "sidecar lacks $name"
fi
grep -q "print text=eatrace: end=command\$" "$TMP/dump" && ok "end marker" || fail "no end marker"

# the workload's task, with a plausible runtime
cpid=$(json_num "$TMP/x.dat.json" command_pid)
dur=$(json_num "$TMP/x.dat.json" duration_s)
"$EATRACE" stats --format json "$TMP/x.dat" >"$TMP/stats.json" 2>"$TMP/stats.err"
expect_eq "eatrace stats reads it" "$?" 0
task=$(awk -v pid="$cpid" '$1 == "\"pid\":" { p = ($2 == pid ",") }
	p && $1 == "\"comm\":" { c = $2 } p && $1 == "\"runtime_s\":" { print c, $2; exit }' "$TMP/stats.json")
comm=${task%% *}
rt=${task#* }
rt=${rt%,}
expect_eq "workload task (pid $cpid) is sh" "$comm" '"sh",'
if awk -v r="$rt" -v d="$dur" 'BEGIN { exit !(r > 0.01 && r < d) }'; then
	ok "workload runtime $rt s within (0.01, $dur)"
else
	fail "workload runtime '$rt' not within (0.01, $dur)"
fi

# trace-cmd reads it too
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$TMP/x.dat" >"$TMP/report" 2>"$TMP/report.err"
	expect_eq "trace-cmd report reads it" "$?" 0
	grep -q 'sched_switch:' "$TMP/report" && ok "trace-cmd sees sched_switch" ||
		fail "trace-cmd report shows no sched_switch: $(head -c 300 "$TMP/report.err")"
	grep -q 'eatrace: ncpus=' "$TMP/report" && ok "trace-cmd shows the markers" || fail "no markers in trace-cmd report"
fi

# 2. until SIGINT: stops promptly, writes the trace, cleans up
"$EATRACE" record -q -o "$TMP/int.dat" --duration 30 >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
i=0	# wait for the instance (slow under sanitizers)
while [ $i -lt 150 ] && [ ! -d "$T/instances/eatrace-record-$pid" ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
[ -d "$T/instances/eatrace-record-$pid" ] && ok "instance exists while recording" ||
	fail "no instance eatrace-record-$pid while recording"
t0=$(date +%s.%N)
kill -INT $pid
wait $pid
rc=$?
secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
expect_eq "SIGINT: exit 0" "$rc" 0
awk -v s="$secs" 'BEGIN { exit !(s < 10) }' && ok "SIGINT: stopped in $secs s" || fail "SIGINT: took $secs s"
expect_eq "SIGINT: stopped_by" "$(sed -n 's/^ *"stopped_by": "\(.*\)",$/\1/p' "$TMP/int.dat.json")" SIGINT
"$EATRACE" stats "$TMP/int.dat" >/dev/null 2>&1 && ok "SIGINT: trace readable" || fail "SIGINT: trace unreadable"
no_leftovers "SIGINT"

# 3. SIGTERM while a COMMAND runs: the command is stopped too
"$EATRACE" record -q -o "$TMP/term.dat" -- sleep 30 >"$TMP/term.out" 2>"$TMP/term.err" &
pid=$!
i=0
while [ $i -lt 150 ] && [ ! -d "$T/instances/eatrace-record-$pid" ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -TERM $pid
wait $pid
expect_eq "SIGTERM: exit 0" "$?" 0
cpid=$(json_num "$TMP/term.dat.json" command_pid)
if [ -n "$cpid" ] && [ "$cpid" -gt 0 ] && ! kill -0 "$cpid" 2>/dev/null; then ok "SIGTERM: command stopped"
else fail "SIGTERM: command pid '$cpid' still running"; kill "$cpid" 2>/dev/null; fi
no_leftovers "SIGTERM"

# 4. --duration without a command
run_bg dur record -q -o "$TMP/d.dat" --duration 0.5
expect_eq "--duration: exit 0" "$rc" 0
d=$(json_num "$TMP/d.dat.json" duration_s)
awk -v d="$d" 'BEGIN { exit !(d >= 0.5 && d < 3) }' && ok "--duration 0.5 recorded $d s" || fail "--duration 0.5 recorded '$d' s"
no_leftovers "--duration"

# 4b. cpufreq markers (these VMs have no cpufreq): a fake sysfs tree with a
# policy of 12 frequencies, too many for one marker line
F=$TMP/fake/sys/devices/system/cpu
mkdir -p "$F/cpufreq/policy0"
cp /sys/devices/system/cpu/possible /sys/devices/system/cpu/online "$F/"
freqs="300000 600000 900000 1200000 1500000 1800000 2100000 2400000 2700000 3000000 3300000 3600000"
echo "$freqs" >"$F/cpufreq/policy0/scaling_available_frequencies"
echo fake-cpufreq >"$F/cpufreq/policy0/scaling_driver"
c=0
while [ $c -le "$(sed 's/.*[-,]//' "$F/possible")" ]; do
	mkdir -p "$F/cpu$c/cpuidle/state0"
	echo WFI >"$F/cpu$c/cpuidle/state0/name"
	ln -s ../cpufreq/policy0 "$F/cpu$c/cpufreq"
	c=$((c + 1))
done
EATRACE_SYSFS_ROOT=$TMP/fake "$EATRACE" record -q -o "$TMP/f.dat" --duration 0.2 2>"$TMP/f.err" &
pid=$!
wait $pid
expect_eq "fake sysfs: exit 0" "$?" 0
"$EATRACE" dump "$TMP/f.dat" | sed -n 's/.* print text=//p' >"$TMP/f.markers"
# the first set of lines (they are written again at the end)
all=$(awk '/^eatrace: policy0\.freqs_khz=/ { if (done) exit; on = 1; sub(/^[^=]*=/, ""); out = $0; next }
	on && /^eatrace: policy0\.freqs_khz\+=/ { sub(/^[^=]*=/, ""); out = out "," $0; n++; next }
	on { on = 0; done = 1 }
	END { print n + 0, out }' "$TMP/f.markers")
expect_eq "frequency markers, joined" "${all#* }" "$(echo "$freqs" | tr ' ' ',')"
[ "${all%% *}" -ge 1 ] && ok "frequencies split over ${all%% *} continuation line(s)" ||
	fail "frequencies not split: $all"
awk 'length > 63 { exit 1 }' "$TMP/f.markers" && ok "markers at most 63 characters" || fail "a marker is too long"
grep -qx "eatrace: policy0.cpus=0-$(($c - 1))" "$TMP/f.markers" && ok "policy CPU list" ||
	fail "no policy0.cpus line: $(grep policy0.cpus "$TMP/f.markers")"
grep -qx "eatrace: cpu0.idle0=WFI" "$TMP/f.markers" && ok "fake idle name" || fail "no fake idle name"
grep -q '"freqs_khz": \[' "$TMP/f.dat.json" && grep -q '3600000' "$TMP/f.dat.json" && ok "frequencies in the sidecar" ||
	fail "sidecar lacks the frequencies"
no_leftovers "fake sysfs"

# 5. errors: one line, exit 2, nothing left behind
run_bg bad record -o "$TMP/bad.dat" -- /nonexistent/command
expect_eq "missing command: exit 2" "$rc" 2
expect_eq "missing command: one line" "$(wc -l <"$TMP/bad.err")" 1
grep -q "cannot run '/nonexistent/command'" "$TMP/bad.err" && ok "missing command: message" ||
	fail "missing command: $(cat "$TMP/bad.err")"
[ ! -e "$TMP/bad.dat" ] && ok "missing command: no trace" || fail "missing command: a trace was written"
no_leftovers "missing command"
expect_fail "no -o" 2 "give the trace to write with -o" -- "$EATRACE" record -- true
expect_fail "bad duration" 2 "--duration: 'x'" -- "$EATRACE" record -o "$TMP/e.dat" --duration x
: >"$TMP/afile"
expect_fail "unwritable output" 2 "cannot write" -- "$EATRACE" record -o "$TMP/afile/x.dat" -- true

# 7. the command inherits no tracefs descriptor (all close-on-exec): it
# lists its own open files
run_bg fds record -q -o "$TMP/fds.dat" -- sh -c 'for f in /proc/$$/fd/*; do readlink "$f"; done; true'
expect_eq "fds: exit 0" "$rc" 0
if grep -q 'tracing\|trace_pipe\|\.eatrace' "$TMP/fds.out"; then
	fail "the command inherited: $(grep 'tracing\|trace_pipe\|\.eatrace' "$TMP/fds.out" | tr '\n' ' ')"
else
	ok "the command inherits no tracefs or temporary file ($(wc -l <"$TMP/fds.out") descriptors)"
fi
no_leftovers "fds"

# 8. a failing command: exit 1, the trace and sidecar kept, its status said
run_bg st record -q -o "$TMP/st.dat" -- sh -c 'exit 3'
expect_eq "failing command: exit 1" "$rc" 1
"$EATRACE" stats "$TMP/st.dat" >/dev/null 2>&1 && ok "failing command: trace kept and readable" ||
	fail "failing command: no readable trace"
expect_eq "failing command: command_exit in the sidecar" "$(json_num "$TMP/st.dat.json" command_exit)" 3
grep -q "the command failed; $TMP/st.dat is kept, exit status 1" "$TMP/st.err" && ok "failing command: said" ||
	fail "failing command: stderr '$(cat "$TMP/st.err")'"
no_leftovers "failing command"

# 9. a run killed with SIGKILL leaves its instance, temporary directory and
# (until PR_SET_PDEATHSIG ends it) its command; the next run cleans up
mkdir "$TMP/k"
# (the command's argument names this run: sleep 60.PID, found by pgrep)
sh -c 'exec "$1" record -q -o "$2" -- sleep "60.$$"' sh "$EATRACE" "$TMP/k/k.dat" >"$TMP/k.out" 2>"$TMP/k.err" &
kpid=$!
i=0
while [ $i -lt 150 ] && [ ! -d "$T/instances/eatrace-record-$kpid" ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -KILL $kpid
wait $kpid 2>/dev/null
sleep 0.5
# (another eatrace starting meanwhile on this machine may clean it first)
left_inst=false
if [ -d "$T/instances/eatrace-record-$kpid" ]; then
	left_inst=true
	ok "SIGKILL: instance left behind (as expected)"
else
	echo "note: the killed run's instance was removed meanwhile by another eatrace"
fi
ntmp=$(ls -A "$TMP/k" | grep -c "^\.eatrace-rec-$kpid-")
expect_eq "SIGKILL: temporary directory left behind" "$ntmp" 1
left=$(pgrep -fx "sleep 60.$kpid")
if [ -n "$left" ]; then
	fail "SIGKILL: the command was left running"
	kill $left
else
	ok "SIGKILL: the command ended with eatrace"
fi
run_bg next record -o "$TMP/k/next.dat" --duration 0.2
expect_eq "next run: exit 0" "$rc" 0
if [ -d "$T/instances/eatrace-record-$kpid" ]; then
	fail "next run: stale instance eatrace-record-$kpid not removed"
	echo 0 >"$T/instances/eatrace-record-$kpid/tracing_on"
	rmdir "$T/instances/eatrace-record-$kpid"
else
	ok "next run: stale instance removed"
fi
if $left_inst; then
	grep -q "removed the tracing instance $T/instances/eatrace-record-$kpid, left by a killed run (pid $kpid)" "$TMP/next.err" &&
		ok "next run: says it removed the instance" || fail "next run: stderr '$(cat "$TMP/next.err")'"
fi
expect_eq "next run: stale temporary directory and output temporaries removed" "$(ls -A "$TMP/k" | grep -c "^\.eatrace")" 0
grep -q "record: removed $TMP/k/.eatrace-rec-$kpid-" "$TMP/next.err" && ok "next run: says it removed the directory" ||
	fail "next run: no word of the directory: '$(cat "$TMP/next.err")'"
no_leftovers "after SIGKILL"

# 10. a read-only tracefs is reported as such, not as "needs root"
# (remounted read-only in a private mount namespace: nothing outside changes)
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	expect_fail "read-only tracefs" 2 "$T: tracefs is mounted read-only" -- \
		unshare -m sh -c 'mount -o remount,bind,ro "$1" && exec "$2" record -o "$3" -- true' sh \
		"$T" "$EATRACE" "$TMP/ro.dat"
	grep -q "needs root" "$TMP/err" && fail "read-only tracefs: reported as needs root"
	[ ! -e "$TMP/ro.dat" ] && ok "read-only tracefs: no trace" || fail "read-only tracefs: a trace was written"
	mount | grep -q "on $T type tracefs (rw" && ok "tracefs still read-write outside" ||
		fail "tracefs mount changed: $(mount | grep " $T ")"
fi

# 11. outputs in place: a FIFO gets the trace, no sidecar beside a FIFO
mkfifo "$TMP/rec.fifo"
cat "$TMP/rec.fifo" >"$TMP/fifo.dat" &
reader=$!
run_bg fifo record -q -o "$TMP/rec.fifo" --duration 0.2
wait $reader
expect_eq "FIFO output: exit 0" "$rc" 0
is_dat "$TMP/fifo.dat" && ok "FIFO output: a trace.dat came through" || fail "FIFO output: no trace.dat"
[ -p "$TMP/rec.fifo" ] && ok "FIFO output: still a FIFO" || fail "FIFO output: replaced"
[ ! -e "$TMP/rec.fifo.json" ] && ok "FIFO output: no sidecar" || fail "FIFO output: a sidecar was written"
no_leftovers "FIFO output"

# 12. a sidecar that cannot be written fails before anything is replaced
echo OLD >"$TMP/side.dat"
mkdir "$TMP/side.dat.json"
run_bg side record -q -o "$TMP/side.dat" -- true
expect_eq "sidecar a directory: exit 2" "$rc" 2
expect_eq "sidecar a directory: trace not replaced" "$(cat "$TMP/side.dat")" OLD
no_leftovers "sidecar a directory"

# 6. not root: one clear line, exit 2
if command -v setpriv >/dev/null; then
	bin=$(mktemp -d /tmp/eatrace-nr.XXXXXX)
	chmod 755 "$bin"
	cp "$EATRACE" "$bin/eatrace"
	chmod 755 "$bin/eatrace"
	expect_fail "not root" 2 "needs root" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$bin/eatrace" record -o "$bin/nr.dat" -- true
	rm -rf "$bin"
fi
finish
