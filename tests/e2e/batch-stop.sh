#!/bin/sh
# batch stopped by SIGTERM or SIGINT (issue 29 item 6): the rows finished
# so far are committed to -o (no .eatrace-PID-XXXXXX left beside it), exit
# 128 + the signal, and --resume goes on from them to the table a run
# without interruption writes; --resume removes a temporary left by a
# process that no longer exists (and keeps a live one's). Before the fix
# the temporary stayed and the finished rows were lost. Also item 7:
# --resume refuses a table of the other -f (it replaced an 11-row CSV by
# one JSON line), or a file that is no table, leaving it as it was.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

# 12 distinct traces (their hashes differ: --resume keys by content) priced
# with 16 copies of tc2 each: a trace's rows take a fifth of a second, the
# batch seconds, so a signal lands mid-run
mkdir tr models
i=1
while [ $i -le 12 ]; do
	{ echo "# copy $i"; cat "$ROOT/traces/demo/tc2-seven-tasks.txt"; } >"tr/t$(printf %02d $i).txt"
	i=$((i + 1))
done
set --
i=1
while [ $i -le 16 ]; do
	cp "$ROOT/models/tc2.json" "models/m$i.json"
	set -- "$@" -m "models/m$i.json"
	i=$((i + 1))
done
"$EATRACE" batch -q -j 1 "$@" -o full.csv tr
expect_eq "uninterrupted batch: exit 0" "$?" 0
expect_eq "uninterrupted batch: 192 rows and a header" "$(wc -l <full.csv | tr -d ' ')" 193

hdr=$(head -n 1 full.csv | wc -c)
# run_stopped SIG MODEL-OPTIONS: a batch into o/t.csv, SIG once its
# temporary holds more than the header; sets st to its exit status
run_stopped() {
	sig=$1
	shift
	rm -rf o && mkdir o
	if [ "$sig" = TERM ]; then
		"$EATRACE" batch -q -j 1 "$@" -o o/t.csv tr 2>stop.err &
	else
		# a background job of sh ignores SIGINT: start it with the default
		/usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$EATRACE" batch -q -j 1 "$@" -o o/t.csv tr 2>stop.err &
	fi
	pid=$!
	n=0 found=
	while [ $n -lt 600 ] && [ -z "$found" ]; do
		for t in o/.eatrace-*; do
			[ -f "$t" ] && [ "$(wc -c <"$t")" -gt "$hdr" ] && found=1
		done
		[ -n "$found" ] || sleep 0.05
		n=$((n + 1))
	done
	kill -"$sig" $pid
	wait $pid
	st=$?
}

for sig in TERM INT; do
	case $sig in TERM) code=143 ;; INT) code=130 ;; esac
	# shellcheck disable=SC2086
	run_stopped $sig "$@"
	expect_eq "SIG$sig: exit $code" "$st" $code
	grep -q "stopped by SIG$sig: the rows of [0-9]* of 12 traces priced are in o/t.csv" stop.err &&
		ok "SIG$sig: says where the rows are" || fail "SIG$sig: message: $(cat stop.err)"
	expect_eq "SIG$sig: no temporary left beside -o" "$(ls -A o)" "t.csv"
	rows=$(($(wc -l <o/t.csv) - 1))
	[ $rows -gt 0 ] && [ $rows -lt 192 ] && [ $((rows % 16)) -eq 0 ] &&
		ok "SIG$sig: $rows rows kept, whole traces" || fail "SIG$sig: $rows rows kept"
	expect_eq "SIG$sig: no error row (no 'worker died')" "$(tail -n +2 o/t.csv | grep -vc ',$')" 0
	head -n 1 o/t.csv | cmp -s - "$(head -n 1 full.csv >hdr && echo hdr)" &&
		ok "SIG$sig: the header" || fail "SIG$sig: header $(head -n 1 o/t.csv)"
	# every row kept is the uninterrupted run's
	tail -n +2 o/t.csv | sort >kept
	sort full.csv | comm -23 kept - >extra
	expect_eq "SIG$sig: rows kept are the full run's" "$(wc -l <extra | tr -d ' ')" 0
	"$EATRACE" batch -q -j 2 "$@" -o o/t.csv --resume tr
	expect_eq "SIG$sig: --resume exit 0" "$?" 0
	sort o/t.csv >a
	sort full.csv >b
	cmp -s a b && ok "SIG$sig: --resume completes the table" ||
		fail "SIG$sig: resumed table differs: $(diff a b | head -n 4)"
