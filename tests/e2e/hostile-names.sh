#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile names (docs/robustness.md, "Names"): the same comm names in a text
# trace and cluster / C-state / model names in a model go through every
# output format, each checked for its own kind of escaping:
#  - text (stats, report, replay, dump): no raw ESC or BEL byte, valid UTF-8,
#    the ESC shown as the text \x1b, b\u00fc\u00df kept;
#  - JSON (stats, report, replay, perfetto): parses, b\u00fc\u00df and the ESC
#    name round-trip exactly, invalid bytes come back as U+FFFD;
#  - CSV: parses, no cell starts with = + - @ TAB or CR, the formula name
#    is there behind its ';
#  - HTML (report, replay): well-formed XML, `xmllint --html` has nothing
#    to say but SVG tag names, no attribute or element comes from a name
#    (no onload=, no <script>, no <b>), and the names read back exactly.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# Comm names: the kernel keeps 15 bytes, so each hostile piece is its own.
ESC=$(printf '\033')
BEL=$(printf '\007')
C1='x" onload="a()'		# attribute breakout
C2='</script>'
C3="${ESC}]0;pwn${BEL}"		# retitles an xterm, then BEL
C4="${ESC}[2J"			# clears the screen
C5="=cmd|' /C calc'"		# CSV formula (cut to 15 bytes)
C6=$(printf 'b\303\274\303\237')	# "büß", valid UTF-8
C7=$(printf 'a\377\376b')	# invalid UTF-8
C8='+1'
C9='-x'
C10='@x'

T=$TMP/hostile.txt
sw() { # sw CPU TS PREV PREV_PID NEXT NEXT_PID
	printf '           task-%d  [%03d] d..2. %s: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n' \
		"$4" "$1" "$2" "$3" "$4" "$5" "$6"
}
ev() { # ev CPU TS EVENT ARGS
	printf '          <idle>-0     [%03d] d..2. %s: %s: %s\n' "$1" "$2" "$3" "$4"
}
{
	printf '# tracer: nop\n#\n'
	ev 0 1.000000 cpu_frequency 'state=1000000 cpu_id=0'
	ev 2 1.000000 cpu_frequency 'state=800000 cpu_id=2'
	ev 1 1.000000 cpu_idle 'state=0 cpu_id=1'
	ev 3 1.000000 cpu_idle 'state=0 cpu_id=3'
	prev=swapper/0 ppid=0 pid=100
	for c in "$C1" "$C2" "$C3" "$C4" "$C5" "$C6" "$C7" "$C8" "$C9" "$C10"; do
		pid=$((pid + 1))
		sw 0 "$(printf '1.%02d0000' $((pid - 100)))" "$prev" $ppid "$c" $pid
		prev=$c ppid=$pid
	done
	sw 0 1.200000 "$prev" $ppid swapper/0 0
	ev 0 1.200000 cpu_idle 'state=0 cpu_id=0'
	ev 0 1.300000 cpu_idle 'state=1 cpu_id=0'
	sw 2 1.050000 swapper/2 0 "$C6" 200
	sw 2 1.150000 "$C6" 200 "$C2" 201
	sw 2 1.250000 "$C2" 201 swapper/2 0
	ev 2 1.250000 cpu_idle 'state=0 cpu_id=2'
	ev 1 1.400000 cpu_idle 'state=4294967295 cpu_id=1'
	ev 0 1.400000 cpu_idle 'state=4294967295 cpu_id=0'
} >"$T"

# Model names: no control characters (the loader refuses them), but quotes,
# markup, a formula, UTF-8 and invalid bytes.
M=$TMP/hostile-model.json
printf '%s\n' \
	'{ "eatrace_model": 1, "name": "m</script>\"'"'"'&b\u00fc\u00df", "power_unit": "mW",' \
	'  "clusters": [' \
	'    { "name": "x\" onload=\"alert(document.domain)", "cpus": [0, 1],' \
	'      "cap_states": [' \
	'        { "freq_khz": 500000, "cap": 200, "core_power": 50, "cluster_power": 10 },' \
	'        { "freq_khz": 1000000, "cap": 400, "core_power": 110, "cluster_power": 20 } ],' \
	'      "idle_states": [' \
	'        { "name": "=cmd|'"'"' /C calc'"'"'!A0", "core_power": 5, "cluster_power": 8 },' \
	"        { \"name\": \"b\\u00fc\\u00df$(printf '\377\376')\", \"core_power\": 0, \"cluster_power\": 2 } ] }," \
	'    { "name": "</script><b>", "cpus": [2, 3],' \
	'      "cap_states": [' \
	'        { "freq_khz": 800000, "cap": 1024, "core_power": 400, "cluster_power": 40 } ],' \
	'      "idle_states": [' \
	'        { "name": "@SUM(A1)", "core_power": 5, "cluster_power": 8 } ] } ] }' >"$M"

