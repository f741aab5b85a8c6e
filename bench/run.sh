#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# eatrace benchmarks (bench/README.md): `make bench`, as root, from the
# repository's top directory. Records the traces it needs on this machine
# (bench/gen-trace.sh, into bench/out/, reused by later runs), then prints
# one `name: value` line per figure; rates are medians of BENCH_REPS runs.
#
# Environment:
#   EATRACE       the binary to measure (default ./eatrace)
#   BENCH_EVENTS  events in the main trace (default 5000000)
#   BENCH_LONG    how many times longer the long trace is (default 10;
#                 0 skips it)
#   BENCH_REPS    repetitions per figure (default 3)
#   BENCH_FRESH   1: record the traces again even if bench/out has them
#   BENCH_MODEL   the model for `report` (default the two-CPU test model)
#   REPLAY_MODEL  the 8-CPU model for `replay` (default bench/model-8cpu.json)
#   BENCH_COMPRESSED  0 skips the compressed forms (default 1)
#   BENCH_REC     0 skips the `eatrace record` recording (default 1)
#   BENCH_REC_PAIRS, BENCH_REC_ROUNDS  its ping-pong (default 4, 200000)
set -eu

EATRACE=${EATRACE:-./eatrace}
BENCH_EVENTS=${BENCH_EVENTS:-5000000}
BENCH_LONG=${BENCH_LONG:-10}
BENCH_REPS=${BENCH_REPS:-3}
BENCH_FRESH=${BENCH_FRESH:-0}
BENCH_MODEL=${BENCH_MODEL:-tests/fixtures/energy/two-cpu.json}
BENCH_COMPRESSED=${BENCH_COMPRESSED:-1}
CC=${CC:-cc}
OUT=bench/out
PKGS="libtracecmd libtraceevent"

[ -x "$EATRACE" ] || { echo "$0: $EATRACE not built (make)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "$0: /usr/bin/time needed (apt-get install time)" >&2; exit 1; }
mkdir -p "$OUT"

# ---- build the helpers ---------------------------------------------------
build() {	# build NAME [pkg-config libs]
	src=bench/$1.c bin=$OUT/$1
	shift
	if [ ! -x "$bin" ] || [ -n "$(find "$src" -newer "$bin")" ]; then
		# shellcheck disable=SC2046
		$CC -O2 -g -Wall -Wextra -o "$bin" "$src" \
			$([ $# -eq 0 ] || pkg-config --cflags --libs "$@")
	fi
}
build pingpong
build rawpages
# shellcheck disable=SC2086
build bare-loop $PKGS

# ---- traces ----------------------------------------------------------------
DAT=$OUT/trace.dat TXT=$OUT/trace.txt LONG=$OUT/trace-x$BENCH_LONG.dat
stamp="events=$BENCH_EVENTS long=$BENCH_LONG"
if [ "$BENCH_FRESH" = 1 ] || [ ! -s "$DAT" ] || [ ! -s "$TXT" ] ||
   [ "$(cat "$OUT/stamp" 2>/dev/null)" != "$stamp" ] ||
   { [ "$BENCH_LONG" -gt 1 ] && [ ! -s "$LONG" ]; }; then
	rm -f "$OUT"/trace*.dat "$OUT/trace.txt" "$OUT/stamp"
	t0=$(date +%s)
	sh bench/gen-trace.sh "$OUT" "$BENCH_EVENTS" "$BENCH_LONG"
	echo "$stamp" >"$OUT/stamp"
	echo "# traces recorded in $(($(date +%s) - t0)) s" >&2
fi

# ---- compressed forms (issue 19) ---------------------------------------------
# trace-cmd convert writes compressed v7 (10 pages a chunk); Debian's
# trace-cmd has zstd only, so zlib is registered into it with LD_PRELOAD
# of tests/e2e/tc-zlib.c (eatrace registers the same itself). The bare
# loop and `trace-cmd report` read the zlib file with it preloaded too.
ZSTD=$OUT/trace-zstd.dat ZLIB=$OUT/trace-zlib.dat LZSTD=$OUT/trace-x$BENCH_LONG-zstd.dat
PRELOAD_ZLIB="env LD_PRELOAD=$PWD/$OUT/tc-zlib.so"
# compress IN OUT ALGO: once (the files stay in bench/out)
compress() {
	[ -s "$2" ] && [ "$2" -nt "$1" ] && return 0
	t0=$(date +%s)
	# shellcheck disable=SC2086
	$([ "$3" = zlib ] && echo "$PRELOAD_ZLIB") trace-cmd convert --file-version 7 \
		--compression "$3" -i "$1" -o "$2" >"$OUT/conv.log" 2>&1 ||
		{ cat "$OUT/conv.log" >&2; rm -f "$2"; return 1; }
	echo "# $2 written in $(($(date +%s) - t0)) s" >&2
}
if [ "$BENCH_COMPRESSED" = 1 ]; then
	# shellcheck disable=SC2046
	$CC -shared -fPIC -O2 -o "$OUT/tc-zlib.so" tests/e2e/tc-zlib.c \
		$(pkg-config --cflags --libs libtracecmd zlib)
	compress "$DAT" "$ZSTD" zstd
	compress "$DAT" "$ZLIB" zlib
	[ "$BENCH_LONG" -le 1 ] || compress "$LONG" "$LZSTD" zstd
fi

# ---- measuring ---------------------------------------------------------------
# run ID CMD...: one run, stdout to /dev/null; appends "WALL_US MAXRSS_KB
# CPU_S" (CPU = user + system) to $OUT/m.ID. Fails when the command fails.
run() {
	id=$1
	shift
	t0=$(date +%s%N)
	if ! /usr/bin/time -f '%M %U %S' -o "$OUT/rss.tmp" "$@" >/dev/null 2>"$OUT/err.tmp"; then
		echo "$0: failed: $*" >&2
		cat "$OUT/err.tmp" >&2
		return 1
	fi
	t1=$(date +%s%N)
	tail -n 1 "$OUT/rss.tmp" |
		awk -v us=$(((t1 - t0) / 1000)) '{ print us, $1, $2 + $3 }' >>"$OUT/m.$id"
}

# reps ID CMD...: BENCH_REPS runs; "n/a" figures if one fails. The files
# named in REPS_FRESH (space-separated) are removed before each run, not
# timed: see the pictures below.
reps() {
	id=$1
	shift
	rm -f "$OUT/m.$id"
	i=0
	while [ $i -lt "$BENCH_REPS" ]; do
		# shellcheck disable=SC2086
		[ -z "${REPS_FRESH:-}" ] || rm -f $REPS_FRESH
		run "$id" "$@" || { rm -f "$OUT/m.$id"; return 0; }
		i=$((i + 1))
	done
}

# median of column COL (1 wall time in us, 2 peak RSS in KB, 3 CPU time
# in s) of ID, or n/a
median() {
	[ -s "$OUT/m.$1" ] || { echo n/a; return; }
	cut -d' ' -f"$2" "$OUT/m.$1" | sort -n |
		awk -v col="$2" '{ v[NR] = $1 } END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			if (col == 3) printf "%.2f\n", m; else printf "%.0f\n", m }'
}

# rate COUNT ID: COUNT per second at the median time
rate() {
	us=$(median "$2" 1)
	[ "$us" != n/a ] || { echo n/a; return; }
	echo "$1 $us" | awk '{ printf "%.0f\n", $1 * 1e6 / $2 }'
}

# ratio A B: A / B, two decimals
ratio() {
	case "$1$2" in *n/a*) echo n/a; return ;; esac
	echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f\n", $1 / $2; else print "n/a" }'
}

# check NAME VALUE OP LIMIT: target line, pass/fail
check() {
	case "$2" in n/a) echo "target_$1: n/a"; return ;; esac
	echo "$2 $4" | awk -v n="$1" -v op="$3" '{
		ok = (op == ">=") ? ($1 >= $2) : ($1 <= $2)
		printf "target_%s: %s (%s %s %s)\n", n, ok ? "pass" : "fail", $1, op, $2 }'
}

