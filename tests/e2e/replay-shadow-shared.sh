#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `replay --shadow` on every public trace (../shared/traces): it runs, and
# the decisions add up (the agreement itself is reported in docs/replay.md,
# whatever it is). Traces without sched_wakeup have no decision.
. "$(dirname "$0")/lib.sh"
need_shared
for t in idlestat/Experiments__test01.dat:tc2-idlestat \
	 lisa/tests__assets__sched_load__trace.dat:juno-r0 \
	 lisa/tests__assets__trace_txt__trace.txt:juno-r0 \
	 trappy/tests__trace_sched.txt:juno-r0 \
	 trappy/tests__trace_surfaceflinger.html:juno-r0; do
	f=${t%%:*} m=${t#*:}
	for p in feec eas-rfc cfs; do
		"$EATRACE" replay "$SHARED/$f" -m "$m" --shadow $p -f json >"$TMP/s.json" \
			2>"$TMP/err" || { fail "shadow $p $f: $(cat "$TMP/err")"; continue; }
		r=$(/usr/bin/python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); k=d['kinds']
n=sum(v['decisions'] for v in k.values()); a=sum(v['agree'] for v in k.values())
ok = n == d['decisions'] and a == d['agree'] and a <= n
print('ok' if ok else 'bad', '%d/%d' % (a, n))" "$TMP/s.json")
		case $r in ok*) ok "shadow $p $f: ${r#ok }" ;; *) fail "shadow $p $f: $r" ;; esac
	done
done
finish
