#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: Chromium renders them (html*.sh write them sanitized)
# The three --html pages (report, diff, replay) in a real browser, headless
# Chromium from Debian (installed here when missing, else skipped): each
# renders with no console message at all (the pages carry no script, so
# any is an error), no text of an SVG drawn outside it (a clipped label,
# e.g. a task "memfd:sealed-91 (32476)" cut at the left edge), no
# horizontal overflow of the page, and the parts issue 30 asks for are on
# screen: the model-check warning, the inference headline and the notes
# (report), each run with its value (diff), the work and energy-per-work
# columns (replay). Screenshots of the three pages are kept in
# $EA_SCREENSHOTS (default build/html-browser) and their paths printed.
# Chromium is heavy (12 s of CPU for the three pages), but needs
# nothing of the machine to itself: it runs beside the other tests, first
# (the Makefile's FIRST), so that its installation on a fresh machine
# overlaps them; each page has 120 s.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1

if ! command -v chromium >/dev/null 2>&1; then
	# ~80 MB from Debian's archive: too big for every CI run (.ci/deps.sh),
	# installed by the test that needs it
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "installing chromium (apt-get install --no-install-recommends chromium)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			chromium >"$TMP/apt.log" 2>&1 ||
			{ DEBIAN_FRONTEND=noninteractive apt-get update -qq >>"$TMP/apt.log" 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				--no-install-recommends chromium >>"$TMP/apt.log" 2>&1; }
	fi
	command -v chromium >/dev/null 2>&1 ||
		skip "no chromium, and it could not be installed ($(tail -n 1 "$TMP/apt.log" 2>/dev/null || echo 'not root'))"
fi

SHOTS=${EA_SCREENSHOTS:-$ROOT/build/html-browser}
mkdir -p "$SHOTS" || exit 1

# browser FILE.html ARGS...: headless Chromium on FILE with its own profile
# under $TMP, console messages to $TMP/console (stderr), nothing from the
# network.
browser() {
	page=$1
	shift
	DBUS_SESSION_BUS_ADDRESS=disabled: timeout 120 chromium --headless --no-sandbox \
		--disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-extensions \
		--disable-dev-shm-usage --user-data-dir="$TMP/profile" \
		--enable-logging=stderr --v=0 --window-size=1200,3000 "$@" "file://$page" \
		2>"$TMP/console"
}

# The script added to a copy of a page: where each SVG text is drawn
# against its SVG, whether the page is wider than the window, and the
# size of the elements that must be on screen; written into the DOM that
# --dump-dom prints.
cat >"$TMP/check.js" <<'JS'
(function () {
  var out = { clipped: [], overflow: 0, shown: {} };
  var svgs = document.getElementsByTagName('svg');
  for (var i = 0; i < svgs.length; i++) {
    var box = svgs[i].getBoundingClientRect();
    var texts = svgs[i].getElementsByTagName('text');
    for (var k = 0; k < texts.length; k++) {
      var r = texts[k].getBoundingClientRect();
      if (r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5 ||
                          r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5))
        out.clipped.push((svgs[i].getAttribute('data-chart') || '?') + ': ' +
                         texts[k].textContent + ' [' + Math.round(r.left) + '..' +
                         Math.round(r.right) + ' of ' + Math.round(box.left) + '..' +
                         Math.round(box.right) + ']');
    }
  }
  out.overflow = document.documentElement.scrollWidth - window.innerWidth;
  var want = document.body.getAttribute('data-want').split(' ');
  for (var w = 0; w < want.length; w++) {
    var el = document.querySelector(want[w]);
    var r2 = el ? el.getBoundingClientRect() : null;
    out.shown[want[w]] = r2 ? [Math.round(r2.width), Math.round(r2.height)] : null;
  }
  document.body.setAttribute('data-check', JSON.stringify(out));
})();
JS