# Page cache warm for everyone: the first run of each file is not timed.
cat "$DAT" "$TXT" >/dev/null

events=$("$OUT/bare-loop" "$DAT" | sed -n 's/^records: //p')
lines=$(wc -l <"$TXT")
echo "dat_events: $events"
echo "dat_bytes: $(wc -c <"$DAT")"
echo "text_lines: $lines"
echo "text_bytes: $(wc -c <"$TXT")"
echo "reps: $BENCH_REPS"

reps bare "$OUT/bare-loop" "$DAT"
reps tcreport trace-cmd report -i "$DAT"
reps stats "$EATRACE" stats "$DAT"
reps report "$EATRACE" report -m "$BENCH_MODEL" "$DAT"
# one thread and two (issue 19: decoding on a thread of its own)
reps report_j1 "$EATRACE" report -j 1 -m "$BENCH_MODEL" "$DAT"
reps report_j2 "$EATRACE" report -j 2 -m "$BENCH_MODEL" "$DAT"
reps stats_txt "$EATRACE" stats "$TXT"
reps dump_txt "$EATRACE" dump "$TXT"

bare=$(rate "$events" bare)
tcr=$(rate "$events" tcreport)
st=$(rate "$events" stats)
rp=$(rate "$events" report)
echo "bare_dat_events_per_s: $bare"
echo "tracecmd_report_events_per_s: $tcr"
echo "stats_dat_events_per_s: $st"
echo "report_dat_events_per_s: $rp"
echo "ratio_stats_vs_bare: $(ratio "$st" "$bare")"
echo "ratio_report_vs_bare: $(ratio "$rp" "$bare")"
echo "ratio_stats_vs_tracecmd_report: $(ratio "$st" "$tcr")"
echo "ratio_report_vs_tracecmd_report: $(ratio "$rp" "$tcr")"
# The same from CPU time (user + system): steadier than wall time when
# other work shares the machine. Ratio = other's CPU time / eatrace's.
echo "cpu_s_bare: $(median bare 3)"
echo "cpu_s_tracecmd_report: $(median tcreport 3)"
echo "cpu_s_stats: $(median stats 3)"
echo "cpu_s_report: $(median report 3)"
echo "ratio_stats_vs_bare_cpu: $(ratio "$(median bare 3)" "$(median stats 3)")"
echo "ratio_report_vs_bare_cpu: $(ratio "$(median bare 3)" "$(median report 3)")"
echo "ratio_report_vs_tracecmd_report_cpu: $(ratio "$(median tcreport 3)" "$(median report 3)")"
rp1=$(rate "$events" report_j1)
rp2=$(rate "$events" report_j2)
echo "report_j1_dat_events_per_s: $rp1"
echo "report_j2_dat_events_per_s: $rp2"
echo "cpu_s_report_j1: $(median report_j1 3)"
echo "cpu_s_report_j2: $(median report_j2 3)"
echo "ratio_report_j1_vs_bare: $(ratio "$rp1" "$bare")"
echo "ratio_report_j1_vs_bare_cpu: $(ratio "$(median bare 3)" "$(median report_j1 3)")"
echo "ratio_report_j2_vs_bare: $(ratio "$rp2" "$bare")"
echo "ratio_report_j2_vs_j1: $(ratio "$rp2" "$rp1")"
text=$(rate "$lines" stats_txt)
echo "text_lines_per_s: $text"
echo "dump_text_lines_per_s: $(rate "$lines" dump_txt)"

# The same recording as a Perfetto trace, compact_sched (docs/perfetto.md;
# converted once, reused): events per second of the recording, as above.
PF=$OUT/trace.pftrace
if [ ! -s "$PF" ] || [ "$PF" -ot "$DAT" ]; then
	trace-cmd report -t -R "$DAT" >"$OUT/trace-raw.txt" 2>/dev/null &&
		/usr/bin/python3 tests/perfetto/to-perfetto.py --compact "$OUT/trace-raw.txt" "$PF"
	rm -f "$OUT/trace-raw.txt"
