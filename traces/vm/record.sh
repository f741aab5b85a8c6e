#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Record a scheduler/power trace on this machine through tracefs, without
# `trace-cmd record` (refused here: ftrace_enabled cannot be written).
#
#   traces/vm/record.sh OUT_PREFIX [-- COMMAND [ARG...]]
#
# Writes OUT_PREFIX.dat (trace.dat as `trace-cmd extract` writes it) and
# OUT_PREFIX-ftrace.txt (the instance's `trace` file, read before extracting;
# reading `trace` does not consume the buffer, `trace_pipe` would).
# Without a COMMAND a small default workload runs (ten 0.1 s sleeps, each
# followed by a short busy loop: about 1.1 s). Markers "eatrace: record
# start" and "eatrace: record end rc=N" are written to the instance's
# trace_marker around it.
#
# Environment: BUF_KB (per-CPU buffer, default 256), INSTANCE (tracefs
# instance name, default eatrace-rec; refused if it already exists).
# Needs root. Only the instance is touched: the top-level buffer, its events
# and tracing_on are left as they were. `trace-cmd extract -B` removes the
# instance itself after reading it; the EXIT trap removes it otherwise.
set -eu

usage() {
	echo "usage: $0 OUT_PREFIX [-- COMMAND [ARG...]]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
out=$1
shift
if [ $# -gt 0 ]; then
	[ "$1" = "--" ] || usage
	shift
fi

T=/sys/kernel/tracing
INSTANCE=${INSTANCE:-eatrace-rec}
BUF_KB=${BUF_KB:-256}
EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_waking
	sched/sched_wakeup_new sched/sched_migrate_task
	power/cpu_idle power/cpu_frequency"

[ "$(id -u)" -eq 0 ] || { echo "$0: must run as root" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "$0: trace-cmd not found" >&2; exit 1; }
[ -e "$T/events" ] || mount -t tracefs nodev "$T"
I=$T/instances/$INSTANCE
[ ! -e "$I" ] || { echo "$0: $I exists (another recording?)" >&2; exit 1; }

cleanup() {
	[ -d "$I" ] || return 0
	echo 0 >"$I/tracing_on" 2>/dev/null || true
	echo 0 >"$I/events/enable" 2>/dev/null || true
	rmdir "$I" 2>/dev/null || echo "$0: could not remove $I" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir "$I"
echo 0 >"$I/tracing_on"
echo "$BUF_KB" >"$I/buffer_size_kb"
for e in $EVENTS; do
	if [ -e "$I/events/$e/enable" ]; then
		echo 1 >"$I/events/$e/enable"
	else
		echo "$0: event $e not available, skipped" >&2
	fi
done
: >"$I/trace"

workload() {
	i=0
	while [ $i -lt 10 ]; do
		sleep 0.1
		j=0
		while [ $j -lt 3000 ]; do j=$((j + 1)); done
		i=$((i + 1))
	done
}

# trace-cmd extract stores every event format of the system (100 systems,
# 2 MB) and all of /proc/kallsyms (5 MB). Like `trace-cmd record -e sched -e
# power`, keep only the formats of the systems recorded (plus ftrace, which
# holds the print event), and of kallsyms only the symbols print events
# point to. Both are done in a private mount namespace by bind-mounting a
# reduced copy over events/ and /proc/kallsyms: nothing outside changes, and
# the formats stored are the kernel's own text.
extract() {
	tmp=$(mktemp -d)
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
	# each wanted symbol and the one after it (that bounds it); no sort(1):
	# it spills to temporary files
	awk 'BEGIN { want["tracing_mark_write"]; want["tracing_mark_raw_write"] }
		NR == FNR { if ($3 in want) sym["x" $1] = $0; next }
		{ for (a in sym) if ("x" $1 > a && (!(a in nxt) || "x" $1 < nxt[a])) {
			nxt[a] = "x" $1; line[a] = $0 } }
		END { for (a in sym) { print sym[a]; if (a in line) print line[a] } }' \
		/proc/kallsyms /proc/kallsyms >"$tmp/kallsyms"
	unshare -m sh -c '
		mount --bind "$1/events" "$2/events" &&
		mount --bind "$1/kallsyms" /proc/kallsyms &&
		trace-cmd extract -B "$3" -o "$4"' sh "$tmp" "$T" "$INSTANCE" "$1" \
		>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; rm -rf "$tmp"; return 1; }
	rm -rf "$tmp"
}

echo 1 >"$I/tracing_on"
echo "eatrace: record start" >"$I/trace_marker"
t0=$(date +%s.%N)
rc=0
if [ $# -gt 0 ]; then
	"$@" || rc=$?
else
	workload
fi
t1=$(date +%s.%N)
echo "eatrace: record end rc=$rc" >"$I/trace_marker"
echo 0 >"$I/tracing_on"

cat "$I/trace" >"$out-ftrace.txt"
extract "$out.dat"
echo "$0: $out.dat $out-ftrace.txt ($(echo "$t1 - $t0" | bc 2>/dev/null || echo "?") s, command exit $rc)" >&2
