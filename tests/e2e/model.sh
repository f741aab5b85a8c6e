#!/bin/sh
# eatrace model show|check|list: bundled models, fixtures, exit codes,
# message formats.
. "$(dirname "$0")/lib.sh"
FIX=$ROOT/tests/fixtures/models
cd "$ROOT" || exit 1

# every bundled model loads and passes its own check
for m in models/*.json; do
	name=$(basename "$m" .json)
	"$EATRACE" model check -q "$name" >"$TMP/out" 2>"$TMP/err"
	expect_eq "check $name exits 0" "$?" 0
	expect_eq "check $name: no error lines" "$(cat "$TMP/out" "$TMP/err")" ""
done

"$EATRACE" model check tc2 >"$TMP/out" 2>"$TMP/err"
expect_eq "check tc2 exits 0" "$?" 0
expect_eq "check tc2 summary" "$(tail -n 1 "$TMP/out")" "./models/tc2.json: 0 errors, 10 warnings"
grep -qxF "./models/tc2.json: warning: cluster 'A7': cluster_power falls from 2967 at 350000 kHz to 2792 at 400000 kHz" "$TMP/out" &&
	ok "check tc2 warns of the A7's falling cluster power" ||
	fail "check tc2 lacks the falling cluster power warning: $(cat "$TMP/out")"

# a model that loads but fails its checks: exit 1, findings on stdout
"$EATRACE" model check "$FIX/check-idle-order.json" >"$TMP/out" 2>"$TMP/err"
expect_eq "check-idle-order exits 1" "$?" 1
expect_eq "check-idle-order: nothing on stderr" "$(cat "$TMP/err")" ""
expect_eq "check-idle-order error line" "$(grep ': error: ' "$TMP/out")" \
	"$FIX/check-idle-order.json: error: cluster 'little': idle state 1 'off' draws more core power (9) than shallower state 0 'WFI' (5)"
expect_eq "check-idle-order summary" "$(tail -n 1 "$TMP/out")" \
	"$FIX/check-idle-order.json: 1 error, 1 warning"

"$EATRACE" model check -q "$FIX/check-cpu-gap.json" >"$TMP/out" 2>&1
expect_eq "check-cpu-gap exits 1" "$?" 1
expect_eq "check-cpu-gap -q prints the error only" "$(cat "$TMP/out")" \
	"$FIX/check-cpu-gap.json: error: CPU 2 is in no cluster: CPU ids must run from 0 to 4 without gaps"

"$EATRACE" model check -f json "$FIX/check-idle-order.json" >"$TMP/out" 2>"$TMP/err"
expect_eq "check json exits 1" "$?" 1
grep -q '"eatrace_model_check": 1' "$TMP/out" && grep -q '"errors": 1,' "$TMP/out" &&
	grep -q '"severity": "error",' "$TMP/out" &&
	ok "check json" || fail "check json: $(cat "$TMP/out")"

# unloadable models: exit 2, one line naming file, line and cause
expect_fail "bad model: missing field" 2 \
	"$FIX/bad-missing-field.json:11: clusters[0].cap_states[0]: missing member 'core_power'" \
	-- "$EATRACE" model check "$FIX/bad-missing-field.json"
expect_fail "bad model: duplicate CPU" 2 \
	"$FIX/bad-duplicate-cpu.json:21: clusters[1].cpus[0]: CPU 1 is also in cluster 'little'" \
	-- "$EATRACE" model show "$FIX/bad-duplicate-cpu.json"
expect_fail "bad model: syntax" 2 "$FIX/bad-syntax.json:6: JSON syntax error" \
	-- "$EATRACE" model check "$FIX/bad-syntax.json"
expect_fail "bad model: NaN" 2 "$FIX/bad-nan-power.json:12: clusters[0].cap_states[1].core_power: nan is not a finite number" \
	-- "$EATRACE" model show "$FIX/bad-nan-power.json"
expect_fail "unknown model name" 2 "model 'no-such-model' not found: no no-such-model.json in " \
	-- "$EATRACE" model show no-such-model
expect_fail "model path that does not exist" 2 "/nonexistent/x.json: No such file or directory" \
	-- "$EATRACE" model show /nonexistent/x.json
expect_fail "show: no model" 2 "model show: expected one MODEL, got 0 arguments" \
	-- "$EATRACE" model show
expect_fail "show: bad format" 2 "model show: --format must be text or json, not 'xml'" \
	-- "$EATRACE" model show tc2 -f xml
expect_fail "check: unknown option" 2 "model check: unknown option '--bogus'" \
	-- "$EATRACE" model check tc2 --bogus
expect_fail "unknown subcommand" 2 "model: 'frobnicate' is not a model subcommand" \
	-- "$EATRACE" model frobnicate

# show: the A57 table of juno-r0, as the traces README gives it
"$EATRACE" model show juno-r0 >"$TMP/out" 2>"$TMP/err"
expect_eq "show juno-r0 exits 0" "$?" 0
sed -n '/^cluster A57:/,/^  idle states/p' "$TMP/out" >"$TMP/a57"
expect_eq "show juno-r0: A57 CPUs" "$(head -n 1 "$TMP/a57")" "cluster A57: CPUs 1-2, one frequency domain"
expect_eq "show juno-r0: A57 OPPs" "$(awk '$1 ~ /^[0-9]+$/ { print $1, $2, $3, $4 }' "$TMP/a57" | tr '\n' ';')" \
	"450000 419 160 0;625000 582 239 0;800000 745 343 0;950000 884 454 0;1100000 1024 583 0;"
grep -q "^cluster A53: CPUs 0,3-5, one frequency domain$" "$TMP/out" &&
	ok "show juno-r0: A53 CPUs" || fail "show juno-r0: A53 line: $(cat "$TMP/out")"

# show marks the RFC's inefficient A7 OPPs (cost = power x fmax / freq)
"$EATRACE" model show tc2 >"$TMP/out"
expect_eq "show tc2: A7 400 MHz inefficient" \
	"$(awk '$1 == 400000 && $2 == 410 { print $NF }' "$TMP/out")" "core,shared"
expect_eq "show tc2: A7 350 MHz shared-inefficient only" \
	"$(awk '$1 == 350000 { print $NF }' "$TMP/out")" "shared"

"$EATRACE" model show -f json -o "$TMP/show.json" tc2
expect_eq "show -o exits 0" "$?" 0
grep -q '"eatrace_model_show": 1' "$TMP/show.json" &&
	grep -q '"core_wakeup": 0.233115234375' "$TMP/show.json" &&
	ok "show json to a file" || fail "show json: $(head -c 400 "$TMP/show.json")"

# models are found along EATRACE_MODEL_PATH, by name
EATRACE_MODEL_PATH=$FIX "$EATRACE" model show ok-small >"$TMP/out" 2>"$TMP/err"
expect_eq "EATRACE_MODEL_PATH lookup" "$?" 0
grep -q "none in the file: one implicit state drawing nothing" "$TMP/out" &&
	ok "show: implicit idle state" || fail "show implicit idle: $(cat "$TMP/out")"
(cd "$TMP" && "$EATRACE" model show tc2 >/dev/null 2>&1)
expect_eq "bundled model found beside the executable" "$?" 0

"$EATRACE" model list >"$TMP/out"
grep -q "^tc2 " "$TMP/out" && grep -q "^juno-r0 " "$TMP/out" &&
	ok "model list" || fail "model list: $(cat "$TMP/out")"
# columns in line whatever the names' lengths: a name longer than the
# first column and a path longer than the second (issue 30)
mkdir -p "$TMP/mp/a-model-directory-with-a-long-name"
cp "$FIX/ok-small.json" "$TMP/mp/a-model-directory-with-a-long-name/a-model-with-a-rather-long-name.json"
EATRACE_MODEL_PATH=$TMP/mp/a-model-directory-with-a-long-name "$EATRACE" model list >"$TMP/out"
expect_eq "model list: columns aligned" "$(awk '
	{ p = index($0, " " $2 " ") + 1; t = index($0, " " $3); if (!(p in P)) np++; P[p]; if (!(t in Q)) nt++; Q[t] }
	END { print np, nt }' "$TMP/out")" "1 1"
grep -q "^a-model-with-a-rather-long-name " "$TMP/out" && ok "model list: the long name" ||
	fail "model list: $(head -n 3 "$TMP/out")"

# --help: stdout, exit 0
for sub in "" show check list; do
	"$EATRACE" model $sub --help >"$TMP/out" 2>"$TMP/err"
	expect_eq "model $sub --help exits 0" "$?" 0
	grep -q "^usage: eatrace model" "$TMP/out" && ok "model $sub --help usage" ||
		fail "model $sub --help: $(cat "$TMP/out")"
done

# --trace: what a trace uses that the model lacks
T1=$SHARED/idlestat/Experiments__test01.dat
T3=$SHARED/idlestat/Experiments__test03.dat
if [ -r "$T1" ] && [ -r "$T3" ]; then
	"$EATRACE" model check -q tc2-idlestat --trace "$T1" >"$TMP/out" 2>&1
	expect_eq "check tc2-idlestat --trace test01 exits 0" "$?" 0
	"$EATRACE" model check -q tc2 --trace "$T3" >"$TMP/out" 2>&1
	expect_eq "check tc2 --trace test03 exits 0" "$?" 0
	"$EATRACE" model check -q tc2 --trace "$T1" >"$TMP/out" 2>&1
	expect_eq "check tc2 --trace test01 (idlestat numbering) exits 1" "$?" 1
	expect_eq "check tc2 --trace test01 names CPU 0's frequency" "$(cat "$TMP/out")" \
		"./models/tc2.json: error: $T1: CPU 0 is set to 350000 kHz (1 time), not a cap state of cluster 'A15'"
else
	echo "skip: idlestat traces not found under $SHARED"
fi
T=$SHARED/lisa/tests__assets__sched_load__trace.dat
if [ -r "$T" ]; then
	"$EATRACE" model check -q juno-r0 --trace "$T" >"$TMP/out" 2>&1
	expect_eq "check juno-r0 --trace sched_load exits 0" "$?" 0
	"$EATRACE" model check -q "$FIX/ok-small.json" --trace "$T" >"$TMP/out" 2>&1
	expect_eq "check ok-small --trace sched_load exits 1" "$?" 1
	grep -qF "$T: the trace has CPU 5 (" "$TMP/out" &&
		grep -qF "$T: CPU 0 enters idle state 2 (26 times), but cluster 'little' has idle states 0..1 only" "$TMP/out" &&
		ok "check --trace: missing CPU and idle state" ||
		fail "check --trace findings: $(cat "$TMP/out")"
else
	echo "skip: $T not found"
fi
expect_fail "check --trace: unreadable trace" 2 "/nonexistent.dat: No such file or directory" \
	-- "$EATRACE" model check tc2 --trace /nonexistent.dat

finish