fi
reps stats_pf "$EATRACE" stats "$PF"
pf=$(rate "$events" stats_pf)
echo "perfetto_bytes: $(wc -c <"$PF")"
echo "stats_perfetto_events_per_s: $pf"
echo "ratio_stats_perfetto_vs_dat: $(ratio "$pf" "$st")"
echo "rss_perfetto_stats_kb: $(median stats_pf 2)"
check perfetto_rate_vs_dat "$(ratio "$pf" "$st")" ">=" 1
# The readers alone (bench/read-loop.c: ea_input_next() over the whole
# trace, nothing else; CPU seconds, the best of 5 passes in one process).
if [ -f build/libeatrace.a ] &&
   # shellcheck disable=SC2046
   $CC -O2 -g -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -o "$OUT/read-loop" bench/read-loop.c \
	build/libeatrace.a $(pkg-config --libs libtracecmd libtraceevent libtracefs json-c zlib libzstd yaml-0.1 libxml-2.0) -lm; then
	rd=$("$OUT/read-loop" -n 5 "$DAT" | awk '{ print $3 }')
	# (not $rp: that is the report rate the targets below compare)
	rpf=$("$OUT/read-loop" -n 5 "$PF" | awk '{ print $3 }')
	echo "reader_cpu_s_dat: $rd"
	echo "reader_cpu_s_perfetto: $rpf"
	echo "ratio_reader_perfetto_vs_dat_cpu: $(ratio "$rd" "$rpf")"
fi

# A CPU whose first record comes 2 M lines in (issue 15; as
# ../shared/repro/gen-lookahead.sh 2000000): its state before it comes
# from a skim of the text (src/input/text-first.c). Against the same trace
# with that record first: CPU time far / near.
far=$OUT/first-far.txt near=$OUT/first-near.txt
if [ ! -s "$far" ] || [ ! -s "$near" ]; then
	awk -v n=2000000 -v near="$near" 'BEGIN {
		sw = "          busy-100  [000] %s: sched_switch:          prev_comm=busy prev_pid=100 prev_prio=120 prev_state=1 next_comm=swapper/0 next_pid=0 next_prio=120\n"
		wk = "          hog-200   [001] %.9f: sched_wakeup:          comm=x pid=300 prio=120 target_cpu=001\n"
		print "cpus=2"; print "cpus=2" >near
		printf sw, "100.000000000" >near
		for (i = 0; i < n; i++) { printf wk, 100 + i / n; printf wk, 100 + i / n >near }
		printf sw, "101.000000000"
		printf wk, 101.5; printf wk, 101.5 >near
	}' >"$far"
fi
reps first_far "$EATRACE" report -m "$BENCH_MODEL" "$far"
reps first_near "$EATRACE" report -m "$BENCH_MODEL" "$near"
echo "cpu_s_report_first_far: $(median first_far 3)"
echo "cpu_s_report_first_near: $(median first_near 3)"
echo "ratio_report_first_far_vs_near_cpu: $(ratio "$(median first_far 3)" "$(median first_near 3)")"
echo "rss_report_first_far_kb: $(median first_far 2)"

rss_bare=$(median bare 2)
rss_stats=$(median stats 2)
rss_report=$(median report 2)
rss_eatrace=$rss_report
[ "$rss_stats" = n/a ] || [ "$rss_report" = n/a ] ||
	[ "$rss_stats" -le "$rss_report" ] || rss_eatrace=$rss_stats
echo "rss_bare_kb: $rss_bare"
echo "rss_stats_kb: $rss_stats"
echo "rss_report_kb: $rss_report"
echo "rss_eatrace_kb: $rss_eatrace"
echo "rss_text_stats_kb: $(median stats_txt 2)"
echo "rss_tracecmd_report_kb: $(median tcreport 2)"
case "$rss_bare$rss_eatrace" in
*n/a*) rss_over=n/a ;;
*) rss_over=$((rss_eatrace - rss_bare)) ;;
esac
echo "rss_eatrace_over_bare_kb: $rss_over"

# ---- the long trace: once each (peak RSS is what it is for) ----------------
if [ "$BENCH_LONG" -gt 1 ]; then
	cat "$LONG" >/dev/null
	long_events=$("$OUT/bare-loop" "$LONG" | sed -n 's/^records: //p')
	echo "long_factor: $BENCH_LONG"
	echo "long_dat_events: $long_events"
	rm -f "$OUT/m.lbare" "$OUT/m.lreport"
	run lbare "$OUT/bare-loop" "$LONG" || true
	run lreport "$EATRACE" report -m "$BENCH_MODEL" "$LONG" || true
	lrb=$(median lbare 2)
	lre=$(median lreport 2)
	echo "long_bare_dat_events_per_s: $(rate "$long_events" lbare)"
	echo "long_report_dat_events_per_s: $(rate "$long_events" lreport)"
	echo "long_rss_bare_kb: $lrb"
	echo "long_rss_eatrace_kb: $lre"
	case "$lrb$lre" in
	*n/a*) long_over=n/a ;;
	*) long_over=$((lre - lrb)) ;;
	esac
	echo "long_rss_eatrace_over_bare_kb: $long_over"
else
	long_over=n/a
fi

