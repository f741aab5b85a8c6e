#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace report` on the shared reference traces ($SHARED):
#  1. Juno r0 (lisa sched_load trace, models/juno-r0.json): each cluster's
#     busy energy equals the time per OPP times its power, both computed here
#     independently of eatrace from `trace-cmd report` text with awk, exact
#     to the nanosecond (the model has per-core busy power only, so core_busy
#     is all of the cluster's energy).
#  2. Every trace: the report JSON's breakdowns (per CPU, cluster, task,
#     10 ms window, per CPU P-state + C-state) add up exactly to the total,
#     checked with Python's decimal.Decimal on the raw JSON text; and the
#     times add up to the duration.
#  3. The LISA text trace's notes: one per cause, with the energy resting
#     on it (issue 27 item 7).
. "$(dirname "$0")/lib.sh"

need_shared

# ---------------------------------------------------------------------------
# 1. Juno r0: busy energy per cluster = sum over OPPs of busy time x power.
#
# Independent reading of the trace (awk, on `trace-cmd report -t`, which
# prints timestamps to the nanosecond):
#  - a CPU is busy except between a cpu_idle enter (state=k) and the next
#    exit (state=4294967295) for it (cpu_id field);
#  - before its first cpu_idle event a CPU was idle if that event is an exit,
#    busy if it is an enter (a first pass over the text finds them);
#  - the trace runs from its first to its last event line;
#  - Juno r0's clusters each share one frequency (A53 = CPUs 0, 3, 4, 5,
#    A57 = CPUs 1, 2): a cpu_frequency event for any CPU sets its cluster's
#    OPP from that instant (the kernel emits one per CPU of the policy, a
#    few us apart; the first one sets the cluster). The devlib
#    "cpu_frequency_devlib" trace_marker lines are not cpu_frequency events;
#  - before a cluster's first cpu_frequency event, its OPP is the highest
#    (850 MHz A53, 1100 MHz A57): eatrace's documented default
#    (--assume-opp). For the A53 this is also the first reported OPP; the A57
#    runs 1100 MHz for 3.92 ms of busy time before its first event (800 MHz
#    at +0.1975 s), which eatrace reports as assumed_freq_s (checked below).
# Powers (mW) are plat_info.yml's, as listed in ../shared/traces/README.md:
#   A53 450/575/700/775/850 MHz: 42/58/79/97/119
#   A57 450/625/800/950/1100 MHz: 160/239/343/454/583
# Energy is summed in integer mW x ns (exact in awk's doubles: < 2^53) and
# compared exactly with eatrace's decimal mW x s.
# ---------------------------------------------------------------------------
JUNO=$SHARED/lisa/tests__assets__sched_load__trace.dat

trace-cmd report -t "$JUNO" >"$TMP/juno.txt" 2>/dev/null ||
	fail "trace-cmd report -t $JUNO failed"