run() { # run NAME OUTFILE CMD...: the command must succeed
	name=$1 out=$2
	shift 2
	if timeout 60 "$@" >"$out" 2>"$TMP/err"; then ok "$name: runs"
	else fail "$name: exit $? ($(head -c 300 "$TMP/err"))"; fi
}

O=$TMP/out
mkdir -p "$O"
run "stats text" "$O/stats.txt" "$EATRACE" stats "$T"
run "stats json" "$O/stats.json" "$EATRACE" stats --format json "$T"
run "stats csv" "$O/stats.csv" "$EATRACE" stats --format csv "$T"
run "report text" "$O/report.txt" "$EATRACE" report -m "$M" --per-task "$T"
run "report json" "$O/report.json" "$EATRACE" report -m "$M" --per-task --format json "$T"
run "report csv" "$O/report.csv" "$EATRACE" report -m "$M" --per-task --format csv \
	--html "$O/report.html" --perfetto "$O/report.perfetto.json" "$T"
run "replay text" "$O/replay.txt" "$EATRACE" replay -m "$M" --policy recorded,pack "$T"
run "replay json" "$O/replay.json" "$EATRACE" replay -m "$M" --policy recorded,pack \
	--format json --html "$O/replay.html" "$T"
run "dump" "$O/dump.txt" "$EATRACE" dump "$T"

# check.py KIND FILE: prints one line per failed check, nothing when good.
cat >"$TMP/check.py" <<'PYEOF'
import csv, html.parser, io, json, sys

kind, path = sys.argv[1], sys.argv[2]
raw = open(path, 'rb').read()
bad = []
ESC, BEL = '\x1b', '\x07'
BUSS = 'b\u00fc\u00df'
C1 = 'x" onload="a()'
CLUSTER = 'x" onload="alert(document.domain)'


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


try:
    text = raw.decode('utf-8')
except UnicodeDecodeError as e:
    bad.append('not valid UTF-8: %s' % e)
    text = raw.decode('utf-8', 'replace')

if kind == 'text':
    if b'\x1b' in raw or b'\x07' in raw:
        bad.append('raw ESC or BEL byte')
    ctl = [c for c in text if (ord(c) < 0x20 and c != '\n') or 0x7f <= ord(c) <= 0x9f]
    if ctl:
        bad.append('control characters %r' % ctl[:5])
    if 'comm' in sys.argv[3:] and '\\x1b' not in text:
        bad.append('ESC not shown as \\x1b')
elif kind in ('json', 'perfetto'):
    try:
        doc = json.loads(text)
    except ValueError as e:
        bad.append('JSON does not parse: %s' % e)
        doc = None
    s = set(strings(doc))
    for want in ((BUSS, C1, ESC + ']0;pwn' + BEL, 'a\ufffd\ufffdb', '</script>')
                 if 'comm' in sys.argv[3:] else ()) + \
            ((CLUSTER, '</script><b>') if 'model' in sys.argv[3:] else ()) + \
            ((BUSS + '\ufffd\ufffd', "=cmd|' /C calc'!A0")
             if 'states' in sys.argv[3:] else ()):
        if not any(want in x for x in s):
            bad.append('%r does not round-trip' % want)
elif kind == 'csv':
    rows = list(csv.reader(io.StringIO(text)))
    cells = [c for r in rows for c in r]
    for c in cells:
        if c[:1] in ('=', '+', '-', '@', '\t', '\r'):
            bad.append('cell starts with a formula character: %r' % c)
    if not any(c.startswith("'=cmd|") for c in cells):
        bad.append("the formula name is not there behind a '")
    if not any(BUSS in c for c in cells):
        bad.append('%r lost' % BUSS)
    if b'\x1b' in raw:
        bad.append('raw ESC byte')
