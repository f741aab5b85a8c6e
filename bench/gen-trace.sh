#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Record the benchmark traces on this machine (root; see bench/README.md):
#
#   bench/gen-trace.sh OUTDIR EVENTS REPEAT
#
#   OUTDIR/trace.dat      about EVENTS scheduler events of a pipe ping-pong
#                         workload (bench/pingpong.c), trace.dat v7
#   OUTDIR/trace.txt      the same as `trace-cmd report` prints it
#   OUTDIR/trace-xN.dat   the same recording played REPEAT times back to
#                         back (REPEAT times as many events and as long);
#                         not written when REPEAT is 0 or 1
#
# `trace-cmd record` is refused on these VMs, so the events are enabled in
# a tracefs instance of our own, each CPU's ring buffer is read raw
# (bench/rawpages.c, from per_cpu/cpuN/trace_pipe_raw) and `trace-cmd
# restore` joins the raw pages to a header of this system's event formats.
# As `trace-cmd record -e sched -e power` would, the header keeps only the
# formats of the recorded systems (and ftrace's) and only the kallsyms
# entries print events point to (bind mounts in a private mount namespace;
# nothing outside changes). Raw pages are what makes the long trace
# possible: trace.dat files cannot be concatenated, but ring-buffer pages
# can be replayed with their page timestamps moved (rawpages repeat).
#
# Environment: BUF_KB (per-CPU ring buffer; default from EVENTS),
# PAIRS (ping-pong pairs, default 16), BENCH_BIN (where pingpong and
# rawpages are built, default OUTDIR).
set -eu

[ $# -eq 3 ] || { echo "usage: $0 OUTDIR EVENTS REPEAT" >&2; exit 2; }
out=$1 events=$2 repeat=$3
bin=${BENCH_BIN:-$out}
PAIRS=${PAIRS:-16}
# about 51 bytes per event; one CPU may hold two thirds of them
BUF_KB=${BUF_KB:-$((events * 60 / 1024 + 4096))}
T=/sys/kernel/tracing
INSTANCE=eatrace-bench-$$
I=$T/instances/$INSTANCE
EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_waking
	sched/sched_wakeup_new sched/sched_migrate_task
	power/cpu_idle power/cpu_frequency"

[ "$(id -u)" -eq 0 ] || { echo "$0: must run as root" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "$0: trace-cmd not found" >&2; exit 1; }
[ -e "$T/events" ] || mount -t tracefs nodev "$T"

tmp=$(mktemp -d)
cleanup() {
	if [ -d "$I" ]; then
		echo 0 >"$I/tracing_on" 2>/dev/null || true
		echo 0 >"$I/events/enable" 2>/dev/null || true
		rmdir "$I" 2>/dev/null || echo "$0: could not remove $I" >&2
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir "$I"
echo 0 >"$I/tracing_on"
echo "$BUF_KB" >"$I/buffer_size_kb"
for e in $EVENTS; do
	[ -e "$I/events/$e/enable" ] && echo 1 >"$I/events/$e/enable"
done
: >"$I/trace"

# about 5.8 events per round trip
rounds=$((events * 10 / 58 / PAIRS + 1))
echo 1 >"$I/tracing_on"
t0=$(date +%s%N)
"$bin/pingpong" "$PAIRS" "$rounds"
t1=$(date +%s%N)
echo 0 >"$I/tracing_on"

ncpus=0
overrun=0
for d in "$I"/per_cpu/cpu*; do
	c=${d##*/cpu}
	o=$(sed -n 's/^overrun: //p' "$d/stats")
	overrun=$((overrun + o))
	ncpus=$((ncpus > c + 1 ? ncpus : c + 1))
done
[ "$overrun" -eq 0 ] ||
	echo "$0: warning: $overrun events overwritten (raise BUF_KB)" >&2
raws=
c=0
while [ $c -lt $ncpus ]; do
	"$bin/rawpages" read "$I/per_cpu/cpu$c/trace_pipe_raw" "$tmp/cpu$c"
	raws="$raws $tmp/cpu$c"
	c=$((c + 1))
done

# The header: this system's formats, reduced as trace-cmd record would.
mkdir "$tmp/events"
cp "$T/events/header_page" "$T/events/header_event" "$tmp/events/"
for sys in sched power ftrace; do
	for d in "$T/events/$sys"/*/; do
		[ -e "$d/format" ] || continue
		n=$(basename "$d")
		mkdir -p "$tmp/events/$sys/$n"
		cat "$d/format" >"$tmp/events/$sys/$n/format"
		cat "$d/id" >"$tmp/events/$sys/$n/id" 2>/dev/null || true
	done
done
# The marker symbols and, for each, the next symbol by address (one pass:
# addresses are fixed-width hex, so they compare as strings).
awk '$3 == "tracing_mark_write" || $3 == "tracing_mark_raw_write" { m[$1] = $0 }
	{ a[NR] = $1; l[NR] = $0 }
	END {
		for (k in m) {
			print m[k]; best = ""
			for (i = 1; i <= NR; i++)
				if (a[i] > k && (best == "" || a[i] < best)) { best = a[i]; bl = l[i] }
			if (best != "") print bl
		}
	}' /proc/kallsyms | sort >"$tmp/kallsyms"
# shellcheck disable=SC2016
unshare -m sh -c '
	mount --bind "$1/events" "$2/events" &&
	mount --bind "$1/kallsyms" /proc/kallsyms &&
	trace-cmd restore -c -o "$1/head"' sh "$tmp" "$T" \
	>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }

# shellcheck disable=SC2086
trace-cmd restore -i "$tmp/head" -o "$out/trace.dat" $raws >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; exit 1; }
trace-cmd report -i "$out/trace.dat" >"$out/trace.txt" 2>"$tmp/log" ||
	{ cat "$tmp/log" >&2; exit 1; }

if [ "$repeat" -gt 1 ]; then
	# shellcheck disable=SC2046,SC2086
	set -- $("$bin/rawpages" info $raws)
	shift_ns=$(($3 - $2 + 1000000))
	xraws=
	c=0
	while [ $c -lt $ncpus ]; do
		"$bin/rawpages" repeat "$repeat" "$shift_ns" "$tmp/cpu$c" "$tmp/x$c"
		rm -f "$tmp/cpu$c"
		xraws="$xraws $tmp/x$c"
		c=$((c + 1))
	done
	# shellcheck disable=SC2086
	trace-cmd restore -i "$tmp/head" -o "$out/trace-x$repeat.dat" $xraws \
		>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
fi
echo "$0: $PAIRS pairs x $rounds round trips in $(((t1 - t0) / 1000000)) ms, $ncpus CPUs, buffer ${BUF_KB} KB per CPU" >&2
