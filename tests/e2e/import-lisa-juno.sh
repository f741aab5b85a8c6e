#!/bin/sh
# The Juno r0 plat_info.yml LISA wrote (../shared/traces/lisa, kernel EM
# read from debugfs) imports to a model that prices the LISA Juno traces
# exactly like the bundled juno-r0 model (built by hand from the same file):
# the whole JSON report is the same but for the model's and clusters' names.
. "$(dirname "$0")/lib.sh"
need_shared
L=$SHARED/lisa
"$EATRACE" model import "$L/tests__assets__sched_load__plat_info.yml" -o "$TMP/juno.json" -q ||
	fail "juno plat_info: import failed"
grep -qF '"power_unit": "mW"' "$TMP/juno.json" && ok "juno: mW (kernel EM)" || fail "juno: unit"
# the two plat_info files LISA ships for its Juno traces are the same
cmp -s "$L/tests__assets__sched_load__plat_info.yml" "$L/tests__assets__trace_txt__plat_info.yml" &&
	ok "juno: both plat_info files equal" || fail "juno: plat_info files differ"
for t in tests__assets__sched_load__trace.dat ipynb__deprecated__tutorial__example_rtapp__trace.dat; do
	"$EATRACE" report -q -m "$TMP/juno.json" -f json "$L/$t" |
		sed -e 's/"cluster0"/"A53"/g; s/"cluster1"/"A57"/g' | grep -v '"model":' >"$TMP/a.json"
	"$EATRACE" report -q -m juno-r0 -f json "$L/$t" | grep -v '"model":' >"$TMP/b.json"
	total=$(grep -m1 '"total"' "$TMP/a.json" | tr -d ' ,')
	if [ -s "$TMP/a.json" ] && cmp -s "$TMP/a.json" "$TMP/b.json"; then
		ok "juno: $t priced as by juno-r0 ($total)"
	else
		fail "juno: $t: report differs from juno-r0's"
	fi
done
finish
