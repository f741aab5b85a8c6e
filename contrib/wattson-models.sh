#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Regenerate the bundled Wattson models (models/wattson-*.json) from a copy
# of Perfetto's Wattson curves laid out as ../shared/perfetto is:
#
#   contrib/wattson-models.sh PERFETTO_DIR [EATRACE] [OUTDIR]
#
# PERFETTO_DIR holds wattson/<SoC>/cpu_1d.csv, cpu_2d.csv and
# wattson/sql/device_infos.sql. Each model is 'eatrace model import --from
# wattson wattson/<SoC>' (run from PERFETTO_DIR, so that the source text
# names relative paths) under a comment stating origin and licence
# (models/README.md). tests/e2e/import-wattson-shared.sh checks that the
# bundled files are what this script writes.
#
# EATRACE may be relative (to the directory the script is run from); a
# bare name is looked up in PATH. Each model is written to a temporary
# file beside it that is removed on any exit and renamed into place only
# once complete: a failed step leaves the previous model (if any) and no
# partial file.
set -eu
src=$1
eatrace=${2:-$(cd "$(dirname "$0")/.." && pwd)/eatrace}
out=${3:-$(cd "$(dirname "$0")/.." && pwd)/models}
rev=ec5d16b
# the import runs from PERFETTO_DIR: a relative EATRACE must not follow it
case $eatrace in
/*) ;;
*/*) eatrace=$(cd "$(dirname "$eatrace")" && pwd)/$(basename "$eatrace") ;;
esac
tmp=
trap 'rm -f "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
for d in "$src"/wattson/*/; do
	soc=$(basename "$d")
	[ "$soc" = sql ] && continue
	name=wattson-$(echo "$soc" | tr 'A-Z_' 'a-z-')
	tmp=$out/.$name.json.tmp
	csv=$(cd "$d" && ls cpu_1d.csv cpu_2d.csv 2>/dev/null | paste -sd' ' | sed 's/ / and /')
	{
		echo "// Perfetto Wattson CPU power curves for $soc (google/perfetto @ $rev:"
		echo "// wattson/$soc/$csv, wattson/sql/device_infos.sql),"
		echo "// Copyright The Android Open Source Project, Apache License 2.0 (see"
		echo "// models/LICENSE.Apache-2.0 and models/README.md). Modified: converted by"
		echo "// 'eatrace model import --from wattson'; the reductions are in \"source\"."
		(cd "$src" && "$eatrace" model import --from wattson -q "wattson/$soc")
	} >"$tmp"
	mv "$tmp" "$out/$name.json"
	tmp=
	echo "$out/$name.json"
done