awk '
function ns_of(s,   a) {
	sub(/:$/, "", s); split(s, a, ".")
	return a[1] * 1000000000 + substr(a[2] "000000000", 1, 9)
}
function field(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1) return substr($i, length(name) + 2)
	return ""
}
# CPU c was in its current state since last[c]: charge its busy time to its
# cluster OPP.
function flush(c, t,   d) {
	if (busy[c]) {
		d = t - last[c]
		opp_ns[cl[c] SUBSEP freq[cl[c]]] += d
		cpu_ns[c SUBSEP freq[cl[c]]] += d
	}
	last[c] = t
}
BEGIN {
	split("0 1 1 0 0 0", m, " ")	# cluster of CPU 0..5: 0 = A53, 1 = A57
	for (i = 1; i <= 6; i++) cl[i - 1] = m[i]
	name[0] = "A53"; name[1] = "A57"
	freq[0] = 850000; freq[1] = 1100000	# highest OPP until the first event
	split("450000 42 575000 58 700000 79 775000 97 850000 119", a, " ")
	split("450000 160 625000 239 800000 343 950000 454 1100000 583", b, " ")
	for (i = 1; i < 10; i += 2) { pw[0 SUBSEP a[i]] = a[i + 1]; pw[1 SUBSEP b[i]] = b[i + 1] }
}
{
	ev = ""
	for (i = 1; i < NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/ && $(i + 1) ~ /^[a-z_]+:$/) {
			t = ns_of($i); ev = $(i + 1); break
		}
	if (ev == "") next
}
FNR == NR {	# first pass: the span, each CPU first cpu_idle event
	if (!n++) t0 = t
	tend = t
	if (ev == "cpu_idle:") { c = field("cpu_id"); if (!(c in first)) first[c] = field("state") }
	next
}
!started {
	started = 1
	for (c = 0; c < 6; c++) {
		busy[c] = !(c in first) || first[c] != "4294967295"
		last[c] = t0
	}
}
ev == "cpu_idle:" {
	c = field("cpu_id"); flush(c, t); busy[c] = field("state") == "4294967295"
}
ev == "cpu_frequency:" {
	k = cl[field("cpu_id")]
	for (c = 0; c < 6; c++) if (cl[c] == k) flush(c, t)
	freq[k] = field("state")
}
END {
	for (c = 0; c < 6; c++) flush(c, tend)
	for (k = 0; k < 2; k++) e[k] = 0
	for (x in opp_ns) {
		split(x, p, SUBSEP)
		e[p[1]] += opp_ns[x] * pw[x]
		printf "opp %s %s %.0f\n", name[p[1]], p[2], opp_ns[x]
	}
	for (x in cpu_ns) { split(x, p, SUBSEP); printf "cpuopp %s %s %.0f\n", p[1], p[2], cpu_ns[x] }
	for (k = 0; k < 2; k++) printf "energy_mW_ns %s %.0f\n", name[k], e[k]
	printf "span %.0f %.0f\n", t0, tend
}' "$TMP/juno.txt" "$TMP/juno.txt" | sort >"$TMP/juno.awk"

if "$EATRACE" report -q -m juno-r0 --format json "$JUNO" >"$TMP/juno.json" 2>"$TMP/err"; then
	ok "juno: report exits 0"
else
	fail "juno: report failed: $(cat "$TMP/err")"
fi

# The same figures from eatrace's JSON, in the same layout, as exact integers.
/usr/bin/python3 -c '
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ns = lambda s: int(Decimal(s) * 10**9)
out = []
opp = {}
for c in d["cpus"]:
    for p in c["pstates"]:
        if ns(p["time_s"]):
            out.append("cpuopp %d %d %d" % (c["cpu"], p["freq_khz"], ns(p["time_s"])))
            k = (c["cluster"], p["freq_khz"])
            opp[k] = opp.get(k, 0) + ns(p["time_s"])
for (name, f), t in opp.items():
    out.append("opp %s %d %d" % (name, f, t))
for cl in d["clusters"]:
    out.append("energy_mW_ns %s %d" % (cl["name"], int(Decimal(cl["energy"]["core_busy"]) * 10**9)))
out.append("span %d %d" % (ns(d["start_s"]), ns(d["end_s"])))
print("\n".join(sorted(out)))
' "$TMP/juno.json" >"$TMP/juno.ea" 2>"$TMP/err" || fail "juno: parsing the report JSON: $(cat "$TMP/err")"

for what in span opp cpuopp energy_mW_ns; do
	expect_eq "juno: $what (eatrace vs awk on trace-cmd report)" \
		"$(grep "^$what " "$TMP/juno.ea" | tr '\n' ';')" \
		"$(grep "^$what " "$TMP/juno.awk" | tr '\n' ';')"
done
# Known values (what the awk above finds): A53 24620100 ns at 450 MHz
# and 26435660 ns at 850 MHz; A57 1643880 / 16426900 / 3916600 ns at
# 450 / 800 / 1100 MHz, i.e. core busy 4.17988774 and 8.1808253 mW s.
expect_eq "juno: A53 core_busy" "$(grep '^energy_mW_ns A53 ' "$TMP/juno.awk")" "energy_mW_ns A53 4179887740"
expect_eq "juno: A57 core_busy" "$(grep '^energy_mW_ns A57 ' "$TMP/juno.awk")" "energy_mW_ns A57 8180825300"
# The model has no cluster or idle power and no wakeup energy: the total
# is the busy core energy; the time at the assumed OPP is reported.
/usr/bin/python3 -c '
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
e = d["energy"]
assert e["total"] == e["core_busy"] == Decimal("12.36071304"), e
a57 = sum(c["assumed_freq_s"] for c in d["cpus"] if c["cluster"] == "A57")
assert a57 == Decimal("0.0039166"), a57
' "$TMP/juno.json" 2>"$TMP/err" && ok "juno: total = core busy, A57 assumed-OPP time" ||
	fail "juno: totals: $(tail -n 1 "$TMP/err")"

