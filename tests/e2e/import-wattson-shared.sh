#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every SoC of Perfetto's Wattson curves (../shared/perfetto/wattson)
# imports with all its CPUs: one cluster per policy of device_infos.sql's
# _cpu_to_policy_map (read here with a regular expression, not with
# eatrace), each CPU in the cluster of its policy, OPPs as many as the
# distinct freq_khz of the policy's rows; and the bundled wattson-*.json
# models are what contrib/wattson-models.sh writes from these files.
. "$(dirname "$0")/lib.sh"
need_shared
P=$SHARED/../perfetto
[ -f "$P/wattson/sql/device_infos.sql" ] || skip "needs $P/wattson (Perfetto's Wattson curves)"
PY=/usr/bin/python3
[ -x $PY ] || skip "needs $PY"

n=0
: >"$TMP/list"
for d in "$P"/wattson/*/; do
	soc=$(basename "$d")
	[ "$soc" = sql ] && continue
	n=$((n + 1))
	if ! "$EATRACE" model import --from wattson "$d" -o "$TMP/$soc.json" -q 2>"$TMP/err"; then
		fail "$soc: import failed: $(cat "$TMP/err")"
		continue
	fi
	"$EATRACE" model show -f json "$TMP/$soc.json" >"$TMP/$soc.show" ||
		fail "$soc: model show failed"
	echo "$soc $d $TMP/$soc.show" >>"$TMP/list"
done
[ $n -ge 9 ] && ok "$n SoCs" || fail "only $n SoCs in $P/wattson"

# expected: {policy: [cpus]} from the SQL, OPP counts from the CSVs
# (cpu_1d.csv first; a policy only in cpu_2d.csv: its distinct freq_khz),
# compared with model show's JSON; one line per SoC
cat >"$TMP/check.py" <<'EOF'
import csv, json, os, re, sys
sql, lst = sys.argv[1:3]
text = open(sql).read()
block = text[text.index('_cpu_to_policy_map AS'):]
block = block[:block.index('SELECT * FROM data')]
for line in open(lst):
    soc, d, show = line.split()
    rows = {}
    for i, f in enumerate(('cpu_1d.csv', 'cpu_2d.csv')):
        if os.path.exists(os.path.join(d, f)):
            for r in csv.DictReader(open(os.path.join(d, f))):
                rows.setdefault(r['device'], {}).setdefault(
                    int(r['policy']), [set(), set()])[i].add(int(r['freq_khz']))
    (dev,) = rows.keys()
    pol = {}
    for name, cpu, p in re.findall(r'\(\s*"([^"]+)"\s*,\s*(\d+)\s*,\s*(\d+)\s*\)', block):
        if name == dev:
            pol.setdefault(int(p), []).append(int(cpu))
    m = json.load(open(show))
    got = {int(c['name'][len('policy'):]): (sorted(c['cpus']), len(c['cap_states']))
           for c in m['clusters']}
    want = {p: (sorted(c), len(rows[dev][p][0] or rows[dev][p][1])) for p, c in pol.items()}
    ncpu = sum(len(c) for c in pol.values())
    if got == want:
        print('ok %s: %d CPUs in %d policies, OPPs as in the CSV' % (dev, ncpu, len(pol)))
    else:
        print('FAIL %s: got %s want %s' % (dev, got, want))
EOF
$PY "$TMP/check.py" "$P/wattson/sql/device_infos.sql" "$TMP/list" >"$TMP/cmp" 2>&1
while read -r st rest; do
	if [ "$st" = ok ]; then ok "$rest"; else fail "$st $rest"; fi
done <"$TMP/cmp"
[ "$(grep -c '^ok' "$TMP/cmp")" = "$n" ] && ok "every SoC checked" || fail "SoCs checked: $(cat "$TMP/cmp")"

# the bundled models are the import of these files
mkdir -p "$TMP/models"
sh "$ROOT/contrib/wattson-models.sh" "$P" "$EATRACE" "$TMP/models" >/dev/null 2>"$TMP/err" ||
	fail "contrib/wattson-models.sh: $(cat "$TMP/err")"
for m in "$ROOT"/models/wattson-*.json; do
	cmp -s "$m" "$TMP/models/$(basename "$m")" && ok "bundled $(basename "$m") = its import" ||
		fail "bundled $(basename "$m") differs from contrib/wattson-models.sh's output"
done
[ "$(ls "$TMP/models" | wc -l)" = "$(ls "$ROOT"/models/wattson-*.json | wc -l)" ] &&
	ok "every SoC bundled" || fail "SoCs not bundled: $(ls "$TMP/models")"
finish
