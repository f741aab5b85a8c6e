#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every output eatrace gives on every trace of traces/ and ../shared/traces
# with every bundled model, written under OUTDIR, one file per command
# (stdout, stderr and exit status). Not a test: run it before and after a
# change that must not change behaviour (a refactor, a speed-up), then
# `diff -r BEFORE AFTER` must print nothing.
#
#   tests/snapshot.sh OUTDIR [EATRACE]     (EATRACE defaults to ./eatrace)
#   SNAP_JOBS=N   commands at a time (default: the CPU count)
#   SNAP_QUICK=1  replay with two models per trace instead of all
set -u
out=${1:?usage: tests/snapshot.sh OUTDIR [EATRACE]}
ea=$(readlink -f "${2:-./eatrace}")
top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(readlink -f "${SHARED:-$top/../shared/traces}")
jobs=${SNAP_JOBS:-$(nproc)}
mkdir -p "$out"
out=$(readlink -f "$out")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$top" || exit 2
traces=()
while IFS= read -r f; do traces+=("$f"); done < <(
	{ find "$top/traces" -type f; [ -d "$shared" ] && find "$shared" -type f; } |
	grep -Ev '(README|LICENSE|\.sh$|\.awk$|\.c$|\.py$|\.yml$|\.json$|energy_model_)' | sort)
models=()
for m in models/*.json; do models+=("$(basename "$m" .json)"); done

# One line per command: NAME<TAB>command words (run from $top, in a scratch
# directory of its own so that output files land there and get collected).
cmds=$scratch/cmds
: > "$cmds"
add() { printf '%s\t%s\n' "$1" "$2" >> "$cmds"; }
slug() { printf '%s' "$1" | sed "s|^$top/||; s|^$shared/|shared/|; s|/|_|g"; }
q() { printf '%q' "$1"; }

for m in "${models[@]}"; do
	add "model-show-$m" "model show $m"
	add "model-show-json-$m" "model show $m -f json"
	add "model-check-$m" "model check $m"
	add "model-convert-$m" "model convert $top/models/$m.json -o conv.json"
done
add "model-list" "model list"
for t in "${traces[@]}"; do
	s=$(slug "$t")
	T=$(q "$t")
	add "stats-$s" "stats $T"
	add "stats-json-$s" "stats $T -f json"
	add "stats-csv-$s" "stats $T -f csv"
	add "dump-$s" "dump $T"
	i=0
	for m in "${models[@]}"; do
		add "report-$s-$m" "report $T -m $m --per-task --top all"
		add "report-json-$s-$m" "report $T -m $m -f json --interval 10"
		add "report-csv-$s-$m" "report $T -m $m -f csv"
		add "check-$s-$m" "model check $m --trace $T"
		if [ -z "${SNAP_QUICK:-}" ] || [ $i -lt 2 ]; then
			add "replay-$s-$m" "replay $T -m $m --policy all -f json"
		fi
		i=$((i + 1))
	done
	add "report-pics-$s" "report $T -m juno-r0 --html r.html --perfetto r.json -f json"
	add "replay-text-$s" "replay $T -m tc2 --policy all"
	add "replay-target-$s" "replay $T -m juno-r0 --target-model tc2 --policy all -f json"
	add "replay-sched-$s" "replay $T -m tc2 --governor schedutil --idle menu --policy all -f json"
	add "replay-oracle-$s" "replay $T -m juno-r0 --governor schedutil --idle oracle --work demand --policy eas-rfc,feec,cfs -f json"
	add "replay-fixed-$s" "replay $T -m tc2 --governor fixed:A15=600000,A7=1000000 --policy all -f json"
	add "replay-pics-$s" "replay $T -m tc2 --policy all --html p.html --perfetto p.json"
	add "replay-emit-$s" "replay $T -m tc2 --policy feec --governor schedutil --emit-trace e.txt"
	for p in cfs feec eas-rfc; do
		add "shadow-$p-$s" "replay $T -m juno-r0 --shadow $p --emit-decisions d.csv"
	done
	add "shadow-json-$s" "replay $T -m tc2 --shadow feec -f json --emit-decisions d.json"
done
light=$(ls "$top"/traces/diff/light-*.dat | tr '\n' ' ')
heavy=$(ls "$top"/traces/diff/heavy-*.dat | tr '\n' ' ')
add "diff-text" "diff -m juno-r0 --base $light --new $heavy"
add "diff-json" "diff -m juno-r0 -f json --base $light --new $heavy"
add "diff-md" "diff -m juno-r0 -f markdown --base $light --new $heavy"
add "diff-junit" "diff -m juno-r0 -f junit --normalize time --base $light --new $heavy"
add "diff-html" "diff -m juno-r0 --html d.html --base $light --new $heavy"
add "diff-models" "diff --models juno-r0 juno-r0-eas $top/traces/vm/vm-v7.dat $top/traces/vm/wl-busy.dat $top/traces/vm/wl-periodic.dat"
add "batch" "batch -m juno-r0 -m tc2 -j 1 $top/traces/vm $top/traces/diff"
add "batch-jsonl" "batch -m juno-r0 -f jsonl -j 1 $top/traces/vm"
if [ -d "$shared" ]; then
	add "import-idlestat" "model import --from idlestat $shared/idlestat/energy_model_TC2 --ncpus 5"
	add "import-lisa" "model import --from lisa $shared/lisa/tests__assets__sched_load__plat_info.yml"
	add "import-lisa2" "model import --from lisa $shared/lisa/tests__assets__trace_txt__plat_info.yml"
fi

run_one() {
	name=$1
	args=$2
	d=$scratch/run-$name
	mkdir -p "$d"
	(cd "$d" && eval "$ea $args" > "$out/$name.out" 2> "$out/$name.err"
	 echo "exit $?" > "$out/$name.rc")
	for f in "$d"/*; do
		[ -e "$f" ] && cp "$f" "$out/$name.file-$(basename "$f")"
	done
	rm -rf "$d"
	# Scratch paths and timings are not behaviour.
	sed -i "s|$scratch/run-$name|SCRATCH|g; s|$shared|SHARED|g; s|$top|TOP|g" "$out/$name".* 2>/dev/null
	# model list pads its path column to the longest path: the checkout's
	# own path length is not behaviour either.
	if [ "$name" = model-list ]; then sed -i -E "s/  +/  /g" "$out/$name.out"; fi
}
export -f run_one
export ea out scratch top shared
awk -F'\t' '{print $1 "\0" $2 "\0"}' "$cmds" | tr -d '\n' |
	xargs -0 -n 2 -P "$jobs" bash -c 'run_one "$1" "$2"' _
echo "snapshot: $(wc -l < "$cmds") commands, outputs in $out"