# ---- compressed (issue 19) ---------------------------------------------------------
# The same recording zstd- and zlib-compressed: the bare loop, `trace-cmd
# report` and `eatrace report` on each; the long trace zstd-compressed
# once, for time linear in length and peak RSS.
ztargets=
if [ "$BENCH_COMPRESSED" = 1 ]; then
	for algo in zstd zlib; do
		z=$OUT/trace-$algo.dat pre=
		[ "$algo" = zlib ] && pre=$PRELOAD_ZLIB
		cat "$z" >/dev/null
		echo "${algo}_bytes: $(wc -c <"$z")"
		# shellcheck disable=SC2086
		reps "${algo}_bare" $pre "$OUT/bare-loop" "$z"
		# shellcheck disable=SC2086
		reps "${algo}_tcreport" $pre trace-cmd report -i "$z"
		reps "${algo}_report" "$EATRACE" report -m "$BENCH_MODEL" "$z"
		zb=$(rate "$events" "${algo}_bare")
		zt=$(rate "$events" "${algo}_tcreport")
		zr=$(rate "$events" "${algo}_report")
		echo "${algo}_bare_dat_events_per_s: $zb"
		echo "${algo}_tracecmd_report_events_per_s: $zt"
		echo "${algo}_report_dat_events_per_s: $zr"
		echo "${algo}_ratio_report_vs_bare: $(ratio "$zr" "$zb")"
		echo "${algo}_ratio_report_vs_tracecmd_report: $(ratio "$zr" "$zt")"
		echo "${algo}_cpu_s_bare: $(median "${algo}_bare" 3)"
		echo "${algo}_cpu_s_tracecmd_report: $(median "${algo}_tcreport" 3)"
		echo "${algo}_cpu_s_report: $(median "${algo}_report" 3)"
		echo "${algo}_ratio_report_vs_bare_cpu: $(ratio "$(median "${algo}_bare" 3)" "$(median "${algo}_report" 3)")"
		echo "${algo}_ratio_report_vs_tracecmd_report_cpu: $(ratio "$(median "${algo}_tcreport" 3)" "$(median "${algo}_report" 3)")"
		echo "${algo}_rss_bare_kb: $(median "${algo}_bare" 2)"
		echo "${algo}_rss_tracecmd_report_kb: $(median "${algo}_tcreport" 2)"
		echo "${algo}_rss_report_kb: $(median "${algo}_report" 2)"
		ztargets="$ztargets ${algo}_report_vs_bare=$(ratio "$zr" "$zb"):>=:4"
		ztargets="$ztargets ${algo}_report_vs_tracecmd_report=$(ratio "$zr" "$zt"):>=:15"
		ztargets="$ztargets ${algo}_rss_report_kb=$(median "${algo}_report" 2):<=:32768"
	done
	if [ "$BENCH_LONG" -gt 1 ] && [ -s "$LZSTD" ]; then
		cat "$LZSTD" >/dev/null
		rm -f "$OUT/m.lzreport"
		run lzreport "$EATRACE" report -m "$BENCH_MODEL" "$LZSTD" || true
		lzt=$(ratio "$(median lzreport 1)" "$(median zstd_report 1)")
		echo "long_zstd_report_wall_s: $(median lzreport 1 | awk '{ printf "%.2f\n", $1 / 1e6 }')"
		echo "long_zstd_report_time_vs_zstd: $lzt"
		# CPU time: one wall-clock run of the long trace under load
		# varies far more than the medians of the short one
		lzc=$(ratio "$(median lzreport 3)" "$(median zstd_report 3)")
		echo "long_zstd_report_cpu_s: $(median lzreport 3)"
		echo "long_zstd_report_cpu_vs_zstd: $lzc"
		echo "long_zstd_rss_report_kb: $(median lzreport 2)"
		ztargets="$ztargets long_zstd_cpu_vs_zstd=$lzc:<=:$(echo "$BENCH_LONG" | awk '{ print $1 * 1.1 }')"
		ztargets="$ztargets long_zstd_rss_report_kb=$(median lzreport 2):<=:32768"
	fi
fi

# ---- replay --------------------------------------------------------------------
# Placement decisions per second per policy on an 8-CPU model
# (bench/model-8cpu.json, what-if hardware: the VM has no model, so the
# recorded work is taken at --source-capacity 1024). A decision is an
# activation the policy placed (the policy's "latency.activations" in the
# JSON output). Two rates from the same runs:
#  - replay_P_decisions_per_s: per second of the whole run (wall), reading
#    the trace and extracting the workload included: a lower bound on the
#    policy's own rate;
#  - replay_P_policy_decisions_per_s: per CPU second of the policy's own
#    phase (simulation and pricing of its timeline), as `replay --timing`
#    prints it; reading + extraction is replay_read_workload_cpu_s.
# n/a when `eatrace replay` (or its --timing) does not exist.
REPLAY_MODEL=${REPLAY_MODEL:-bench/model-8cpu.json}
# One replay of the policy, as issue 19's target counts it: without these
# (the defaults since the ensemble and the sensitivity came) a run replays
# the policy 12 times and the figure counted one of them. replay_all below
# keeps the defaults.
REPLAY_ONE="--ensemble 1 --no-sensitivity"

# replay_reps ID POLICY [--timing]: BENCH_REPS runs as reps does; with
# --timing, each run's policy phase and read phase CPU seconds are kept
# in $OUT/tpol.ID and $OUT/tread.ID, one a line
replay_reps() {
	# not tflag: these are the caller's variables too (sh has no locals),
	# and replay_all below needs the caller's --timing
	id=$1 p=$2 rtflag=${3:-} rdat=${RDAT:-$DAT}
	rm -f "$OUT/m.$id" "$OUT/tpol.$id" "$OUT/tread.$id"
	i=0
	while [ $i -lt "$BENCH_REPS" ]; do
		# shellcheck disable=SC2086
		run "$id" "$EATRACE" replay -q $rtflag --policy "$p" \
			$REPLAY_ONE --source-capacity 1024 \
			--target-model "$REPLAY_MODEL" --format json "$rdat" ||
			{ rm -f "$OUT/m.$id" "$OUT/tpol.$id" "$OUT/tread.$id"; return 0; }
		if [ -n "$rtflag" ]; then
			sed -n "s/^eatrace replay timing: policy $p cpu_s \([0-9.]*\) .*/\1/p" \
				"$OUT/err.tmp" >>"$OUT/tpol.$id"
			sed -n 's/^eatrace replay timing: phase read+workload cpu_s \([0-9.]*\) .*/\1/p' \
				"$OUT/err.tmp" >>"$OUT/tread.$id"
		fi
		i=$((i + 1))
	done
}

