#!/bin/sh
# power_profile.xml through libxml2: what a real XML parser adds (CDATA,
# character references) and the limits set for hostile files: no DTD (so no
# entity expansion and no external entities), no network, libxml2's depth
# limit. Every refusal is one line naming the file and line, exit 2, and no
# output file.
. "$(dirname "$0")/lib.sh"
has() { grep -qF -- "$2" "$1"; }

# CDATA and a character reference (&#53; is '5') now read as text. One
# cluster, one OPP: 1000 kHz, cap 1024 (the only OPP is the fastest),
# core_power 5 mA, CPUs 0-1 from cpu.clusters.cores.
cat >"$TMP/cdata.xml" <<'X'
<?xml version="1.0" encoding="utf-8"?>
<device name="Android">
  <array name="cpu.clusters.cores"><value>2</value></array>
  <array name="cpu.core_speeds.cluster0"><value><![CDATA[1000]]></value></array>
  <array name="cpu.core_power.cluster0"><value>&#53;</value></array>
</device>
X
if "$EATRACE" model import "$TMP/cdata.xml" -o "$TMP/cdata.json" -q 2>"$TMP/err"; then
	has "$TMP/cdata.json" '{ "freq_khz": 1000, "cap": 1024, "core_power": 5, "cluster_power": 0 }' &&
		ok "xml: CDATA and &#53; read" || fail "xml: CDATA/charref values: $(cat "$TMP/cdata.json")"
else
	fail "xml: CDATA import failed: $(cat "$TMP/err")"
fi

# billion laughs: refused at the DOCTYPE, nothing expanded
{
	echo '<?xml version="1.0"?>'
	echo '<!DOCTYPE device ['
	echo '<!ENTITY a "aaaaaaaaaa">'
	prev=a
	for n in b c d e f g h i j; do
		echo "<!ENTITY $n \"&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;&$prev;\">"
		prev=$n
	done
	echo ']>'
	echo '<device><item name="cpu.active">&j;</item></device>'
} >"$TMP/laughs.xml"
expect_fail "xml: billion laughs" 2 "laughs.xml:2: a DOCTYPE (DTD) is not accepted" -- \
	"$EATRACE" model import "$TMP/laughs.xml" -o "$TMP/laughs.json"
[ -e "$TMP/laughs.json" ] && fail "xml: output written on error" || ok "xml: no output on error"

# an external entity (XXE) naming a local file
printf '<?xml version="1.0"?>\n<!DOCTYPE device [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>\n<device><item name="cpu.active">&x;</item></device>\n' >"$TMP/xxe.xml"
expect_fail "xml: external entity" 2 "xxe.xml:2: a DOCTYPE (DTD) is not accepted" -- \
	"$EATRACE" model import "$TMP/xxe.xml"
# an external DTD over the network
printf '<?xml version="1.0"?>\n<!DOCTYPE device SYSTEM "http://192.0.2.1/x.dtd">\n<device/>\n' >"$TMP/net.xml"
expect_fail "xml: external DTD" 2 "net.xml:2: a DOCTYPE (DTD) is not accepted" -- \
	"$EATRACE" model import --from power-profile "$TMP/net.xml"

# 5000 nested elements: libxml2's depth limit (256) stops it
{
	echo '<device>'
	i=0
	while [ $i -lt 5000 ]; do printf '<a>'; i=$((i + 1)); done
	echo
	echo '</device>'
} >"$TMP/deep.xml"
expect_fail "xml: depth limit" 2 "deep.xml:2: XML: Excessive depth" -- \
	"$EATRACE" model import --from power-profile "$TMP/deep.xml"

# not well-formed: an attribute without quotes, one line with the position
printf '<device>\n<item name=cpu.active>1</item>\n</device>\n' >"$TMP/attr.xml"
expect_fail "xml: malformed attribute" 2 "attr.xml:2: XML: AttValue" -- \
	"$EATRACE" model import --from power-profile "$TMP/attr.xml"
finish
