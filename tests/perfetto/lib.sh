# Helpers for the Perfetto reader's e2e tests (sourced after tests/e2e/lib.sh).
# to_pf DAT OUT [to-perfetto.py options]: the trace.dat as a Perfetto trace,
# through `trace-cmd report -t -R` and tests/perfetto/to-perfetto.py. The
# report of each DAT is made once per script (kept in $TMP): the tests
# convert the same file to several forms.
to_pf() {
	_dat=$1 _out=$2
	shift 2
	_rep=$TMP/report.$(printf '%s' "$_dat" | cksum | cut -d' ' -f1).txt
	if [ ! -s "$_rep" ]; then
		trace-cmd report -t -R "$_dat" >"$_rep.new" 2>/dev/null &&
			mv "$_rep.new" "$_rep" || { rm -f "$_rep.new"; return 1; }
	fi
	/usr/bin/python3 "$ROOT/tests/perfetto/to-perfetto.py" "$@" "$_rep" "$_out"
}

# same_json NAME DAT PF: stats and report JSON of the Perfetto trace equal
# the trace.dat's, but for the keys describing the input: "trace" (its
# name, which must be DAT and PF) and "format" (which must say trace.dat
# and perfetto). The lost counts are compared too: the converter writes
# them into ftrace_stats, which the reader gives to the CPUs' lost markers.
same_json() {
	_name=$1 _dat=$2 _pf=$3
	for _cmd in "stats -f json" "report -f json -m juno-r0"; do
		# the .dat's side once per script for each DAT and command (kept
		# in $TMP): the tests compare it with several Perfetto forms
		_a=$TMP/dat.$(printf '%s %s' "$_dat" "$_cmd" | cksum | cut -d' ' -f1)
		if [ ! -f "$_a.json" ]; then
			# shellcheck disable=SC2086
			"$EATRACE" $_cmd "$_dat" >"$_a.json" 2>"$_a.err" || { fail "$_name: $_cmd of the .dat: $(cat "$_a.err")"; rm -f "$_a.json"; continue; }
		fi
		cp "$_a.json" "$TMP/a.json"
		# shellcheck disable=SC2086
		"$EATRACE" $_cmd "$_pf" >"$TMP/b.json" 2>"$TMP/b.err" || { fail "$_name: $_cmd: $(cat "$TMP/b.err")"; continue; }
		if cmp -s "$TMP/a.json" "$TMP/b.json"; then
			ok "$_name: ${_cmd%% *} JSON identical"
		elif /usr/bin/python3 - "$TMP/a.json" "$TMP/b.json" "$_dat" "$_pf" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
# the input-describing keys: present in both or neither, naming each input
assert ('trace' in a) == ('trace' in b) and ('format' in a) == ('format' in b)
if 'trace' in a:
    assert (a.pop('trace'), b.pop('trace')) == tuple(sys.argv[3:5]), 'trace'
if 'format' in a:
    fa, fb = a.pop('format'), b.pop('format')
    assert fa.startswith('trace.dat') and fb.startswith('perfetto'), (fa, fb)
sys.exit(0 if a == b else 1)
PY
		then
			ok "$_name: ${_cmd%% *} JSON identical but for the input's name and format"
		else
			fail "$_name: ${_cmd%% *} JSON differs: $(diff "$TMP/a.json" "$TMP/b.json" | head -6 | tr '\n' ' ')"
		fi
	done
}
