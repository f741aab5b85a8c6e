#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Spooled copies (issue 29 item 2): a gzip'd or zstd'd trace.dat or
# Perfetto file, and standard input, are copied to TMPDIR into a file
# without a name, so that nothing is left there after SIGINT, SIGTERM or
# even SIGKILL at any moment, and a decompressed copy stops at
# --max-inflate times the compressed file's size (at least 32 MiB):
# refused with one line naming the file and the compressed offset, exit 2.
# The bombs are generated here (tests/e2e/bombs.py), never committed.
. "$(dirname "$0")/lib.sh"
command -v zstd >/dev/null || skip "needs zstd"
[ -x /usr/bin/time ] || skip "needs /usr/bin/time (Debian package time)"
B="/usr/bin/python3 $ROOT/tests/e2e/bombs.py"
LIMIT=33554432
SPOOL=$TMP/spool
mkdir "$SPOOL"
export TMPDIR="$SPOOL"

# refused NAME MESSAGE ARGS...: exit 2, one stderr line holding MESSAGE,
# peak under 256 MiB, nothing left in TMPDIR
refused() {
	name=$1 msg=$2
	shift 2
	/usr/bin/time -f %M -o "$TMP/rss" "$EATRACE" stats "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	kb=$(tail -n 1 "$TMP/rss")
	echo "peak: $kb KiB: stats $*"
	# under make sanitize the peak is ASan's (shadow memory, quarantine),
	# not eatrace's: the refusals are checked, the peaks not judged
	[ "${EA_SANITIZE:-0}" = 1 ] && kb=0
	if [ $rc -ne 2 ]; then fail "$name: exit $rc ($(head -c 300 "$TMP/err"))"
	elif [ "$(wc -l <"$TMP/err")" -ne 1 ]; then fail "$name: not one line: $(head -c 300 "$TMP/err")"
	elif ! grep -qF -- "$msg" "$TMP/err"; then fail "$name: '$(cat "$TMP/err")' lacks '$msg'"
	elif [ "$kb" -ge $((256 * 1024)) ]; then fail "$name: peak $kb KiB"
	elif [ -n "$(ls -A "$SPOOL")" ]; then fail "$name: left in TMPDIR: $(ls -A "$SPOOL")"
	else ok "$name"; fi
}

# offset_ok: the offset named in $TMP/err is inside the compressed file $1
offset_ok() {
	off=$(sed -n 's/.*:offset \([0-9]*\): .*/\1/p' "$TMP/err")
	size=$(wc -c <"$1")
	if [ -n "$off" ] && [ "$off" -gt 0 ] && [ "$off" -le "$size" ]; then ok "$2: offset $off of $size"
	else fail "$2: offset '$off' not in the file's $size bytes"; fi
}

# A gzip'd Perfetto file, one packet of 512 MiB of padding (510 KB; before
# issue 29: 1 GB in TMPDIR and 1.05 GB peak for 1 GiB): the copy stops past
# 32 MiB.
$B gzpad "$TMP/pad.pb.gz" 512
refused "gzip'd Perfetto of 512 MiB" "pad.pb.gz:offset " "$TMP/pad.pb.gz"
grep -qF "gzip expands past $LIMIT bytes, the limit for a file of $(wc -c <"$TMP/pad.pb.gz") bytes" "$TMP/err" &&
	ok "gzip: the limit and the file's size named" || fail "gzip: $(cat "$TMP/err")"
offset_ok "$TMP/pad.pb.gz" gzip

# A zstd'd trace.dat: its magic and 512 MiB of zeros (17 KB), from a file
# and from standard input.
$B datz "$TMP/bomb.dat.zst" 512
refused "zstd'd trace.dat of 512 MiB" "bomb.dat.zst:offset " "$TMP/bomb.dat.zst"
grep -qF "zstd expands past $LIMIT bytes" "$TMP/err" && ok "zstd: the limit named" || fail "zstd: $(cat "$TMP/err")"
offset_ok "$TMP/bomb.dat.zst" zstd
refused "the same on stdin" "<stdin>:offset " - <"$TMP/bomb.dat.zst"

