#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Re-create the files of traces/vm (root, on an idle machine; see README.md):
# one recording of record.sh's default workload in every form eatrace reads,
# and small workload recordings. The results differ at every run.
#
#   traces/vm/make.sh [--from PREFIX] [--no-workloads]
#
# --from PREFIX: make the vm-* forms from PREFIX.dat and PREFIX-ftrace.txt
# (an earlier `record.sh PREFIX`) instead of recording anew.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# convert IN OUT ARGS...: trace-cmd convert, quietly
convert() {
	in=$1 out=$2
	shift 2
	trace-cmd convert -i "$in" -o "$out" "$@" >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; exit 1; }
}

if [ "${1:-}" = --from ]; then
	# variants of an earlier recording (PREFIX.dat, PREFIX-ftrace.txt)
	cp "$2.dat" "$tmp/vm.dat"
	cp "$2-ftrace.txt" "$tmp/vm-ftrace.txt"
	shift 2
else
	./record.sh "$tmp/vm"
fi
convert "$tmp/vm.dat" vm-v6.dat --file-version 6
convert "$tmp/vm.dat" vm-v7.dat --file-version 7 --compression none
convert "$tmp/vm.dat" vm-v7-compressed.dat --file-version 7 --compression zstd
cp "$tmp/vm-ftrace.txt" vm-ftrace.txt
trace-cmd report -i vm-v7.dat >vm-report.txt 2>/dev/null
trace-cmd report -R -i vm-v7.dat >vm-report-raw.txt 2>/dev/null
trace-cmd report -N -i vm-v7.dat >vm-report-noplugin.txt 2>/dev/null
sed '/^cpus=[0-9]*$/d' vm-report.txt >vm-report-nocpus.txt

[ "${1:-}" = --no-workloads ] && exit 0

# One CPU-bound shell loop (never blocks), about 0.5 s on an idle machine.
./record.sh wl-busy -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done'
# Ping-pong: two shells pass a token through two FIFOs, 800 round trips;
# every step is a wakeup, often of a task on the other CPU.
BUF_KB=1024 ./record.sh wl-pingpong -- sh -c '
	d=$(mktemp -d); mkfifo "$d/a" "$d/b"
	(exec 3<"$d/a" 4>"$d/b"; while read -r x <&3; do echo "$x" >&4; done) &
	exec 5>"$d/a" 6<"$d/b"
	i=0; while [ $i -lt 800 ]; do echo $i >&5; read -r y <&6; i=$((i + 1)); done
	exec 5>&-; wait; rm -r "$d"'
# Three periodic tasks: 10 ms sleep, about 1 ms of work, 25 periods.
./record.sh wl-periodic -- sh -c '
	for k in 1 2 3; do
		(i=0; while [ $i -lt 25 ]; do
			sleep 0.01
			j=0; while [ $j -lt 300 ]; do j=$((j + 1)); done
			i=$((i + 1))
		done) &
	done
	wait'
# 300 short processes (fork, exec, exit) into a 16 KiB-per-CPU buffer: the
# ring buffer overruns, and the trace.dat pages carry lost-events marks.
BUF_KB=16 ./record.sh wl-overrun -- sh -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i + 1)); done'