# ---------------------------------------------------------------------------
# 2. Breakdowns add up exactly, on every trace.
#
# Models: the bundled ones where they fit the trace's platform, and for
# every trace an 8-CPU model written here whose powers and wakeup energies
# use all nine decimals of the accountant's quantum (so cluster energy
# shared between 2, 3 or 4 CPUs leaves remainders, and wakeups are nonzero).
# ---------------------------------------------------------------------------
cat >"$TMP/odd8.json" <<'EOF'
{
  "eatrace_model": 1, "name": "odd8", "source": "tests/e2e/report-shared.sh",
  "power_unit": "mW",
  "clusters": [
    { "name": "L", "cpus": [0, 3, 4, 5], "freq_domain": true,
      "cap_states": [
        { "freq_khz": 300000, "cap": 101, "core_power": 10.123456789, "cluster_power": 7.000000001 },
        { "freq_khz": 600000, "cap": 203, "core_power": 31.987654321, "cluster_power": 11.333333333 },
        { "freq_khz": 1000000, "cap": 347, "core_power": 77.777777777, "cluster_power": 19.999999999 }
      ],
      "idle_states": [
        { "name": "s0", "core_power": 1.000000007, "cluster_power": 3.141592653,
          "core_wakeup": 0.123456789, "cluster_wakeup": 1.000000001 },
        { "name": "s1", "core_power": 0.333333333, "cluster_power": 2.718281828,
          "core_wakeup": 0.222222222, "cluster_wakeup": 2.000000003 },
        { "name": "s2", "core_power": 0.000000001, "cluster_power": 1.414213562,
          "core_wakeup": 0.333333333, "cluster_wakeup": 3.000000007 }
      ] },
    { "name": "B", "cpus": [1, 2], "freq_domain": false,
      "cap_states": [
        { "freq_khz": 500000, "cap": 400, "core_power": 100.000000003, "cluster_power": 33.333333333 },
        { "freq_khz": 1200000, "cap": 1024, "core_power": 555.555555555, "cluster_power": 66.666666667 }
      ],
      "idle_states": [
        { "name": "w", "core_power": 2.5, "cluster_power": 7.777777777,
          "core_wakeup": 0.999999999, "cluster_wakeup": 9.790839843 },
        { "name": "d", "core_power": 0.1, "cluster_power": 0.5,
          "core_wakeup": 1.5, "cluster_wakeup": 10.000000001 }
      ] },
    { "name": "X", "cpus": [6, 7], "freq_domain": true,
      "cap_states": [
        { "freq_khz": 2000000, "cap": 900, "core_power": 333.333333333, "cluster_power": 99.999999999 }
      ],
      "idle_states": [
        { "name": "x0", "core_power": 0.7, "cluster_power": 1.1,
          "core_wakeup": 0.3, "cluster_wakeup": 0.9 }
      ] }
  ]
}
EOF

