#!/bin/sh
# dts import reads only the source's directory tree and the -I directories
# (issue 29 item 3): every way cpp and dtc could read a file outside
# (/incbin/ by path, escapes, macros, symlinks; #include by path or through
# a macro; dtc's /include/ made by a macro) is refused with the file and
# line, no byte of the file outside reaching the model or a message; FIFOs
# and devices are refused at once; dtc reading a huge file stops at its
# memory limit. A legitimate /incbin/ and an -I directory outside the tree
# still work. Before the fix /incbin/("/path/secret") put the file's bytes
# into the model, and /dev/zero grew dtc to 2 GB.
. "$(dirname "$0")/lib.sh"
FX=$ROOT/tests/fixtures/import
command -v cpp >/dev/null && command -v dtc >/dev/null || skip "needs cpp and dtc"
mkdir "$TMP/tmpdir" "$TMP/tree" "$TMP/outside" "$TMP/inc2"
export TMPDIR="$TMP/tmpdir"
cd "$TMP/tree" || exit 1
cp "$FX/juno-sched-energy.dts" board.dts
cp "$FX/juno-opp.dtsi" .
SECRET=SECRET-8a1f
printf '%s\0' "$SECRET" >"$TMP/outside/secret"
printf '#error %s\n' "$SECRET" >"$TMP/outside/secret.h"
printf '/ { leaked = "%s"; };\n' "$SECRET" >"$TMP/outside/secret.dtsi"
printf 'deep-sleep\0' >name.bin
ln -s ../outside/secret out-link.bin
mkfifo fifo
base=$(wc -l <board.dts)

# variant NAME LINES...: board.dts with LINES appended (one each) as NAME.dts
variant() {
	name=$1
	shift
	cp board.dts "$name.dts"
	for l in "$@"; do printf '%s\n' "$l" >>"$name.dts"; done
}

# refused NAME MESSAGE [IMPORT-OPTIONS]: exit 2, one line with MESSAGE, no
# output, and nothing of the secret in the message
refused() {
	name=$1 msg=$2
	shift 2
	expect_fail "$name" 2 "$msg" -- timeout 20 "$EATRACE" model import --from dt "$@" "$name.dts" -o "$TMP/$name.json"
	if grep -q "$SECRET" "$TMP/err"; then fail "$name: the secret is in the message"; fi
	[ ! -e "$TMP/$name.json" ] || fail "$name: output written"
}

L=$((base + 1))
variant incbin-rel '&CPU_SLEEP_0 { idle-state-name = /incbin/("../outside/secret"); };'
refused incbin-rel "incbin-rel.dts:$L: /incbin/(\"../outside/secret\"): cannot read ./../outside/secret: outside the source's directory (.)"
variant incbin-abs "&CPU_SLEEP_0 { idle-state-name = /incbin/(\"$TMP/outside/secret\"); };"
refused incbin-abs "incbin-abs.dts:$L: /incbin/(\"$TMP/outside/secret\"): cannot read $TMP/outside/secret: outside"
# dtc decodes escapes in the name: \x2e is '.'
variant incbin-esc '&CPU_SLEEP_0 { idle-state-name = /incbin/("\x2e\x2e/outside/secret"); };'
refused incbin-esc "incbin-esc.dts:$L: /incbin/(\"../outside/secret\"): cannot read"
# a macro makes the /incbin/: the line where it is used
variant incbin-macro '#define BIN(f) /incbin/(f)' '' '&CPU_SLEEP_0 { idle-state-name = BIN("../outside/secret"); };'
refused incbin-macro "incbin-macro.dts:$((base + 3)): /incbin/(\"../outside/secret\"): cannot read"
variant incbin-link '&CPU_SLEEP_0 { idle-state-name = /incbin/("out-link.bin"); };'
refused incbin-link "incbin-link.dts:$L: /incbin/(\"out-link.bin\"): cannot read ./out-link.bin: outside"
variant incbin-fifo '&CPU_SLEEP_0 { idle-state-name = /incbin/("fifo"); };'
refused incbin-fifo "incbin-fifo.dts:$L: /incbin/(\"fifo\"): cannot read ./fifo: not a regular file (a FIFO: reading it could block)"
variant incbin-zero '&CPU_SLEEP_0 { idle-state-name = /incbin/("/dev/zero"); };'
refused incbin-zero "incbin-zero.dts:$L: /incbin/(\"/dev/zero\"): cannot read /dev/zero: not a regular file (a character device"
# a form the check does not read is refused, not guessed at
variant incbin-form '&CPU_SLEEP_0 { idle-state-name = /incbin/ /include/ "x.dtsi"; };'
refused incbin-form "incbin-form.dts:$L: /incbin/ not followed by (\"FILE\"...)"

