#!/bin/sh
# eatrace diff --models A B where the two models' tables differ: clusters
# paired by index, P-states matched by frequency, C-states by name; a
# state (or cluster) that one model lacks has an absent share on that side
# (null in JSON, "-" in text), never a value read past that model's tables
# (which gave garbage such as 1.55e-310, different from run to run).
# Two small hand-written models and a hand-written 10 ms trace, so every
# share is worked out here by hand.
. "$(dirname "$0")/lib.sh"

# Model A: big (CPU 0) with 4 OPPs and 3 C-states; little (CPU 1).
cat > "$TMP/a.json" <<'EOF'
{ "eatrace_model": 1, "name": "Model A", "power_unit": "mW",
  "clusters": [
    { "name": "big", "cpus": [0], "freq_domain": true,
      "cap_states": [
        { "freq_khz":  400000, "cap":  400, "core_power": 100, "cluster_power": 10 },
        { "freq_khz":  500000, "cap":  512, "core_power": 150, "cluster_power": 10 },
        { "freq_khz":  800000, "cap":  819, "core_power": 300, "cluster_power": 10 },
        { "freq_khz": 1000000, "cap": 1024, "core_power": 500, "cluster_power": 10 } ],
      "idle_states": [
        { "name": "WFI", "core_power": 5, "cluster_power": 5 },
        { "name": "C1", "core_power": 0, "cluster_power": 5 },
        { "name": "C2", "core_power": 0, "cluster_power": 0 } ] },
    { "name": "little", "cpus": [1], "freq_domain": true,
      "cap_states": [ { "freq_khz": 500000, "cap": 300, "core_power": 50, "cluster_power": 5 } ],
      "idle_states": [
        { "name": "WFI", "core_power": 2, "cluster_power": 2 },
        { "name": "off", "core_power": 0, "cluster_power": 0 } ] } ] }
EOF
# Model B: big with 2 OPPs (600 MHz its own, 1 GHz shared with A) and
# C-states WFI, deep; little's state 1 named "sleep"; a third cluster
# "extra" (CPU 2, absent from the trace) that A does not have.
cat > "$TMP/b.json" <<'EOF'
{ "eatrace_model": 1, "name": "Model B", "power_unit": "mW",
  "clusters": [
    { "name": "big", "cpus": [0], "freq_domain": true,
      "cap_states": [
        { "freq_khz":  600000, "cap":  614, "core_power": 200, "cluster_power": 10 },
        { "freq_khz": 1000000, "cap": 1024, "core_power": 400, "cluster_power": 10 } ],
      "idle_states": [
        { "name": "WFI", "core_power": 5, "cluster_power": 5 },
        { "name": "deep", "core_power": 0, "cluster_power": 0 } ] },
    { "name": "little", "cpus": [1], "freq_domain": true,
      "cap_states": [ { "freq_khz": 500000, "cap": 300, "core_power": 50, "cluster_power": 5 } ],
      "idle_states": [
        { "name": "WFI", "core_power": 2, "cluster_power": 2 },
        { "name": "sleep", "core_power": 0, "cluster_power": 0 } ] },
    { "name": "extra", "cpus": [2], "freq_domain": true,
      "cap_states": [ { "freq_khz": 300000, "cap": 200, "core_power": 20, "cluster_power": 2 } ],
      "idle_states": [ { "name": "WFI", "core_power": 1, "cluster_power": 1 } ] } ] }
EOF
# 10 ms (100.000 .. 100.010 s): CPU 0 runs taskA at 1 GHz for 4 ms, then
# idles in state 0 (WFI) for 6 ms; CPU 1 runs taskB at 500 MHz for 2 ms,
# then idles in state 1 (A: "off", B: "sleep") for 8 ms.
cat > "$TMP/t.txt" <<'EOF'
# tracer: nop
#
cpus=2
          <idle>-0     [000] d..2.    100.000000: cpu_frequency: state=1000000 cpu_id=0
          <idle>-0     [001] d..2.    100.000000: cpu_frequency: state=500000 cpu_id=1
          <idle>-0     [000] d..2.    100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=taskA next_pid=1001 next_prio=120
          <idle>-0     [001] d..2.    100.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=taskB next_pid=1002 next_prio=120
           taskB-1002  [001] d..2.    100.002000: sched_switch: prev_comm=taskB prev_pid=1002 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0     [001] d..2.    100.002000: cpu_idle: state=1 cpu_id=1
           taskA-1001  [000] d..2.    100.004000: sched_switch: prev_comm=taskA prev_pid=1001 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [000] d..2.    100.004000: cpu_idle: state=0 cpu_id=0
          <idle>-0     [000] d..2.    100.010000: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0     [001] d..2.    100.010000: cpu_idle: state=4294967295 cpu_id=1
EOF
cp "$TMP/t.txt" "$TMP/t2.txt"