# check_sums NAME JSON: every documented exact sum of the report.
check_sums() {
	/usr/bin/python3 - "$2" >"$TMP/sums.out" 2>&1 <<'EOF'
import json, sys
from decimal import Decimal, ROUND_CEILING

d = json.load(open(sys.argv[1]), parse_float=Decimal)
PARTS = ["core_busy", "cluster_busy", "core_idle", "cluster_idle",
         "core_wakeup", "cluster_wakeup"]
errs = []

def D(x):
    return Decimal(x)

def check_energy(where, e):
    six = sum(D(e[p]) for p in PARTS)
    if D(e["total"]) != six:
        errs.append("%s: total %s != six parts %s" % (where, e["total"], six))
    if D(e["total"]) != D(e["busy"]) + D(e["idle"]) + D(e["wakeup"]):
        errs.append("%s: total != busy + idle + wakeup" % where)
    for k, a, b in (("busy", "core_busy", "cluster_busy"),
                    ("idle", "core_idle", "cluster_idle"),
                    ("wakeup", "core_wakeup", "cluster_wakeup")):
        if D(e[k]) != D(e[a]) + D(e[b]):
            errs.append("%s: %s != %s + %s" % (where, k, a, b))

total = d["energy"]
check_energy("energy", total)
for key in ("cpus", "clusters", "tasks", "windows"):
    items = d.get(key, [])
    if not items:
        errs.append("no %s" % key)
        continue
    for i, x in enumerate(items):
        check_energy("%s[%d]" % (key, i), x["energy"])
    for p in ["total"] + PARTS:
        s = sum(D(x["energy"][p]) for x in items)
        if s != D(total[p]):
            errs.append("sum over %s of %s = %s, total %s" % (key, p, s, total[p]))

# Per CPU: P-states + C-states = the CPU's total; over all CPUs = the total.
states = Decimal(0)
dur = D(d["duration_s"])
for c in d["cpus"]:
    s = sum(D(p["energy"]) for p in c["pstates"]) + sum(D(k["energy"]) for k in c["cstates"])
    states += s
    if s != D(c["energy"]["total"]):
        errs.append("cpu %d: pstates + cstates = %s, total %s" % (c["cpu"], s, c["energy"]["total"]))
    # unknown time (docs/inference.md) is priced busy or idle: P-states
    # hold the busy and the unknown priced busy, C-states the rest
    unk, unk_idle = D(c["unknown_s"]), D(c["unknown_priced_idle_s"])
    if D(c["busy_s"]) + D(c["idle_s"]) + unk != dur:
        errs.append("cpu %d: busy_s + idle_s + unknown_s != duration_s" % c["cpu"])
    if sum(D(p["time_s"]) for p in c["pstates"]) != D(c["busy_s"]) + unk - unk_idle:
        errs.append("cpu %d: pstate times != busy_s + unknown priced busy" % c["cpu"])
    if sum(D(k["time_s"]) for k in c["cstates"]) != D(c["idle_s"]) + unk_idle:
        errs.append("cpu %d: cstate times != idle_s + unknown priced idle" % c["cpu"])
if states != D(total["total"]):
    errs.append("all P-states + C-states = %s, total %s" % (states, total["total"]))

# Per cluster: busy + all-idle time = duration, split by P- and C-state.
for cl in d["clusters"]:
    if not any(c["cluster"] == cl["name"] for c in d["cpus"]):
        continue	# no CPU of this cluster in the trace
    if D(cl["busy_s"]) + D(cl["idle_s"]) != dur:
        errs.append("cluster %s: busy_s + idle_s != duration_s" % cl["name"])
    if sum(D(p["time_s"]) for p in cl["pstates"]) != D(cl["busy_s"]):
        errs.append("cluster %s: pstate times != busy_s" % cl["name"])
    if sum(D(k["time_s"]) for k in cl["cstates"]) != D(cl["idle_s"]):
        errs.append("cluster %s: cstate times != idle_s" % cl["name"])

# Windows: 10 ms each, contiguous from start_s, the last one ends at end_s.
w = d["windows"]
step = Decimal("0.01")
if D(w[0]["start_s"]) != D(d["start_s"]) or D(w[-1]["end_s"]) != D(d["end_s"]):
    errs.append("windows do not span [start_s, end_s]")
for a, b in zip(w, w[1:]):
    if D(a["end_s"]) != D(b["start_s"]) or D(a["end_s"]) - D(a["start_s"]) != step:
        errs.append("window %s..%s is not 10 ms or not contiguous" % (a["start_s"], a["end_s"]))
        break
n = int((dur / step).to_integral_value(rounding=ROUND_CEILING))
if len(w) != max(n, 1):
    errs.append("%d windows for %s s" % (len(w), dur))

if errs:
    print("; ".join(errs[:5]))
    sys.exit(1)
print("total %s, %d cpus, %d clusters, %d tasks, %d windows" %
      (total["total"], len(d["cpus"]), len(d["clusters"]), len(d["tasks"]), len(w)))
EOF
	if [ $? -eq 0 ]; then ok "$1: sums exact ($(cat "$TMP/sums.out"))"
	else fail "$1: $(tail -n 3 "$TMP/sums.out")"; fi
}

