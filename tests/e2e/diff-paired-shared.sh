#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: diff-paired.sh runs the paired comparison sanitized and edges.sh reads both LISA recordings sanitized
# diff --models on LISA's two trace.dat recordings (issue 30 item 3: the
# unpaired test said "INCONCLUSIVE ... 17 runs per side would resolve" for
# +483% and +236% per trace). Paired, by hand (tests/unit/test-diff-paired.c
# "test_lisa_pairs", from the per-trace energies 622.600578 -> 2091.99502
# and 12.360713 -> 72.0415129 mW x s): ln ratios 1.211968 and 1.762720,
# mean 1.487344, s 0.389440, t(0.975, 1) = 12.706205: 95% CI -86.62% ..
# +14540%, change +342.53%; inconclusive against +1%, and 3 traces would
# resolve it (t(0.975, 2) x 0.389440 / sqrt 3 = 0.967422 < 1.477393).
. "$(dirname "$0")/lib.sh"
need_shared
L=$SHARED/lisa
"$EATRACE" diff --models juno-r0 juno-r0-eas -f json \
	"$L/ipynb__deprecated__tutorial__example_rtapp__trace.dat" \
	"$L/tests__assets__sched_load__trace.dat" >"$TMP/d.json"
expect_eq "LISA pair: inconclusive (exit 3)" "$?" 3
/usr/bin/python3 - "$TMP/d.json" <<'PY' && ok "LISA pair: figures by hand" || fail "LISA pair figures"
import json, sys
d = json.load(open(sys.argv[1]))
assert [round(p["change_pct"], 2) for p in d["paired"]["pairs"]] == [236.01, 482.83]
assert abs(d["paired"]["mean_log_ratio"] - 1.487344) < 1e-6
assert abs(d["paired"]["sd_log_ratio"] - 0.389440) < 1e-6
assert abs(d["change_pct"] - 342.53) < 5e-3
assert abs(d["ci_low_pct"] + 86.62) < 5e-3 and abs(d["ci_high_pct"] - 14540) < 1
assert d["verdict"] == "inconclusive" and d["traces_needed"] == 3
PY
"$EATRACE" diff --models juno-r0 juno-r0-eas \
	"$L/ipynb__deprecated__tutorial__example_rtapp__trace.dat" \
	"$L/tests__assets__sched_load__trace.dat" >"$TMP/d.txt"
head -1 "$TMP/d.txt" | grep -q "; 3 traces would resolve a change of this size at this spread of per-trace ratios$" &&
	ok "LISA pair: advice in traces" || fail "LISA advice: $(head -1 "$TMP/d.txt")"
# With the third LISA recording (the text one): three ratios, the interval
# above +1% (recomputed from the per-trace values; t(0.975, 2) = 4.302653).
"$EATRACE" diff --models juno-r0 juno-r0-eas -f json "$L"/*.dat "$L/tests__assets__trace_txt__trace.txt" >"$TMP/d3.json"
expect_eq "three LISA traces: fail (exit 1)" "$?" 1
/usr/bin/python3 - "$TMP/d3.json" <<'PY' && ok "three LISA traces: recomputed" || fail "three LISA traces"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
logs = [math.log(p["new"] / p["base"]) for p in d["paired"]["pairs"]]
m, s = statistics.mean(logs), statistics.stdev(logs)
half = 4.302653 * s / math.sqrt(3)
assert abs(d["ci_low_pct"] - 100 * math.expm1(m - half)) < 1e-3
assert abs(d["ci_high_pct"] - 100 * math.expm1(m + half)) < 1e-3
assert d["ci_low_pct"] > 1 and d["verdict"] == "fail"
PY
finish