# check NAME PAGE SELECTOR...: the page in the browser (see the top).
check() {
	name=$1 page=$2
	shift 2
	cp "$page" "$SHOTS/$name.html"
	if ! browser "$SHOTS/$name.html" --screenshot="$SHOTS/$name.png" >/dev/null; then
		fail "$name: chromium failed: $(grep -v dbus "$TMP/console" | tail -n 3)"
		return
	fi
	if grep -q 'CONSOLE' "$TMP/console"; then
		fail "$name: console messages: $(grep CONSOLE "$TMP/console" | head -n 3)"
	else
		ok "$name: renders with no console message"
	fi
	if /usr/bin/python3 - "$SHOTS/$name.png" <<'PY'
import struct, sys
head = open(sys.argv[1], 'rb').read(24)
assert head[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
w, h = struct.unpack('>II', head[16:24])
assert (w, h) == (1200, 3000), (w, h)
PY
	then
		ok "$name: screenshot $SHOTS/$name.png"
		echo "screenshot: $SHOTS/$name.png"
	else
		fail "$name: no 1200x3000 PNG screenshot"
	fi
	# a copy with the checking script: the layout the browser made
	/usr/bin/python3 - "$page" "$TMP/checked.html" "$TMP/check.js" "$*" <<'PY'
import sys
html = open(sys.argv[1], encoding='utf-8').read()
js = open(sys.argv[3]).read()
html = html.replace('<body>', '<body data-want="%s">' % sys.argv[4], 1)
html = html.replace('</body>', '<script>%s</script>\n</body>' % js, 1)
open(sys.argv[2], 'w', encoding='utf-8').write(html)
PY
	if ! browser "$TMP/checked.html" --dump-dom >"$TMP/dom.html"; then
		fail "$name: chromium --dump-dom failed"
		return
	fi
	grep -q 'CONSOLE' "$TMP/console" &&
		fail "$name: the check script failed: $(grep CONSOLE "$TMP/console" | head -n 2)"
	if /usr/bin/python3 - "$TMP/dom.html" >"$TMP/py" 2>&1 <<'PY'
import html, json, re, sys
dom = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'data-check="([^"]*)"', dom)
assert m, 'the check script wrote nothing'
res = json.loads(html.unescape(m.group(1)))
assert not res['clipped'], 'text outside its SVG: %s' % res['clipped'][:5]
assert res['overflow'] <= 0, 'page wider than the window by %s px' % res['overflow']
for sel, size in res['shown'].items():
    assert size and size[0] > 0 and size[1] > 0, 'not on screen: %s (%s)' % (sel, size)
print('%d elements on screen' % len(res['shown']))
PY
	then
		ok "$name: no text clipped, no overflow, $(cat "$TMP/py")"
	else
		fail "$name: $(tail -n 1 "$TMP/py")"
	fi
}

# A Juno model that fails 'model check' (A53 idle state 1 draws more
# core power than state 0), for the warning.
"$EATRACE" model convert juno-r0 | /usr/bin/python3 -c '
import json, sys
m = json.load(sys.stdin)
m["clusters"][0]["idle_states"][1]["core_power"] = 5
json.dump(m, sys.stdout)' >"$TMP/bad.json"
"$EATRACE" model check "$TMP/bad.json" >/dev/null 2>&1
expect_eq "the model fails model check" "$?" 1

# report: light-3 has memfd:sealed-91 (32476) among its top tasks
T=traces/diff
"$EATRACE" report -q -m "$TMP/bad.json" "$T/light-3.dat" --html "$TMP/report.html" >/dev/null ||
	fail "report --html failed"
grep -q 'memfd:sealed-91 (32476)' "$TMP/report.html" || fail "report: the long task label is missing"
check report "$TMP/report.html" '.warn' '#inference' '#notes' 'svg[data-chart=tasks]'

# diff: a heavy run among light ones, an outlier of its side
"$EATRACE" diff -m "$TMP/bad.json" --base "$T"/light-1.dat "$T"/light-2.dat "$T"/light-3.dat \
	"$T"/light-4.dat "$T"/heavy-1.dat --new "$T"/heavy-2.dat "$T"/heavy-3.dat \
	--html "$TMP/diff.html" >/dev/null 2>&1
[ -s "$TMP/diff.html" ] || fail "diff --html wrote nothing"
check diff "$TMP/diff.html" '.warn' 'svg[data-chart=runs]' 'table[data-table=runs]' \
	'circle[data-outlier]'

# replay: the work and energy-per-work columns
"$EATRACE" replay -q -m juno-r0 "$T/light-1.dat" --html "$TMP/replay.html" >/dev/null ||
	fail "replay --html failed"
check replay "$TMP/replay.html" 'table[data-table=performance]' 'td[data-work]' \
	'td[data-energy-per-work]'
finish