# report_sums TRACE MODEL
report_sums() {
	name="$(basename "$(dirname "$1")")/$(basename "$1") with $(basename "$2" .json)"
	if "$EATRACE" report -q -m "$2" --interval 10 --format json "$1" >"$TMP/r.json" 2>"$TMP/err"; then
		check_sums "$name" "$TMP/r.json"
	else
		fail "$name: report exit $?: $(cat "$TMP/err")"
	fi
}

for f in "$SHARED"/lisa/*.dat "$SHARED"/lisa/*.txt "$SHARED"/trappy/*.dat \
	"$SHARED"/trappy/*.txt "$SHARED"/trappy/*.html "$SHARED"/idlestat/*.dat; do
	case $(basename "$f") in LICENSE*) continue ;; esac
	# Under make sanitize the three traces over 1 MB (~2.5 s of CPU a
	# report sanitized) are priced with juno-r0 only: the other models
	# take the same pricing code, sanitized here on the smaller traces.
	if [ "${EA_SANITIZE:-0}" = 1 ] && [ "$(wc -c <"$f")" -gt 1048576 ]; then
		report_sums "$f" juno-r0
		continue
	fi
	report_sums "$f" "$TMP/odd8.json"
	case $f in
	*/lisa/* | */trappy/tests__trace_idle.dat | */trappy/tests__trace_sched.txt)
		report_sums "$f" juno-r0
		report_sums "$f" juno-r0-eas ;;
	*/idlestat/Experiments__test03.dat)
		report_sums "$f" tc2 ;;
	*/idlestat/*)
		report_sums "$f" tc2-idlestat ;;
	esac
done

# ---------------------------------------------------------------------------
# 3. tests__assets__trace_txt__trace.txt has no cpu_frequency tracepoint
# (only devlib's "cpu_frequency_devlib" prints) and no cpu_idle: every busy
# second of its six CPUs is priced at the assumed OPP, and juno-r0 prices
# idle at 0 mW with no cluster power or wakeups, so that energy is the
# whole total (100.00%). One note says so, with each CPU's busy time
# (busy_s: 0.009164, 0.067745, 0.240236, 0.008204, 3.693665, 0.003197 s,
# 4.022211 s in all); one note says the six CPUs have no cpu_idle (their
# idle priced in WFI at 0 mW: 0.00%). The per-CPU lines of each are gone.
T=$SHARED/lisa/tests__assets__trace_txt__trace.txt
expect_eq "trace_txt: no cpu_frequency or cpu_idle tracepoint" \
	"$(grep -c ': cpu_frequency: \|: cpu_idle: ' "$T")" 0
"$EATRACE" report -q -m juno-r0 "$T" >"$TMP/n.txt" || fail "report $T"
expect_eq "trace_txt: one assumed-OPP note, with its energy and share" \
	"$(grep -c "busy with no frequency reported (no cpu_frequency event yet) on 6 CPU(s), 4.022211000 s (CPU 0 0.009164000 s, CPU 1 0.067745000 s, CPU 2 0.240236000 s, CPU 3 0.008204000 s, CPU 4 3.693665000 s, CPU 5 0.003197000 s), priced at the assumed OPP (--assume-opp KHZ; default the cluster's highest): 621.546293 mW x s, 100.00% of the total" "$TMP/n.txt")" 1
expect_eq "trace_txt: that energy is the total" \
	"$(sed -n 's/^total  *\([0-9.]*\) .*/\1/p' "$TMP/n.txt")" 621.546293
expect_eq "trace_txt: one no-cpu_idle note" \
	"$(grep -c "no cpu_idle events on 6 CPU(s): .* is priced in idle state 0 'WFI' (--idle-state N for another): 0.000000 mW x s, 0.00% of the total" "$TMP/n.txt")" 1
expect_eq "trace_txt: two notes in all" "$(sed -n '/^Notes:/,$p' "$TMP/n.txt" | grep -c '^  [a-z]')" 2

finish
