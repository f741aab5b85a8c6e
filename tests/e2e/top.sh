#!/bin/sh
# run.sh: exclusive
# eatrace top in its piped mode (needs root and tracefs; CI runs as root):
# blocks per interval, per-CPU lines that add up to the clusters, the model
# CPU-count check, SIGINT; no instance of ours left, top-level untouched.
. "$(dirname "$0")/lib.sh"

T=/sys/kernel/tracing
grep -qw tracefs /proc/filesystems || { echo "SKIP: this kernel has no tracefs"; exit 0; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: eatrace top needs root (CI runs as root)"; exit 0; }
[ -d "$T/instances" ] || mount -t tracefs nodev "$T" 2>/dev/null
[ -d "$T/instances" ] || { echo "SKIP: tracefs cannot be mounted on $T"; exit 0; }

top_state() { cat "$T/tracing_on" "$T/set_event" "$T/current_tracer" 2>&1; }
top_state >"$TMP/top-before"
no_leftovers() {
	if [ -e "$T/instances/eatrace-top-$pid" ]; then
		fail "$1: instance eatrace-top-$pid left behind"
		rmdir "$T/instances/eatrace-top-$pid" 2>/dev/null
	else
		ok "$1: instance removed"
	fi
	top_state >"$TMP/top-after"
	if cmp -s "$TMP/top-before" "$TMP/top-after"; then ok "$1: top-level tracing unchanged"
	else fail "$1: top-level tracing changed: $(diff "$TMP/top-before" "$TMP/top-after" | tr "\n" " ")"; fi
}

# The made-up 2-CPU test model; on a machine with another CPU count, the
# same numbers for its CPUs.
MODEL=$ROOT/tests/fixtures/record/vm-2cpu.json
max=$(sed 's/.*[-,]//' /sys/devices/system/cpu/possible)
ncpus=$((max + 1))
if [ "$ncpus" -ne 2 ]; then
	cpus=$(seq -s, 0 "$max")
	sed "s/\"cpus\": \[0, 1\]/\"cpus\": [$cpus]/" "$MODEL" >"$TMP/model.json"
	MODEL=$TMP/model.json
fi

# 1. three intervals through a pipe
sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$TMP/pid" \
	"$EATRACE" top -m "$MODEL" --interval 0.2 --count 3 2>"$TMP/err" | cat >"$TMP/out"
pid=$(cat "$TMP/pid")
expect_eq "top: nothing on stderr" "$(cat "$TMP/err")" ""
expect_eq "top: 3 blocks" "$(grep -c '^eatrace top ' "$TMP/out")" 3
expect_eq "top: a line per CPU per block" "$(grep -c '^cpu ' "$TMP/out")" $((3 * ncpus))
expect_eq "top: a cluster line per block" "$(grep -c '^cluster ' "$TMP/out")" 3
grep -q "$(printf '\033')" "$TMP/out" && fail "top: terminal escapes in piped output" || ok "top: no escapes when piped"
# each block: the CPUs' power adds up to the cluster's and to the total
# (every CPU carries its share of the cluster), within rounding; busy% in range
awk '
	/^eatrace top / { if (n) check(); n++; tot = $(NF - 1); cl = 0; sum = 0; next }
	/^cluster / { cl = $4; next }
	/^cpu / { sum += $5; b = $8; sub("%", "", b); b += 0; if (b < 0 || b > 100) bad = bad " busy " b; next }
	function check() {
		if (sum - cl > 0.01 || cl - sum > 0.01 || tot - cl > 0.01 || cl - tot > 0.01)
			bad = bad sprintf(" block %d: cpus %.3f cluster %.3f total %.3f", n, sum, cl, tot)
	}
	END { check(); if (bad != "") { print bad; exit 1 } }' "$TMP/out" >"$TMP/sums"
expect_eq "top: CPU powers add up to the cluster and the total" "$?$(cat "$TMP/sums")" 0
# bounds from the model: every CPU busy at the top OPP, plus room for
# wakeup energy (0.03 mW s each: 10% is over 4000 wakeups/s)
awk -v n="$ncpus" '/^eatrace top / { t = $(NF - 1); if (t < 0 || t > (n * 600 + 200) * 1.1) bad = 1 }
	END { exit bad }' "$TMP/out" && ok "top: total within the model's range" ||
	fail "top: total out of range: $(grep '^eatrace top' "$TMP/out" | head -n 1)"
no_leftovers "top --count 3"

# 2. SIGINT stops it promptly and cleans up
"$EATRACE" top -m "$MODEL" --interval 0.2 >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
i=0	# wait for the first block (slow under sanitizers)
while [ $i -lt 150 ] && ! grep -qs '^eatrace top ' "$TMP/int.out"; do sleep 0.1; i=$((i + 1)); done
[ -d "$T/instances/eatrace-top-$pid" ] && ok "instance exists while running" ||
	fail "no instance eatrace-top-$pid while running"
kill -INT $pid
wait $pid
expect_eq "SIGINT: exit 0" "$?" 0
[ "$(grep -c '^eatrace top ' "$TMP/int.out")" -ge 1 ] && ok "SIGINT: blocks printed before" ||
	fail "SIGINT: no block printed in 15 s"
no_leftovers "SIGINT"

# 3. the reader going away (EPIPE) ends it cleanly
sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$TMP/pid" \
	"$EATRACE" top -m "$MODEL" --interval 0.1 2>"$TMP/err" | head -n 1 >/dev/null
pid=$(cat "$TMP/pid")
sleep 0.5
kill -0 "$pid" 2>/dev/null && { fail "EPIPE: still running"; kill "$pid"; sleep 0.5; } || ok "EPIPE: stopped"
no_leftovers "EPIPE"

# 4. errors
if [ "$ncpus" -gt 1 ]; then
	sed 's/"cpus": \[[0-9, ]*\]/"cpus": [0]/' "$MODEL" >"$TMP/one.json"
	expect_fail "model with too few CPUs" 2 "this machine has $ncpus (CPU 1 is missing)" -- \
		"$EATRACE" top -m "$TMP/one.json" --count 1
fi
expect_fail "no model" 2 "no model" -- "$EATRACE" top --count 1
expect_fail "bad interval" 2 "--interval: '0'" -- "$EATRACE" top -m "$MODEL" --interval 0
if command -v setpriv >/dev/null; then
	bin=$(mktemp -d /tmp/eatrace-nr.XXXXXX)
	chmod 755 "$bin"
	cp "$EATRACE" "$MODEL" "$bin/"
	chmod 755 "$bin/eatrace"
	chmod 644 "$bin/$(basename "$MODEL")"
	expect_fail "not root" 2 "needs root" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$bin/eatrace" top -m "$bin/$(basename "$MODEL")" --count 1
	rm -rf "$bin"
fi
finish
