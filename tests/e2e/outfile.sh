#!/bin/sh
# The output layer (src/output/outfile.c): one set of rules for every file
# eatrace writes. Regular files are replaced atomically keeping their mode
# (new ones by the umask), a symlink's target is replaced, anything else (a
# device node, a FIFO, /dev/fd/N) is written in place and stays what it
# was, an input of the run is never overwritten, long names work, and a run
# that fails replaces nothing. Every output here is under $TMP: the device
# node is a scratch copy of /dev/null's numbers made with mknod.
# Inputs that could block (FIFO, device, tracefs pseudo-file) are refused.
. "$(dirname "$0")/lib.sh"

DEMO=$ROOT/traces/demo/tc2-seven-tasks.txt
cd "$TMP" || exit 1

# mode_of FILE: its permission bits in octal; kind_of FILE: its file type.
mode_of() { stat -c %a "$1"; }
kind_of() { stat -c %F "$1"; }
no_temps() { expect_eq "$1: no temporary left" "$(ls -A "$TMP" | grep -c '^\.eatrace')" 0; }

# 1. a new file gets 0666 less the umask
(umask 027 && "$EATRACE" stats -f json -o new.json "$DEMO")
expect_eq "new file, umask 027: mode 640" "$(mode_of new.json)" 640
(umask 002 && "$EATRACE" stats -f json -o new2.json "$DEMO")
expect_eq "new file, umask 002: mode 664" "$(mode_of new2.json)" 664

# 2. an existing file keeps its mode, whatever the umask
echo old >keep.json
chmod 600 keep.json
(umask 022 && "$EATRACE" stats -f json -o keep.json "$DEMO")
expect_eq "existing 600 stays 600" "$(mode_of keep.json)" 600
expect_eq "existing file replaced" "$(head -c 1 keep.json)" "{"
chmod 755 keep.json
"$EATRACE" report -m tc2 -o keep.json "$DEMO"
expect_eq "existing 755 stays 755" "$(mode_of keep.json)" 755

# 3. a symlink is followed: the link stays, its target is replaced
mkdir sub
echo old >sub/target.json
chmod 640 sub/target.json
ln -s sub/target.json link.json
"$EATRACE" stats -f json -o link.json "$DEMO"
expect_eq "symlink: still a symlink" "$(kind_of link.json)" "symbolic link"
expect_eq "symlink: target replaced" "$(head -c 1 sub/target.json)" "{"
expect_eq "symlink: target keeps mode 640" "$(mode_of sub/target.json)" 640
ln -s sub/later.json dangling.json
"$EATRACE" stats -f json -o dangling.json "$DEMO"
expect_eq "dangling symlink: link kept" "$(kind_of dangling.json)" "symbolic link"
expect_eq "dangling symlink: target created" "$(head -c 1 sub/later.json)" "{"
expect_eq "symlink: no temporary left in sub/" "$(ls -A sub | grep -c '^\.eatrace')" 0

# 4. a device node is written in place, never replaced (root: mknod)
# (1, 3: the null device's numbers, fixed by the kernel's devices.txt)
if [ "$(id -u)" -eq 0 ] && mknod "$TMP/null" c 1 3 2>/dev/null; then
	chmod 666 null
	"$EATRACE" report -m tc2 -o null --html null --perfetto null "$DEMO"
	expect_eq "device node: exit 0" "$?" 0
	expect_eq "device node: still a character device" "$(kind_of null)" "character special file"
	"$EATRACE" replay -m tc2 --policy eas-rfc "$DEMO" -o null --emit-trace null
	expect_eq "device node, replay --emit-trace: still a device" "$(kind_of null)" "character special file"
	"$EATRACE" model show tc2 -o null
	expect_eq "device node, model show: still a device" "$(kind_of null)" "character special file"
	no_temps "device node"
	# and is refused as an input: reading a device could block
	expect_fail "device node as a trace" 2 "null: not a regular file (a character device" -- \
		timeout 20 "$EATRACE" stats null
else
	echo "note: not root or mknod refused: device node cases not run"
fi

# 5. a FIFO is written in place, for its reader
mkfifo fifo
cat fifo >fifo.got &
reader=$!
timeout 20 "$EATRACE" stats -f json -o fifo "$DEMO"
expect_eq "FIFO: exit 0" "$?" 0
wait $reader
expect_eq "FIFO: reader got the JSON" "$(head -c 1 fifo.got)" "{"
expect_eq "FIFO: still a FIFO" "$(kind_of fifo)" "fifo"
"$EATRACE" stats -f json "$DEMO" >stdout.json
cmp -s fifo.got stdout.json && ok "FIFO: same bytes as stdout" || fail "FIFO: content differs from stdout"
# a FIFO as an input: refused at once, not waited on
expect_fail "FIFO as a trace" 2 "fifo: not a regular file (a FIFO" -- timeout 20 "$EATRACE" stats fifo
expect_fail "FIFO as a model" 2 "fifo: not a regular file (a FIFO" -- timeout 20 "$EATRACE" report -m "$TMP/fifo" "$DEMO"