"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" -f json "$TMP/t.txt" >"$TMP/1.json" 2>"$TMP/err"
expect_eq "--models, different tables: json exit" "$?" "0"
# Expected, by hand (share = time / 10 ms window; both models price the
# same trace, so a state both have gets the same share on both sides):
#   big: 1 GHz 4/10 = 0.4 on both sides; 400, 500, 800 MHz are A's only:
#     0 (A) / null (B); 600 MHz is B's only: null (A) / 0 (B). Rows in
#     ascending frequency. C-states: WFI 6/10 = 0.6 on both; C1, C2 A's
#     only: 0 / null; deep B's only: null / 0.
#   big energy: A 4 ms x (500 + 10) + 6 ms x (5 + 5) = 2.04 + 0.06 = 2.1;
#     B 4 ms x (400 + 10) + 0.06 = 1.7 (mW x s).
#   little: 500 MHz 2/10 = 0.2 on both; WFI 0 on both; state 1 for 8/10:
#     "off" 0.8 (A) / null (B), "sleep" null (A) / 0.8 (B).
#   extra: B's only: energy null (A) / 0 (B, no CPU of it in the trace);
#     300 MHz and WFI null (A) / 0 (B).
# Before the fix the big rows read B's two-entry table at A's indices:
# 500 MHz showed B's 1 GHz share (0.4), 1 GHz a value past the array.
/usr/bin/python3 - "$TMP/1.json" <<'PY' && ok "--models, different tables: shares by frequency and name" || fail "--models shares: $(sed -n '/clusters/,$p' "$TMP/1.json" | tr -d ' \n' | head -c 1500)"
import json, sys
d = json.load(open(sys.argv[1]))
N = None
def rows(cl, key, name):
    return [(r[name], r["share_base"], r["share_new"]) for r in cl[key]]
def close(got, want):
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        assert g[0] == w[0], (got, want)
        for x, y in zip(g[1:], w[1:]):
            assert (x is None and y is None) or (x is not None and y is not None and abs(x - y) < 1e-12), (got, want)
cl = d["attribution"]["clusters"]
assert [c["name"] for c in cl] == ["big", "little", "extra"], cl
assert all("name_new" not in c for c in cl)
close(rows(cl[0], "pstates", "freq_khz"),
      [(400000, 0, N), (500000, 0, N), (600000, N, 0), (800000, 0, N), (1000000, 0.4, 0.4)])
close(rows(cl[0], "cstates", "name"),
      [("WFI", 0.6, 0.6), ("C1", 0, N), ("C2", 0, N), ("deep", N, 0)])
assert abs(cl[0]["energy_base"] - 2.1) < 1e-9 and abs(cl[0]["energy_new"] - 1.7) < 1e-9, cl[0]
close(rows(cl[1], "pstates", "freq_khz"), [(500000, 0.2, 0.2)])
close(rows(cl[1], "cstates", "name"), [("WFI", 0, 0), ("off", 0.8, N), ("sleep", N, 0.8)])
assert cl[2]["energy_base"] is None and cl[2]["energy_new"] == 0, cl[2]
close(rows(cl[2], "pstates", "freq_khz"), [(300000, N, 0)])
close(rows(cl[2], "cstates", "name"), [("WFI", N, 0)])
PY

# Deterministic: the same bytes from run to run, and with -j 2.
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" -f json "$TMP/t.txt" >"$TMP/2.json" 2>/dev/null
cmp -s "$TMP/1.json" "$TMP/2.json" && ok "--models json: two runs, same bytes" || fail "--models json differs between runs"
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" -f json -j 1 "$TMP/t.txt" "$TMP/t2.txt" >"$TMP/j1.json" 2>/dev/null
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" -f json -j 2 "$TMP/t.txt" "$TMP/t2.txt" >"$TMP/j2.json" 2>/dev/null
cmp -s "$TMP/j1.json" "$TMP/j2.json" && ok "--models json: -j 2 same bytes as -j 1" || fail "--models json -j 2 differs"

# Text: the same rows, "-" for the absent side; rows where both sides are
# 0 or absent are left out (as before).
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" "$TMP/t.txt" >"$TMP/1.txt" 2>/dev/null
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" "$TMP/t.txt" >"$TMP/2.txt" 2>/dev/null
cmp -s "$TMP/1.txt" "$TMP/2.txt" && ok "--models text: two runs, same bytes" || fail "--models text differs between runs"
sed -n '/^cluster /,/^$/p' "$TMP/1.txt" | tr -s ' ' >"$TMP/rows"
cat >"$TMP/want" <<'EOF'
cluster big 2.1 1.7 -19.05%
 1000000 40.00% 40.00% of time
 WFI 60.00% 60.00% of time
cluster little 0.11 0.11 +0.00%
 500000 20.00% 20.00% of time
 off 80.00% - of time
 sleep - 80.00% of time
cluster extra - 0 -

EOF
# (big: (1.7 - 2.1) / 2.1 = -19.05%; little: 2 ms x 55 + 8 ms x 0 = 0.11
# on both sides)
cmp -s "$TMP/rows" "$TMP/want" && ok "--models text rows" || fail "--models text rows: $(cat "$TMP/rows")"

# Markdown and HTML: the extra cluster, "-" / no bar on the side without it.
"$EATRACE" diff --models "$TMP/a.json" "$TMP/b.json" -f markdown --html "$TMP/d.html" "$TMP/t.txt" >"$TMP/d.md" 2>/dev/null
grep -qx '| cluster extra | - | 0 | - |' "$TMP/d.md" && ok "--models markdown: absent cluster" || fail "--models markdown: $(cat "$TMP/d.md")"
grep -q 'data-side="base">none in this model</text>' "$TMP/d.html" && ok "--models html: absent cluster" || fail "--models html"

finish