# #include: by path (before cpp runs), through a macro (cpp's own list of
# the files it read, -H), of a file that makes cpp fail
variant inc-environ '#include </proc/self/environ>'
refused inc-environ "inc-environ.dts:$L: cannot include: /proc/self/environ: outside"
variant inc-macro '#define P </proc/self/environ>' '#include P'
refused inc-macro "inc-macro.dts:$((base + 2)): cannot include: /proc/self/environ: outside"
variant inc-fails '#define P "../outside/secret.h"' '#include P'
refused inc-fails "inc-fails.dts:$((base + 2)): cannot include: ../outside/secret.h: outside"
variant inc-link '#include "out-link.bin"'
refused inc-link "inc-link.dts:$L: cannot include: ./out-link.bin: outside"
# dtc's /include/ written by a macro (cpp leaves it to dtc)
variant dtc-inc '#define INC /include/ "../outside/secret.dtsi"' 'INC'
refused dtc-inc "dtc-inc.dts:$((base + 2)): /include/ \"../outside/secret.dtsi\": cannot read ./../outside/secret.dtsi: outside"

# a huge file in the tree: dtc stops at its memory limit (a sparse 1 GiB
# file: no disk used)
truncate -s 1G big.bin
variant incbin-big '&CPU_SLEEP_0 { idle-state-name = /incbin/("big.bin"); };'
refused incbin-big "(cpp and dtc run with at most 256 MiB of memory)"
rm big.bin

# allowed: a file in the tree (the state's name), an -I directory outside
# the tree (the macros of macro-costs.dts), comments inside /incbin/
variant incbin-ok '&CPU_SLEEP_0 { idle-state-name = /incbin/ /* the name */ ( "name.bin" ); };'
if timeout 20 "$EATRACE" model import --from dt incbin-ok.dts -o "$TMP/ok.json" 2>"$TMP/ok.err"; then
	grep -q '"name": "deep-sleep"' "$TMP/ok.json" && ok "/incbin/ of a file in the tree: its name" ||
		fail "/incbin/ in the tree: no deep-sleep state: $(grep name "$TMP/ok.json" | head -n 5)"
else
	fail "/incbin/ in the tree refused: $(cat "$TMP/ok.err")"
fi
cp -r "$FX/include/." "$TMP/inc2/"
cp "$FX/macro-costs.dts" .
timeout 20 "$EATRACE" model import -I "$TMP/inc2" macro-costs.dts -o "$TMP/m.json" 2>"$TMP/m.err" &&
	ok "-I directory outside the tree" || fail "-I outside the tree: $(cat "$TMP/m.err")"
# but not what the -I directory's files name beyond it
printf '#include "../outside/secret.h"\n' >"$TMP/inc2/leak.h"
variant inc-via-i '#include <leak.h>'
refused inc-via-i "cannot include: $TMP/inc2/../outside/secret.h: outside" -I "$TMP/inc2"

[ -z "$(ls -A "$TMP/tmpdir")" ] && ok "no temporary directory left" ||
	fail "left in TMPDIR: $(ls -A "$TMP/tmpdir")"
finish
