#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: dat-compressed.sh runs the same comparisons sanitized (a sample of traces/) and edges.sh reads every shared trace sanitized
# dat-compressed.sh's comparisons on the shared reference traces.
. "$(dirname "$0")/lib.sh"
need_shared
DZ_SHARED=1 SHARED=$SHARED sh "$(dirname "$0")/dat-compressed.sh"