done

# --resume removes a stale temporary: its process is gone; keeps a live one's
sh -c 'exit 0' &
dead=$!
wait $dead
printf 'partial\n' >"o/.eatrace-$dead-aB3xY9"
printf 'live\n' >"o/.eatrace-$$-Qz8Kp1"
"$EATRACE" batch -j 1 "$@" -o o/t.csv --resume tr 2>res.err
expect_eq "stale: --resume exit 0" "$?" 0
[ ! -e "o/.eatrace-$dead-aB3xY9" ] && ok "stale: the dead process's temporary removed" ||
	fail "stale: temporary of process $dead left"
grep -qF "removed o/.eatrace-$dead-aB3xY9, left by process $dead (gone)" res.err &&
	ok "stale: named on stderr" || fail "stale: message: $(cat res.err)"
[ -e "o/.eatrace-$$-Qz8Kp1" ] && ok "stale: a live process's temporary kept" ||
	fail "stale: live temporary removed"
rm -f "o/.eatrace-$$-Qz8Kp1"

# --- item 7: the table's format must be this -f's ---
"$EATRACE" batch -q -m tc2 -o t.csv tr/t01.txt tr/t02.txt
cp t.csv t0.csv
expect_fail "resume: CSV table as -f jsonl refused" 2 \
	"t.csv:1: a CSV table; cannot resume it with -f jsonl (give -f csv)" -- \
	"$EATRACE" batch -q -f jsonl -m tc2 -o t.csv --resume tr/t03.txt
cmp -s t.csv t0.csv && ok "resume: refused CSV table untouched" || fail "resume: CSV table changed"
"$EATRACE" batch -q -f jsonl -m tc2 -o t.jsonl tr/t01.txt
cp t.jsonl t0.jsonl
expect_fail "resume: JSON-lines table as -f csv refused" 2 \
	"t.jsonl:1: a JSON-lines table; cannot resume it with -f csv (give -f jsonl)" -- \
	"$EATRACE" batch -q -m tc2 -o t.jsonl --resume tr/t03.txt
cmp -s t.jsonl t0.jsonl && ok "resume: refused JSON-lines table untouched" ||
	fail "resume: JSON-lines table changed"
printf 'notes, not a table\n' >notes.txt
cp notes.txt notes0.txt
expect_fail "resume: a file that is no table refused" 2 \
	"notes.txt:1: not a batch table (no CSV header); cannot resume it" -- \
	"$EATRACE" batch -q -m tc2 -o notes.txt --resume tr/t03.txt
expect_fail "resume: a file that is no JSON-lines table refused" 2 \
	"notes.txt:1: not a batch table (not a JSON object); cannot resume it" -- \
	"$EATRACE" batch -q -f jsonl -m tc2 -o notes.txt --resume tr/t03.txt
cmp -s notes.txt notes0.txt && ok "resume: the file untouched" || fail "resume: file changed"
: >empty.csv
"$EATRACE" batch -q -m tc2 -o empty.csv --resume tr/t01.txt
expect_eq "resume: an empty file is an empty table" "$?:$(wc -l <empty.csv | tr -d ' ')" "0:2"
[ -z "$(ls -A . | grep '^\.eatrace-')" ] && ok "no temporary left" || fail "temporaries left"
finish
