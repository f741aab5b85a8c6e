#!/bin/sh
# Record the `eatrace diff` test workloads on this machine with eatrace's own
# recorder (as root). Usage: traces/diff/record.sh [EATRACE]
#   light-N.dat  a light periodic load: 40 wakeups of 10 ms sleeps
#   heavy-N.dat  the same, plus a busy shell loop running alongside
# Three runs of heavy, six of light (light-1..3 and light-4..6 are two sets
# of the same workload); every file is small (well under 1 MiB).
set -e
E=${1:-$(dirname "$0")/../../eatrace}
cd "$(dirname "$0")"
light='i=0; while [ $i -lt 40 ]; do sleep 0.01; i=$((i+1)); done'
busy='i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done'
for n in 1 2 3; do
	"$E" record -q -b 1024 -o light-$n.dat -- sh -c "$light"
	"$E" record -q -b 1024 -o heavy-$n.dat -- sh -c "($busy) & $light; wait"
	"$E" record -q -b 1024 -o light-$((n + 3)).dat -- sh -c "$light"
done
rm -f ./*.dat.json ./*.dat.json.tmp*	# the sidecars repeat the in-trace markers
ls -l ./*.dat