# 6. bash process substitution: /dev/fd/N, a pipe
if command -v bash >/dev/null; then
	n=$(EATRACE=$EATRACE DEMO=$DEMO bash -c '"$EATRACE" stats -f json -o >(wc -c) "$DEMO"; wait' 2>psub.err)
	expect_eq "-o >(wc -c): the byte count" "$n" "$(wc -c <stdout.json)"
fi

# 6b. a symlink to a device or FIFO is followed to it, written in place
if [ -c null ]; then
	ln -s null null.link
	"$EATRACE" stats -f json -o null.link "$DEMO"
	expect_eq "symlink to a device: link kept" "$(kind_of null.link)" "symbolic link"
	expect_eq "symlink to a device: still a device" "$(kind_of null)" "character special file"
fi

# 7. a 254-character file name (the longest NAME_MAX allows but one)
long=$(awk 'BEGIN { while (n++ < 249) printf "x"; print ".json" }')
expect_eq "long name is 254 characters" "${#long}" 254
"$EATRACE" stats -f json -o "$long" "$DEMO" 2>long.err
expect_eq "254-character name written" "$(head -c 1 "$long" 2>/dev/null)" "{"
[ -s long.err ] && fail "254-character name: $(cat long.err)"
no_temps "long name"

# 8. an input of the run is never overwritten (also through a link)
cp "$DEMO" in.txt
cp in.txt in.orig
expect_fail "stats in.txt -o in.txt" 2 "in.txt: is an input of this run" -- "$EATRACE" stats in.txt -o in.txt
cmp -s in.txt in.orig && ok "input unchanged" || fail "input was replaced"
ln -s in.txt inlink.txt
ln in.txt inhard.txt
expect_fail "output a symlink to the input" 2 "is an input of this run" -- "$EATRACE" stats in.txt -o inlink.txt
expect_fail "output a hard link of the input" 2 "is an input of this run" -- "$EATRACE" report -m tc2 in.txt --html inhard.txt
cp "$ROOT/models/tc2.json" m.json
cp m.json m.orig
expect_fail "model as --perfetto output" 2 "m.json: is an input of this run" -- "$EATRACE" report -m m.json in.txt --perfetto m.json
expect_fail "model show M -o M" 2 "m.json: is an input of this run" -- "$EATRACE" model show m.json -o m.json
cmp -s m.json m.orig && ok "model unchanged" || fail "model was replaced"
no_temps "input as output"

# 9. a failed run replaces nothing: every output is committed at the end
echo previous >good.json
echo previous >good.html
expect_fail "--html into a missing directory" 2 "$TMP/nonexistent/x.html: cannot write" -- \
	"$EATRACE" report -m tc2 -f json -o good.json --html "$TMP/nonexistent/x.html" "$DEMO"
expect_eq "failed run: -o file untouched" "$(cat good.json)" previous
mkdir isdir.json
expect_fail "--perfetto a directory" 2 "isdir.json: is a directory" -- \
	"$EATRACE" report -m tc2 -o good.json --html good.html --perfetto isdir.json "$DEMO"
expect_eq "failed run: -o untouched" "$(cat good.json)" previous
expect_eq "failed run: --html untouched" "$(cat good.html)" previous
no_temps "failed runs"
"$EATRACE" report -m tc2 -f json -o good.json --html good.html "$DEMO"
expect_eq "successful run: -o written" "$(head -c 1 good.json)" "{"
grep -q '<html' good.html && ok "successful run: --html written" || fail "--html not written"

# 10. a tracefs pseudo-file looks regular but blocks: refused as every input
TP=/sys/kernel/tracing/trace_pipe
if [ -r "$TP" ]; then
	expect_fail "trace_pipe as a trace" 2 "trace_pipe: not a regular file (a tracefs pseudo-file" -- \
		timeout 20 "$EATRACE" stats "$TP"
	expect_fail "trace_pipe as a model" 2 "trace_pipe: not a regular file (a tracefs" -- \
		timeout 20 "$EATRACE" report -m "$TP" "$DEMO"
	printf '/dts-v1/;\n/include/ "%s"\n/ { };\n' "$TP" >tp.dts
	# outside the source's tree: refused as such (issue 29 item 3); in a
	# -I directory: as a pseudo-file
	expect_fail "trace_pipe as a dts /include/" 2 "cannot include: $TP: outside the source's directory" -- \
		timeout 20 "$EATRACE" model import --from dt tp.dts -o tp.json
	expect_fail "trace_pipe as a dts /include/ of -I" 2 "cannot include: $TP: not a regular file (a tracefs" -- \
		timeout 20 "$EATRACE" model import --from dt -I "$(dirname "$TP")" tp.dts -o tp.json
else
	echo "note: no readable $TP: tracefs cases not run"
fi
finish
