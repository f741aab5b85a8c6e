#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: dat-par.sh and dat-par-compressed.sh run the -j 1 / -j 2 comparisons sanitized on traces/ and edges.sh reads every shared trace sanitized
# dat-par.sh's -j 1 / -j 2 comparisons on the shared reference traces.
. "$(dirname "$0")/lib.sh"
need_shared
# Under make sanitize the plain files only: the compressed forms' -j 2
# path (dat-chunks.c's helper thread) is compared sanitized on traces/ by
# dat-par-compressed.sh, and here it costs 4 s of CPU a run.
forms="plain zstd zlib"
[ "${EA_SANITIZE:-0}" = 1 ] && forms=plain
PAR_SHARED=1 PAR_FORMS="$forms" SHARED=$SHARED sh "$(dirname "$0")/dat-par.sh"
