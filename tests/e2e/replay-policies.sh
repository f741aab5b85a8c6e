#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `eatrace replay`: what the placement policies, governors and CPU mapping
# claim (docs/replay.md "Policies").
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1

# energy TOTALS.json POLICY: that policy's energy total
energy() { /usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
print([p for p in d['policies'] if p['name']==sys.argv[2]][0]['energy']['total'])" "$1" "$2"; }

# 1. pack and spread are heuristics: nothing calls them bounds, and pack
#    indeed costs more than eas-rfc on the seven short periodic tasks.
"$EATRACE" replay --help >"$TMP/help"
if grep -qi "bound:" "$TMP/help" || ! grep -q "heuristics, not bounds" "$TMP/help"; then
	fail "replay --help calls pack/spread bounds"
else ok "--help: pack and spread are heuristics"; fi
if grep -n -i -E "(pack|spread)[^.]*\<bounds?\>" README.md docs/replay.md docs/eatrace.1 |
	grep -v -i "not bounds\|not a bound"; then
	fail "docs call pack/spread bounds"
else ok "docs: pack and spread are heuristics"; fi
"$EATRACE" replay traces/replay/seven-periodic.txt --source-capacity 1024 \
	--target-model tc2 --policy eas-rfc,pack -f json >"$TMP/p.json" ||
	fail "replay seven-periodic"
if /usr/bin/python3 -c "import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))" \
	"$(energy "$TMP/p.json" pack)" "$(energy "$TMP/p.json" eas-rfc)"; then
	ok "pack is no lower bound (costs more than eas-rfc)"
else fail "pack cost no more than eas-rfc here"; fi

finish