# --max-inflate raises it: a 48 MiB copy of a 17 KB file passes at 100000
# (then the trace.dat reader refuses the zeros, for another reason).
$B datz "$TMP/48.dat.zst" 48
"$EATRACE" stats "$TMP/48.dat.zst" >"$TMP/out" 2>"$TMP/err"
grep -q "expands past" "$TMP/err" && ok "48 MiB refused by default" || fail "48 MiB: $(cat "$TMP/err")"
"$EATRACE" stats --max-inflate 100000 "$TMP/48.dat.zst" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 2 ] && ! grep -q "expands past" "$TMP/err" && grep -q "48.dat.zst" "$TMP/err"; then
	ok "48 MiB read at --max-inflate 100000 ($(cat "$TMP/err"))"
else fail "--max-inflate 100000: exit $rc, $(cat "$TMP/err")"; fi
[ -z "$(ls -A "$SPOOL")" ] && ok "nothing left after a refusal past the copy" || fail "left: $(ls -A "$SPOOL")"

# Signals while spooling: standard input that stops coming after a
# compressed trace.dat's first bytes keeps eatrace copying it; TMPDIR stays
# empty while the copy is written (the process holds it without a name,
# seen in /proc/PID/fd) and after SIGINT, SIGTERM, SIGKILL. The
# decompressed copy is made by the same code (spool.c's tmp_open()).
mkfifo "$TMP/fifo"
for sig in INT TERM KILL; do
	sh -c 'head -c 4096 "$1"; exec sleep 60' sh "$TMP/bomb.dat.zst" >"$TMP/fifo" &
	feed=$!
	# (a background job ignores SIGINT: restored as Ctrl-C finds it)
	/usr/bin/python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$EATRACE" stats - <"$TMP/fifo" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	seen=no
	i=0
	while [ $i -lt 200 ]; do
		if ls -l /proc/$pid/fd 2>/dev/null | grep -F "$SPOOL/" | grep -qF "(deleted)"; then
			seen=yes
			break
		fi
		sleep 0.05
		i=$((i + 1))
	done
	listed=$(ls -A "$SPOOL")
	kill -s $sig $pid
	wait $pid
	rc=$?
	kill $feed 2>/dev/null
	wait $feed 2>/dev/null
	if [ $seen = no ]; then fail "SIG$sig: the copy never seen open (exit $rc, $(head -c 200 "$TMP/err"))"
	elif [ -n "$listed" ]; then fail "SIG$sig: TMPDIR lists '$listed' while the copy is written"
	elif [ -n "$(ls -A "$SPOOL")" ]; then fail "SIG$sig: left in TMPDIR: $(ls -A "$SPOOL")"
	elif [ $rc -lt 128 ]; then fail "SIG$sig: exit $rc: not stopped by it"
	else ok "SIG$sig while spooling: exit $rc, nothing in TMPDIR, during or after"; fi
done

# Spooled copies still read as the plain file: a zstd'd Perfetto trace,
# and the same on standard input.
C=$ROOT/tests/fuzz/corpus/perfetto
zstd -q -c "$C/events-small.pb" >"$TMP/ev.pb.zst"
# (the first line names the file: compared from the colon after it)
unpath() { sed '1s|^[^ ]*: |FILE: |' "$1" >"$1.u"; mv "$1.u" "$1"; }
"$EATRACE" stats "$C/events-small.pb" >"$TMP/a" 2>&1
ra=$?
"$EATRACE" stats "$TMP/ev.pb.zst" >"$TMP/b" 2>&1
rb=$?
"$EATRACE" stats - <"$TMP/ev.pb.zst" >"$TMP/c" 2>&1
rc=$?
unpath "$TMP/a"
unpath "$TMP/b"
unpath "$TMP/c"
if [ $ra -eq 0 ] && [ $rb -eq 0 ] && [ $rc -eq 0 ] && cmp -s "$TMP/a" "$TMP/b" && cmp -s "$TMP/a" "$TMP/c"; then
	ok "zstd'd Perfetto, file and stdin: the plain file's report"
else fail "zstd'd Perfetto: exit $ra/$rb/$rc: $(diff "$TMP/a" "$TMP/b" | head -5)"; fi
[ -z "$(ls -A "$SPOOL")" ] && ok "nothing left after reading" || fail "left: $(ls -A "$SPOOL")"

[ $nfail -eq 0 ]
