#!/bin/sh
# Record the CFS validation workloads (traces/cfs/README.md) on this machine
# with eatrace's own recorder, as root:
#
#   traces/cfs/record.sh [NAME...]     (default: every workload)
#
# NAME: periodic mixed fork make pingpong cpubound. Each is recorded with
# `eatrace record` into a scratch directory, then rewritten zstd-compressed
# (`trace-cmd convert`, trace.dat v7) as traces/cfs/NAME.dat; the sidecars
# are not kept (the trace's `eatrace:` markers hold the same machine facts).
# Recordings differ at every run, and take in whatever else the machine runs:
# with WAIT_QUIET=S each recording first waits (up to S seconds) until the
# CPUs were at least 90% idle over two consecutive seconds (/proc/stat), so
# that other users' load stays out of it where it can; the idle share seen
# just before each recording is printed.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
E=${EATRACE:-$root/eatrace}
[ -x "$E" ] || { echo "record.sh: $E not built (make -j2)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cc -O2 -o "$tmp/cfsload" "$here/cfsload.c"
cc -O2 -o "$tmp/pingpong" "$root/bench/pingpong.c"

# A small C tree for `make -j4`: 16 files of a few loops each (cc1 takes
# some 20-60 ms per file), linked into one program.
mkdir "$tmp/tree"
i=0
while [ $i -lt 16 ]; do
	{
		echo "int f$i(int n);"
		echo "int f$i(int n) { int s = 0;"
		j=0
		while [ $j -lt 12 ]; do
			echo "  for (int k = 0; k < n; k++) s += (k ^ $j) * $i + (s >> 3);"
			j=$((j + 1))
		done
		echo "  return s; }"
	} >"$tmp/tree/f$i.c"
	i=$((i + 1))
done
{
	echo 'int main(void) { return 0; }'
} >"$tmp/tree/main.c"
cat >"$tmp/tree/Makefile" <<'EOF'
OBJS = $(patsubst %.c,%.o,$(wildcard *.c))
prog: $(OBJS)
	cc -o $@ $(OBJS)
%.o: %.c
	cc -O2 -c $<
clean:
	rm -f prog *.o
EOF
make -s -C "$tmp/tree" -j4 >/dev/null	# warm the page cache: cc, cc1, as, ld
make -s -C "$tmp/tree" clean

# idle share of all CPUs over the next second, in percent
idle_pct() {
	set -- $(head -1 /proc/stat)
	t0=$(($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9)) i0=$(($5 + $6))
	sleep 1
	set -- $(head -1 /proc/stat)
	t1=$(($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9)) i1=$(($5 + $6))
	echo $(((i1 - i0) * 100 / (t1 - t0 + (t1 == t0))))
}

wait_quiet() {
	[ "${WAIT_QUIET:-0}" -gt 0 ] || return 0
	waited=0 ok=0
	while [ $waited -lt "$WAIT_QUIET" ]; do
		p=$(idle_pct)
		waited=$((waited + 1))
		if [ "$p" -ge 90 ]; then
			ok=$((ok + 1))
			[ $ok -ge 2 ] && break
		else
			ok=0
		fi
	done
	echo "record.sh: $1: CPUs ${p}% idle in the last second (waited ${waited} s)" >&2
}

rec() {
	name=$1
	shift
	wait_quiet "$name"
	"$E" record -q -o "$tmp/$name.dat" -- "$@"
	trace-cmd convert --file-version 7 --compression zstd \
		-i "$tmp/$name.dat" -o "$tmp/$name-z.dat" >/dev/null
	mv "$tmp/$name-z.dat" "$here/$name.dat"
	ls -l "$here/$name.dat"
}

one() {
	case $1 in
	periodic)	# six periodic tasks, 85% of one CPU in all
		rec periodic "$tmp/cfsload" 1500 p:4000:600 p:8000:1500 \
			p:10000:1000 p:16000:3000 p:20000:2000 p:33000:4000 ;;
	mixed)		# three periodic, one CPU-bound, two sleepy
		rec mixed "$tmp/cfsload" 1500 p:5000:1000 p:10000:2500 \
			p:16000:2000 b s:500:5000:100 s:200:2000:50 ;;
	fork)		# two short-lived children forked every 3 ms
		rec fork "$tmp/cfsload" 1000 f:3000:400:2 ;;
	make)		# a parallel build of 17 small C files
		rec make make -s -C "$tmp/tree" -j4 ;;
	pingpong)	# one pair bouncing a byte over two pipes
		rec pingpong "$tmp/pingpong" 1 3000 ;;
	cpubound)	# three CPU-bound tasks on the two CPUs
		rec cpubound "$tmp/cfsload" 1000 b b b ;;
	*)
		echo "record.sh: unknown workload '$1'" >&2
		exit 2 ;;
	esac
}

[ $# -gt 0 ] || set -- periodic mixed fork make pingpong cpubound
for w in "$@"; do
	one "$w"
done