# replay_all_lines ID: the figures of a `replay --timing --policy all`
# run (ID, its stderr in $OUT/err.tmp): decisions = every placement the
# command made, each activation placed in each run (the main runs, the
# ensemble's members, the sensitivity's runs: the `total all` line of
# --timing, which sums each run's latency.activations), per CPU second
# (user + system, /usr/bin/time) of the whole process; beside it the main
# runs' decisions alone (the policies' latency.activations in the JSON)
# over the same CPU seconds; and `placements`, the CPUs chosen at
# wakeup (docs/replay.md "Timing").
replay_all_lines() {
	tl=$(sed -n 's/^eatrace replay timing: total all //p' "$OUT/err.tmp")
	cpu=$(median "$1" 3)
	all=$(echo "$tl" | awk '{ for (i = 1; i < NF; i++) if ($i == "decisions") print $(i + 1) }')
	main=$(echo "$tl" | awk '{ for (i = 1; i < NF; i++) if ($i == "main_decisions") print $(i + 1) }')
	pl=$(echo "$tl" | awk '{ for (i = 1; i < NF; i++) if ($i == "placements") print $(i + 1) }')
	echo "${1}_cpu_s: $cpu"
	echo "${1}_rss_kb: $(median "$1" 2)"
	echo "${1}_decisions: ${all:-n/a}"
	echo "${1}_main_decisions: ${main:-n/a}"
	echo "${1}_placements: ${pl:-n/a}"
	echo "${1}_decisions_per_cpu_s: $(ratio "${all:-n/a}" "$cpu" | awk '{ print ($1 == "n/a") ? $1 : sprintf("%.0f", $1) }')"
	echo "${1}_main_decisions_per_cpu_s: $(ratio "${main:-n/a}" "$cpu" | awk '{ print ($1 == "n/a") ? $1 : sprintf("%.0f", $1) }')"
	all_rate=$(ratio "${all:-n/a}" "$cpu" | awk '{ print ($1 == "n/a") ? $1 : sprintf("%.0f", $1) }')
}

