#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Model files written by 'eatrace model import' and 'model convert' are
# valid UTF-8 JSON whatever bytes the names hold: a model, cluster or
# idle-state name is escaped as every JSON writer of eatrace escapes a
# name (include/eatrace/escape.h, docs/robustness.md): each byte that is
# not part of valid UTF-8 as \ufffd, a C1 control as \u00XX, "</" as "<\/",
# valid UTF-8 as is. Read back, such a name is U+FFFD where the bytes were.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
FX=$ROOT/tests/fixtures/import/wattson
[ -x $PY ] || skip "no $PY"

# strict_utf8 NAME FILE: FILE decodes as UTF-8 and parses as JSON
# (after the model format's leading // comment lines)
strict_utf8() {
	if $PY -c 'import json, sys
t = open(sys.argv[1], encoding="utf-8", errors="strict").read()
json.loads("\n".join(l for l in t.split("\n") if not l.startswith("//")))' "$2" 2>"$TMP/py.err"; then
		ok "$1: valid UTF-8 and JSON"
	else
		fail "$1: $(tail -n 1 "$TMP/py.err")"
	fi
}
# line_of FILE PATTERN: the first line of FILE holding PATTERN, its
# leading blanks removed
line_of() { grep -aF -m 1 -- "$2" "$1" | sed 's/^ *//'; }

# import --name: 0xff is no UTF-8 (U+FFFD), c2 9b is U+009B (a C1
# control: \u009b), then "</" and "ü" (c3 bc, kept as the two bytes)
"$EATRACE" model import --from wattson "$FX/toy" -q -o "$TMP/imp.json" \
	--name "$(printf 'a\377b\302\233c</d\303\274')" 2>"$TMP/err" ||
	fail "import --name: $(cat "$TMP/err")"
expect_eq "import: the name escaped" "$(line_of "$TMP/imp.json" '"name": "a')" \
	"$(printf '"name": "a\\ufffdb\\u009bc<\\/d\303\274",')"
strict_utf8 "import" "$TMP/imp.json"

# convert of a hand-written model with raw bytes in a cluster's name
# (fe: never UTF-8) and an idle state's (c0 80: an overlong NUL, two
# invalid bytes, two U+FFFD)
printf '{ "eatrace_model": 1, "name": "m", "power_unit": "mW", "clusters": [ {
  "name": "p\3762", "cpus": [0],
  "cap_states": [ { "freq_khz": 1000, "cap": 1024, "core_power": 10, "cluster_power": 1 } ],
  "idle_states": [ { "name": "i\300\2000", "core_power": 1, "cluster_power": 0 } ] } ] }\n' >"$TMP/raw.json"
"$EATRACE" model convert "$TMP/raw.json" -q -o "$TMP/conv.json" 2>"$TMP/err" ||
	fail "convert: $(cat "$TMP/err")"
expect_eq "convert: the cluster name escaped" "$(line_of "$TMP/conv.json" '"name": "p')" '"name": "p\ufffd2",'
expect_eq "convert: the idle state name escaped" "$(line_of "$TMP/conv.json" '"name": "i' | cut -d, -f1)" \
	'{ "name": "i\ufffd\ufffd0"'
strict_utf8 "convert" "$TMP/conv.json"

# read back: U+FFFD (ef bf bd) where the bytes were, as a JSON reader reads
# \ufffd; written again it is valid UTF-8, so stays as it is (raw)
"$EATRACE" model convert "$TMP/conv.json" -q -o "$TMP/again.json" 2>"$TMP/err" ||
	fail "convert again: $(cat "$TMP/err")"
expect_eq "read back: the cluster name" "$(line_of "$TMP/again.json" '"name": "p')" \
	"$(printf '"name": "p\357\277\2752",')"
expect_eq "read back: the idle state name" "$(line_of "$TMP/again.json" '"name": "i' | cut -d, -f1)" \
	"$(printf '{ "name": "i\357\277\275\357\277\2750"')"
"$EATRACE" model convert "$TMP/imp.json" -q -o "$TMP/imp2.json" 2>"$TMP/err" ||
	fail "convert of the import: $(cat "$TMP/err")"
expect_eq "read back: the model name" "$(line_of "$TMP/imp2.json" '"name": "a')" \
	"$(printf '"name": "a\357\277\275b\\u009bc<\\/d\303\274",')"
strict_utf8 "read back" "$TMP/again.json"

# a name must load back as written, so its length and uniqueness count in
# that form: 21 bytes ff are 63 bytes written (the most a name may be),
# "x" and 21 ff 64; "p"+fe and "p"+ff both read back "p"+U+FFFD
ff21=$(printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377')
"$EATRACE" model import --from wattson "$FX/toy" -q -o "$TMP/n63.json" --name "$ff21" 2>"$TMP/err"
expect_eq "name of 63 bytes as written: imported" "$?:$(cat "$TMP/err")" "0:"
expect_fail "name of 64 bytes as written: refused" 2 \
	"toy: name: model name too long as written (64 bytes, each byte that is not UTF-8 as U+FFFD; at most 63)" -- \
	"$EATRACE" model import --from wattson "$FX/toy" -q -o "$TMP/n64.json" --name "x$ff21"
[ -e "$TMP/n64.json" ] && fail "name of 64 bytes: an output file" || ok "name of 64 bytes: no output file"
sed "s/$(printf '"p\3762"')/\"$(printf 'x%s' "$ff21")\"/" "$TMP/raw.json" >"$TMP/long.json"
expect_fail "model file: cluster name too long as written" 2 \
	"long.json:2: clusters[0].name: cluster name too long as written (64 bytes, each byte that is not UTF-8 as U+FFFD; at most 63)" -- \
	"$EATRACE" model show "$TMP/long.json"
printf '{ "eatrace_model": 1, "name": "m", "power_unit": "mW", "clusters": [ {
  "name": "p\376", "cpus": [0],
  "cap_states": [ { "freq_khz": 1000, "cap": 1024, "core_power": 10, "cluster_power": 1 } ] }, {
  "name": "p\377", "cpus": [1],
  "cap_states": [ { "freq_khz": 1000, "cap": 1024, "core_power": 10, "cluster_power": 1 } ] } ] }\n' >"$TMP/dup.json"
expect_fail "model file: names alike as written are duplicates" 2 \
	"dup.json:4: clusters[1].name: duplicate cluster name 'p\xff' (also clusters[0], once each byte that is not UTF-8 is U+FFFD)" -- \
	"$EATRACE" model show "$TMP/dup.json"
finish