elif kind == 'html':
    found = []

    class P(html.parser.HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag in ('script', 'iframe', 'img'):
                bad.append('element <%s> from a name' % tag)
            for k, v in attrs:
                if k.startswith('on'):
                    bad.append('attribute %s= from a name' % k)
                if k == 'data-cluster':
                    found.append(v)

        def handle_data(self, data):
            found.append(data)
    P().feed(text)
    if CLUSTER not in found:
        bad.append('cluster name does not read back from data-cluster')
    if not any('</script><b>' in x for x in found):
        bad.append('</script><b> does not read back as text')
    if b'\x1b' in raw:
        bad.append('raw ESC byte')
for b in bad:
    print('%s: %s' % (path.rsplit('/', 1)[-1], b))
PYEOF

check() { # check NAME KIND FILE [comm] [model]
	name=$1
	shift
	"$PY" "$TMP/check.py" "$@" >"$TMP/chk" 2>&1
	if [ -s "$TMP/chk" ]; then fail "$name: $(head -n 5 "$TMP/chk" | tr '\n' ' ')"
	else ok "$name"; fi
}

# comm: the comm names must be there; model: cluster names; states: C-state
# names (not every format has each).
check "stats text" text "$O/stats.txt" comm
check "report text" text "$O/report.txt" comm
check "replay text" text "$O/replay.txt"
check "dump" text "$O/dump.txt" comm
check "stats json" json "$O/stats.json" comm
check "report json" json "$O/report.json" comm model states
check "replay json" json "$O/replay.json" model
check "perfetto json" perfetto "$O/report.perfetto.json" comm model
check "stats csv" csv "$O/stats.csv"
check "report csv" csv "$O/report.csv"
check "report html" html "$O/report.html"
check "replay html" html "$O/replay.html"

# The text shows each hostile byte as an escape, and keeps UTF-8.
expect_eq "dump: ESC and BEL escaped" \
	"$(grep -c 'next_comm=\\x1b\]0;pwn\\x07 ' "$O/dump.txt")" 1
expect_eq "dump: invalid bytes escaped" \
	"$(grep -c 'next_comm=a\\xff\\xfeb ' "$O/dump.txt")" 1
# (two tasks of that name: pids 106 and 200)
expect_eq "stats: b\\u00fc\\u00df kept as UTF-8" "$(grep -c "$C6" "$O/stats.txt")" 2

# Error messages name files as given: a name with ESC and a newline stays
# one line, its control bytes shown as \xNN (a name must not drive the
# terminal), for an input, a model and an output.
BAD=$(printf '%s/in\033]0;pwn\007\nx' "$TMP")
# err_line NAME WANT CMD...: exit 2, one stderr line holding WANT
err_line() {
	name=$1 want=$2
	shift 2
	"$@" >"$TMP/e.out" 2>"$TMP/e.err"
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$TMP/e.err")" -ne 1 ] || ! grep -qF -- "$want" "$TMP/e.err"; then
		fail "$name: exit $rc, stderr: $(od -c "$TMP/e.err" | head -n 4)"
	else
		ok "$name"
	fi
}
err_line "error naming a hostile input" 'in\x1b]0;pwn\x07\x0ax: ' \
	"$EATRACE" stats "$BAD"
err_line "error naming a hostile model" 'in\x1b]0;pwn\x07\x0ax' \
	"$EATRACE" report -m "$BAD" "$ROOT/traces/demo/tc2-seven-tasks.txt"
err_line "error naming a hostile output" 'in\x1b]0;pwn\x07\x0ax/o: cannot write' \
	"$EATRACE" report -m tc2 "$ROOT/traces/demo/tc2-seven-tasks.txt" -o "$BAD/o"

# HTML: well-formed, and libxml2's HTML parser finds nothing but the SVG
# tag names it does not know (HTML 4).
for h in report replay; do
	if xmllint --noout "$O/$h.html" 2>"$TMP/xl"; then ok "$h html: well-formed"
	else fail "$h html: $(head -c 300 "$TMP/xl")"; fi
	xmllint --html --noout "$O/$h.html" >"$TMP/xl" 2>&1
	grep 'error' "$TMP/xl" | grep -Ev 'Tag (svg|g|rect|text|line|path|title) invalid' >"$TMP/xle"
	if [ -s "$TMP/xle" ]; then fail "$h html: xmllint --html: $(head -n 3 "$TMP/xle")"
	else ok "$h html: xmllint --html"; fi
done

finish