# median_file FILE: median of its lines (seconds, 3 decimals), or n/a
median_file() {
	[ -s "$1" ] || { echo n/a; return; }
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		printf "%.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

replay_rates='' replay_prates='' replay_read=n/a
if "$EATRACE" replay --help >/dev/null 2>&1; then
	tflag=
	"$EATRACE" replay --help | grep -q -- --timing && tflag=--timing
	for p in feec eas-rfc; do
		id=replay_$(echo "$p" | tr - _)
		n=
		if "$EATRACE" replay -q --policy "$p" $REPLAY_ONE \
			--source-capacity 1024 \
			--target-model "$REPLAY_MODEL" --format json "$DAT" \
			>"$OUT/replay.json" 2>"$OUT/err.tmp"; then
			n=$(grep -o '"activations": *[0-9]*' "$OUT/replay.json" |
				sed -n '2s/.*: *//p')
		else
			cat "$OUT/err.tmp" >&2
		fi
		r=n/a pcpu=n/a pr=n/a
		if [ -n "$n" ]; then
			# shellcheck disable=SC2086
			replay_reps "$id" "$p" $tflag
			r=$(rate "$n" "$id")
			pcpu=$(median_file "$OUT/tpol.$id")
			[ "$pcpu" = n/a ] ||
				pr=$(echo "$n $pcpu" | awk '{ if ($2 > 0) printf "%.0f\n", $1 / $2; else print "n/a" }')
			[ "$replay_read" != n/a ] || replay_read=$(median_file "$OUT/tread.$id")
		fi
		echo "${id}_decisions: ${n:-n/a}"
		echo "${id}_decisions_per_s: $r"
		echo "${id}_policy_cpu_s: $pcpu"
		echo "${id}_policy_decisions_per_s: $pr"
		echo "rss_${id}_kb: $(median "$id" 2)"
		replay_rates="$replay_rates $p=$r"
		replay_prates="$replay_prates $p=$pr"
		# the same end to end on the zstd-compressed recording (issue
		# 19: >= 1 M decisions per second of the whole run)
		if [ -n "$n" ] && [ "$BENCH_COMPRESSED" = 1 ]; then
			zid=zstd_$id	# replay_reps sets id
			RDAT=$ZSTD
			replay_reps "$zid" "$p"
			RDAT=
			r=$(rate "$n" "$zid")
			echo "${zid}_decisions_per_s: $r"
			echo "${zid}_cpu_s: $(median "$zid" 3)"
			echo "rss_${zid}_kb: $(median "$zid" 2)"
			ztargets="$ztargets ${zid}_decisions_per_s=$r:>=:1000000"
		fi
	done
	echo "replay_read_workload_cpu_s: $replay_read"
	rm -f "$OUT/replay.json" "$OUT"/tpol.* "$OUT"/tread.*
	# `--policy all` with the defaults (ensemble of 10, sensitivity) on
	# the 8-CPU model, once (issue 31: peak RSS under 64 MiB): its peak
	# RSS and its decisions per CPU second as rec_replay_all's below
	rm -f "$OUT/m.replay_all"
	# shellcheck disable=SC2086
	if run replay_all "$EATRACE" replay -q $tflag --policy all \
		--source-capacity 1024 --target-model "$REPLAY_MODEL" \
		--format json "$DAT"; then
		replay_all_lines replay_all
		ztargets="$ztargets replay_all_rss_kb=$(median replay_all 2):<=:65536"
	fi
else
	echo "replay_decisions_per_s: n/a"
fi

# ---- batch (issue 20) ---------------------------------------------------------
# 100 small traces (the bundled traces/diff runs, copied round-robin), priced
# by `eatrace batch -j 1` and `-j 2`, and by 100 lone `eatrace report`s.
BD=$OUT/batch-traces
rm -rf "$BD" && mkdir -p "$BD"
i=0
for f in $(i=0; while [ $i -lt 12 ]; do ls traces/diff/*.dat; i=$((i + 1)); done | head -n 100); do
	i=$((i + 1))
	cp "$f" "$BD/$(printf %03d $i).dat"
done
reps batch_j1 "$EATRACE" batch -q -j 1 -m tc2 "$BD"
reps batch_j2 "$EATRACE" batch -q -j 2 -m tc2 "$BD"
reps report_loop sh -c 'for f in "$1"/*.dat; do "$2" report -f json -m tc2 "$f" >/dev/null || exit 1; done' \
	sh "$BD" "$EATRACE"
batch_j2=$(ratio "$(median batch_j1 1)" "$(median batch_j2 1)")
# overhead in CPU time (the workers' included): wall time on a shared
# machine is mostly waiting
batch_over=$(ratio "$(median batch_j1 3)" "$(median report_loop 3)")
echo "batch_100_j1_wall_us: $(median batch_j1 1)"
echo "batch_100_j2_wall_us: $(median batch_j2 1)"
echo "report_100_lone_wall_us: $(median report_loop 1)"
echo "cpu_s_batch_100_j1: $(median batch_j1 3)"
echo "cpu_s_report_100_lone: $(median report_loop 3)"
echo "ratio_batch_j2_vs_j1: $batch_j2"
echo "ratio_batch_j1_vs_lone_reports_cpu: $batch_over"
# Dask (eatrace.fleet, python3-distributed): the same 100 traces on a local
# cluster of one worker process, then two (bench/dask-fleet.py); the rows
# must be the CLI's bytes (`batch -f jsonl`).
dask_ratio=n/a dask_same=n/a
if [ -f build/libeatrace.so.0 ] && /usr/bin/python3 -c 'import distributed, pandas' 2>/dev/null; then
	"$EATRACE" batch -q -f jsonl -m tc2 "$BD" >"$OUT/batch.jsonl" || true
	PYTHONPATH=$PWD/python EATRACE_LIB=$PWD/build/libeatrace.so.0 \
		EATRACE_MODEL_PATH=$PWD/models PYTHONDONTWRITEBYTECODE=1 \
		/usr/bin/python3 bench/dask-fleet.py "$BD" tc2 "$OUT/batch.jsonl" "$BENCH_REPS" \
		>"$OUT/dask.txt" 2>"$OUT/dask.err" || cat "$OUT/dask.err" >&2
	cat "$OUT/dask.txt"
	dask_ratio=$(sed -n 's/^ratio_dask_2workers_vs_1: //p' "$OUT/dask.txt")
	dask_same=$(sed -n 's/^dask_same_as_cli: //p' "$OUT/dask.txt")
	rm -f "$OUT/batch.jsonl" "$OUT/dask.txt" "$OUT/dask.err"
fi
rm -rf "$BD"

# ---- Python (issue 20) ----------------------------------------------------------
# eatrace.report() on the main trace against `eatrace report -f json` (the
# same JSON the package parses): the call timed in the interpreter
# (bench/py-report.py), the CLI as a process; and the whole interpreter
# (start, import, call) as a process, for the record.
py_ratio=n/a py_same=n/a
if [ -f build/libeatrace.so.0 ]; then
	PYENV="env PYTHONPATH=$PWD/python EATRACE_LIB=$PWD/build/libeatrace.so.0 PYTHONDONTWRITEBYTECODE=1"
	"$EATRACE" report -f json -m "$BENCH_MODEL" "$DAT" >"$OUT/cli.json" 2>/dev/null || true
	reps report_json "$EATRACE" report -f json -m "$BENCH_MODEL" "$DAT"
	# shellcheck disable=SC2086
	reps py_proc $PYENV /usr/bin/python3 -c \
		'import sys, eatrace; eatrace.report(sys.argv[1], sys.argv[2])' "$DAT" "$BENCH_MODEL"
	# shellcheck disable=SC2086
	$PYENV /usr/bin/python3 bench/py-report.py "$DAT" "$BENCH_MODEL" "$OUT/cli.json" \
		"$BENCH_REPS" >"$OUT/py.txt" 2>"$OUT/py.err" || cat "$OUT/py.err" >&2
	cat "$OUT/py.txt"
	py_call=$(sed -n 's/^python_report_call_wall_us: //p' "$OUT/py.txt")
	py_same=$(sed -n 's/^python_same_as_cli: //p' "$OUT/py.txt")
	echo "cli_report_json_wall_us: $(median report_json 1)"
	echo "python_report_process_wall_us: $(median py_proc 1)"
	py_ratio=$(ratio "${py_call:-n/a}" "$(median report_json 1)")
	echo "ratio_python_report_call_vs_cli: $py_ratio"
	echo "ratio_python_report_process_vs_cli: $(ratio "$(median py_proc 1)" "$(median report_json 1)")"
	rm -f "$OUT/cli.json" "$OUT/py.txt" "$OUT/py.err"
fi

# ---- diff over 6 recordings (issue 19) --------------------------------------------
# The recording as 6 runs (--base 3, --new 3), compressed (zstd, zlib,
# zstd on each side) and plain. "Today" as the issue measured it: each
# trace priced one after the other, compressed ones read by libtracecmd
# (EATRACE_DAT_READER=libtracecmd -j 1: one run, it takes a minute); the
# plain form's one after the other on one thread (-j 1, EATRACE_JOBS=1).
# Target: the compressed diff >= 3 times faster than today's.
if [ "$BENCH_COMPRESSED" = 1 ]; then
	reps diff6_z "$EATRACE" diff -m "$BENCH_MODEL" --max-increase 100 \
		--base "$ZSTD" "$ZLIB" "$ZSTD" --new "$ZSTD" "$ZLIB" "$ZSTD"
	rm -f "$OUT/m.diff6_z_old"
	run diff6_z_old env EATRACE_DAT_READER=libtracecmd \
		"$EATRACE" diff -j 1 -m "$BENCH_MODEL" --max-increase 100 \
		--base "$ZSTD" "$ZLIB" "$ZSTD" --new "$ZSTD" "$ZLIB" "$ZSTD" || true
	dz=$(ratio "$(median diff6_z_old 1)" "$(median diff6_z 1)")
	echo "diff_6_compressed_wall_us: $(median diff6_z 1)"
	echo "diff_6_compressed_cpu_s: $(median diff6_z 3)"
	echo "diff_6_compressed_libtracecmd_serial_wall_us: $(median diff6_z_old 1)"
	echo "diff_6_compressed_libtracecmd_serial_cpu_s: $(median diff6_z_old 3)"
	echo "ratio_diff_6_compressed_vs_libtracecmd_serial: $dz"
	echo "ratio_diff_6_compressed_vs_libtracecmd_serial_cpu: $(ratio "$(median diff6_z_old 3)" "$(median diff6_z 3)")"
	ztargets="$ztargets diff_6_compressed_vs_libtracecmd_serial=$dz:>=:3"
fi
reps diff6_p "$EATRACE" diff -m "$BENCH_MODEL" --max-increase 100 \
	--base "$DAT" "$DAT" "$DAT" --new "$DAT" "$DAT" "$DAT"
reps diff6_p_serial env EATRACE_JOBS=1 "$EATRACE" diff -j 1 -m "$BENCH_MODEL" \
	--max-increase 100 --base "$DAT" "$DAT" "$DAT" --new "$DAT" "$DAT" "$DAT"
echo "diff_6_plain_wall_us: $(median diff6_p 1)"
echo "diff_6_plain_serial_wall_us: $(median diff6_p_serial 1)"
echo "ratio_diff_6_plain_vs_serial: $(ratio "$(median diff6_p_serial 1)" "$(median diff6_p 1)")"

# ---- a recording made with `eatrace record` (issue 31) ----------------------------
# The traces above are written by gen-trace.sh (raw pages + trace-cmd
# restore). This one is what a user gets: `eatrace record` around a pipe
# ping-pong of BENCH_REC_PAIRS pairs (default 4: few tasks, a context
# switch every few microseconds; about 21 events per round, 200000 rounds
# about 4.3 M events, 25 s), recorded once into bench/out/rec.dat (v7,
# uncompressed) and converted to zstd (rec-zstd.dat). On each form: the
# bare loop, `trace-cmd report` and `eatrace report`, as above; on the
# uncompressed one also `report --html --perfetto` (what the two files
# add to report's time) and `replay --policy all` with BENCH_MODEL (peak
# RSS; decisions = every activation placed in every run, the ensemble's
# and the sensitivity's included, per CPU second of the whole process,
# beside the main runs' alone: replay_all_lines). BENCH_REC=0 skips it;
# BENCH_REC_ROUNDS sets the rounds.
BENCH_REC=${BENCH_REC:-1}
BENCH_REC_PAIRS=${BENCH_REC_PAIRS:-4}
BENCH_REC_ROUNDS=${BENCH_REC_ROUNDS:-200000}
REC=$OUT/rec.dat RECZ=$OUT/rec-zstd.dat
rec_targets=
if [ "$BENCH_REC" = 1 ]; then
	rstamp="pairs=$BENCH_REC_PAIRS rounds=$BENCH_REC_ROUNDS"
	if [ "$BENCH_FRESH" = 1 ] || [ ! -s "$REC" ] ||
	   [ "$(cat "$OUT/rec.stamp" 2>/dev/null)" != "$rstamp" ]; then
		rm -f "$REC" "$REC.json" "$RECZ" "$OUT/rec.stamp"
		"$EATRACE" record -q -b 65536 -o "$REC" -- \
			"$OUT/pingpong" "$BENCH_REC_PAIRS" "$BENCH_REC_ROUNDS" &&
			echo "$rstamp" >"$OUT/rec.stamp"
	fi
	[ ! -s "$REC" ] || [ "$BENCH_COMPRESSED" != 1 ] || compress "$REC" "$RECZ" zstd || true
fi
if [ "$BENCH_REC" = 1 ] && [ -s "$REC" ]; then
	cat "$REC" >/dev/null
	rev=$("$OUT/bare-loop" "$REC" | sed -n 's/^records: //p')
	echo "rec_events: $rev"
	echo "rec_bytes: $(wc -c <"$REC")"
	for form in plain zstd; do
		f=$REC
		[ "$form" = zstd ] && f=$RECZ
		[ -s "$f" ] || continue
		cat "$f" >/dev/null
		[ "$form" = zstd ] && echo "rec_zstd_bytes: $(wc -c <"$f")"
		reps "rec_${form}_bare" "$OUT/bare-loop" "$f"
		reps "rec_${form}_tcreport" trace-cmd report -i "$f"
		reps "rec_${form}_report" "$EATRACE" report -m "$BENCH_MODEL" "$f"
		b=$(median "rec_${form}_bare" 1) t=$(median "rec_${form}_tcreport" 1)
		r=$(median "rec_${form}_report" 1)
		bc=$(median "rec_${form}_bare" 3) tc=$(median "rec_${form}_tcreport" 3)
		rc=$(median "rec_${form}_report" 3)
		echo "rec_${form}_wall_s_bare: $(ratio "$b" 1000000)"
		echo "rec_${form}_wall_s_tracecmd_report: $(ratio "$t" 1000000)"
		echo "rec_${form}_wall_s_report: $(ratio "$r" 1000000)"
		echo "rec_${form}_cpu_s_bare: $bc"
		echo "rec_${form}_cpu_s_tracecmd_report: $tc"
		echo "rec_${form}_cpu_s_report: $rc"
		echo "rec_${form}_ratio_report_vs_bare: $(ratio "$b" "$r")"
		echo "rec_${form}_ratio_report_vs_bare_cpu: $(ratio "$bc" "$rc")"
		echo "rec_${form}_ratio_report_vs_tracecmd_report: $(ratio "$t" "$r")"
		echo "rec_${form}_ratio_report_vs_tracecmd_report_cpu: $(ratio "$tc" "$rc")"
		echo "rec_${form}_rss_report_kb: $(median "rec_${form}_report" 2)"
		lim=2.5
		[ "$form" = zstd ] && lim=6
		rec_targets="$rec_targets rec_${form}_report_vs_bare=$(ratio "$b" "$r"):>=:$lim"
	done
	# The uncompressed recording with -j 2 (the decoding thread, the
	# default on two CPUs or more for a file of 4 MiB of data or more:
	# ea_input_jobs_for()), -j 1 (one thread) and -j 3 (the look-ahead
	# split off too: three threads): whether the second core pays there.
	for j in 2 1 3; do
		reps rec_plain_report_j$j "$EATRACE" report -j $j -m "$BENCH_MODEL" "$REC"
		echo "rec_plain_wall_s_report_j$j: $(ratio "$(median rec_plain_report_j$j 1)" 1000000)"
		echo "rec_plain_cpu_s_report_j$j: $(median rec_plain_report_j$j 3)"
		echo "rec_plain_ratio_report_j${j}_vs_bare: $(ratio "$(median rec_plain_bare 1)" "$(median rec_plain_report_j$j 1)")"
		echo "rec_plain_ratio_report_j${j}_vs_bare_cpu: $(ratio "$(median rec_plain_bare 3)" "$(median rec_plain_report_j$j 3)")"
	done
	# Each run writes fresh files: the previous run's are removed before
	# it, untimed. Replacing them instead (rec_pictures_overwrite) also
	# times the freeing of the old files' blocks inside rename(): on a
	# file system mounted with `discard` 12-27 ms for the 52 MB JSON
	# (bench/README.md, the eleventh round merged), the old file's cost,
	# not this run's work; printed beside.
	REPS_FRESH="$OUT/rec.html $OUT/rec-perfetto.json" \
		reps rec_pictures "$EATRACE" report -m "$BENCH_MODEL" \
		--html "$OUT/rec.html" --perfetto "$OUT/rec-perfetto.json" "$REC"
	reps rec_pictures_overwrite "$EATRACE" report -m "$BENCH_MODEL" \
		--html "$OUT/rec.html" --perfetto "$OUT/rec-perfetto.json" "$REC"
	rm -f "$OUT/rec.html" "$OUT/rec-perfetto.json"
	echo "rec_wall_s_report_pictures: $(ratio "$(median rec_pictures 1)" 1000000)"
	echo "rec_cpu_s_report_pictures: $(median rec_pictures 3)"
	pw=$(ratio "$(median rec_pictures 1)" "$(median rec_plain_report 1)")
	echo "rec_ratio_pictures_vs_report: $pw"
	echo "rec_ratio_pictures_vs_report_cpu: $(ratio "$(median rec_pictures 3)" "$(median rec_plain_report 3)")"
	echo "rec_ratio_pictures_overwrite_vs_report: $(ratio "$(median rec_pictures_overwrite 1)" "$(median rec_plain_report 1)")"
	rec_targets="$rec_targets rec_pictures_vs_report=$pw:<=:1.5"
	reps rec_replay_all "$EATRACE" replay -q --timing --policy all \
		-m "$BENCH_MODEL" --format json "$REC"
	echo "rec_replay_all_wall_s: $(ratio "$(median rec_replay_all 1)" 1000000)"
	all_rate=n/a
	replay_all_lines rec_replay_all
	rec_targets="$rec_targets rec_replay_all_rss_kb=$(median rec_replay_all 2):<=:65536"
	rec_targets="$rec_targets rec_replay_all_decisions_per_cpu_s=$all_rate:>=:2000000"
fi

# ---- targets (issue 8) -----------------------------------------------------------
check report_vs_bare "$(ratio "$rp" "$bare")" ">=" 0.8
check report_vs_tracecmd_report "$(ratio "$rp" "$tcr")" ">=" 6
check text_lines_per_s "$text" ">=" 3000000
check rss_over_bare_kb "$rss_over" "<=" 32768
check long_rss_over_bare_kb "$long_over" "<=" 32768
# issue 19, uncompressed: one thread (wall and CPU), two (wall)
check report_j1_vs_bare "$(ratio "$rp1" "$bare")" ">=" 1.5
check report_j1_vs_bare_cpu "$(ratio "$(median bare 3)" "$(median report_j1 3)")" ">=" 1.5
check report_j2_vs_bare "$(ratio "$rp2" "$bare")" ">=" 2
for pr in $replay_rates; do
	check "replay_$(echo "${pr%%=*}" | tr - _)_decisions_per_s" "${pr#*=}" ">=" 1000000
done
for pr in $replay_prates; do
	check "replay_$(echo "${pr%%=*}" | tr - _)_policy_decisions_per_s" "${pr#*=}" ">=" 1000000
done
# issue 19: NAME=VALUE:OP:LIMIT
for zt in $ztargets; do
	v=${zt#*=}
	check "${zt%%=*}" "${v%%:*}" "$(echo "$v" | cut -d: -f2)" "${v##*:}"
done
# issue 31, on the `eatrace record` recording: NAME=VALUE:OP:LIMIT
for rt in $rec_targets; do
	v=${rt#*=}
	check "${rt%%=*}" "${v%%:*}" "$(echo "$v" | cut -d: -f2)" "${v##*:}"
done
check batch_j2_vs_j1 "$batch_j2" ">=" 1.8
check batch_j1_vs_lone_reports "$batch_over" "<=" 1.05
check dask_2workers_vs_1 "${dask_ratio:-n/a}" ">=" 1.6
echo "target_dask_same_as_cli: $([ "$dask_same" = yes ] && echo pass || echo "fail ($dask_same)")"
check python_report_call_vs_cli "$py_ratio" "<=" 1.05
echo "target_python_same_as_cli: $([ "$py_same" = yes ] && echo pass || echo "fail ($py_same)")"
rm -f "$OUT"/m.* "$OUT/rss.tmp" "$OUT/err.tmp"
