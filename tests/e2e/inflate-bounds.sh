#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Perfetto decompression bombs (issue 29 item 1, --max-inflate): what a
# file's compressed_packets inflate to, the index of the bundles in them
# and their decoded events are bounded relative to the file's size on disk
# (32 times, at least 32 MiB; events 4 times that), an inflated packet that
# holds no bundle is freed at once, and a file past the bound is refused
# with one line naming it and the position, exit 2, in well under 256 MiB.
# The bombs are generated here (tests/e2e/bombs.py), never committed.
. "$(dirname "$0")/lib.sh"
command -v zstd >/dev/null || skip "needs zstd"
[ -x /usr/bin/time ] || skip "needs /usr/bin/time (Debian package time)"
B="/usr/bin/python3 $ROOT/tests/e2e/bombs.py"
MIB=1048576
LIMIT=33554432	# EA_INFLATE_FLOOR: 32 MiB, above 32 x any file here

# peak NAME ARGS...: run eatrace stats ARGS (stdout, stderr to $TMP/out,
# $TMP/err); $rc its exit status, $kb its peak resident size in KiB
peak() {
	/usr/bin/time -f %M -o "$TMP/rss" "$EATRACE" stats "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	kb=$(tail -n 1 "$TMP/rss")
	echo "peak: $kb KiB: stats $*"
	# under make sanitize the peak is ASan's (shadow memory, quarantine),
	# not eatrace's: the refusals are checked, the peaks not judged
	[ "${EA_SANITIZE:-0}" = 1 ] && kb=0
}

# refused NAME MESSAGE MAX_KIB ARGS...: exit 2, one stderr line holding
# MESSAGE, peak below MAX_KIB
refused() {
	name=$1 msg=$2 max=$3
	shift 3
	peak "$@"
	if [ $rc -ne 2 ]; then fail "$name: exit $rc ($(head -c 300 "$TMP/err"))"
	elif [ "$(wc -l <"$TMP/err")" -ne 1 ]; then fail "$name: not one line: $(head -c 300 "$TMP/err")"
	elif ! grep -qF -- "$msg" "$TMP/err"; then fail "$name: '$(cat "$TMP/err")' lacks '$msg'"
	elif [ "$kb" -ge "$max" ]; then fail "$name: peak $kb KiB, not under $max"
	else ok "$name"; fi
}

# One zstd_compressed_packets of 512 MiB of zeros (17 KB): stopped when
# the 32 MiB limit is passed (before issue 29 it was inflated whole: 1.06 GB
# peak for 1 GiB). The position named is where the packet's zstd frame
# starts, found here by its magic 28 b5 2f fd.
$B zpkt "$TMP/one.pb" 512 1
at=$(od -An -tx1 -v "$TMP/one.pb" | tr -d ' \n' | grep -bo 28b52ffd | head -n 1 | cut -d: -f1)
at=$((at / 2))
refused "one 512 MiB zstd packet" "one.pb:offset $at: zstd_compressed_packets expands past $LIMIT bytes" \
	$((256 * 1024)) "$TMP/one.pb"
grep -qF -- "--max-inflate 32" "$TMP/err" && ok "the refusal names --max-inflate" ||
	fail "no --max-inflate in '$(cat "$TMP/err")'"

# Four of them: the first is refused (base: 4.2 GB).
$B zpkt "$TMP/four.pb" 512 4
refused "four 512 MiB zstd packets" "four.pb:offset $at: zstd_compressed_packets expands past" \
	$((256 * 1024)) "$TMP/four.pb"

# The bound is on the sum: eight packets of 6 MiB each (valid: one packet
# of padding, no bundle) pass the 32 MiB at the sixth (5 x 6 MiB + their
# headers < 32 MiB <= 6 x 6 MiB), whose frame bombs.py says is at offset:
$B zpad "$TMP/pad.pb" 6 8 >"$TMP/pad.at"
at6=$(sed -n 6p "$TMP/pad.at")
refused "eight 6 MiB packets: the sixth passes the sum" "pad.pb:offset $at6: zstd_compressed_packets expands past $LIMIT" \
	$((256 * 1024)) "$TMP/pad.pb"
# With the limit raised they are read, each freed once walked (it holds
# no bundle): the peak stays far below the 48 MiB all eight make.
peak --max-inflate 100000 "$TMP/pad.pb"
if grep -q "expands past" "$TMP/err"; then fail "--max-inflate 100000: still refused"
elif [ "$kb" -ge $((40 * 1024)) ]; then fail "--max-inflate 100000: peak $kb KiB: inflated packets kept"
else ok "--max-inflate 100000: read, inflated packets freed ($kb KiB)"; fi

# The index counts: 8 MiB of 6-byte packets each an empty bundle is 1398101
# bundles, 64 bytes of index each (89 MB) with the 8 MiB: past 32 MiB.
$B zbundles "$TMP/bundles.pb" 8
refused "8 MiB of tiny bundles" "bundles.pb:compressed_packets 1 offset " $((256 * 1024)) "$TMP/bundles.pb"
grep -qF "the index of the ftrace bundles expands past $LIMIT bytes" "$TMP/err" &&
	ok "tiny bundles: the index is what passes" || fail "tiny bundles: $(cat "$TMP/err")"

# Decoded events count: one bundle of 30 MiB of 6-byte switch events is
# 5242880 events of 88 bytes (461 MB; 533 MB peak measured without the
# bound) past 4 x 32 MiB.
$B zevents "$TMP/events.pb" 30
refused "one bundle of 5 million events" "events.pb:cpu 0 packet 2: ftrace bundles decode to more than $((4 * LIMIT)) bytes" \
	$((256 * 1024)) "$TMP/events.pb"

# Ordinary compressed traces are far inside the bound even at
# --max-inflate 1 (the 32 MiB floor): the same report.
C=$ROOT/tests/fuzz/corpus/perfetto
for f in zstd.pb deflate.pb; do
	"$EATRACE" stats "$C/$f" >"$TMP/a" 2>&1
	ra=$?
	"$EATRACE" stats --max-inflate 1 "$C/$f" >"$TMP/b" 2>&1
	rb=$?
	if [ $ra -eq 0 ] && [ $rb -eq 0 ] && cmp -s "$TMP/a" "$TMP/b"; then ok "$f: read the same at --max-inflate 1"
	else fail "$f: exit $ra / $rb, $(head -c 200 "$TMP/b")"; fi
done

expect_fail "--max-inflate 0" 2 "--max-inflate: '0' is not a ratio" -- "$EATRACE" stats --max-inflate 0 "$C/zstd.pb"
expect_fail "--max-inflate x" 2 "--max-inflate: 'x' is not a ratio" -- "$EATRACE" report --max-inflate x "$C/zstd.pb"

[ $nfail -eq 0 ]
