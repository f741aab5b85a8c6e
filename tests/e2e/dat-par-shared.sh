#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dat-par.sh's -j 1 / -j 2 comparisons on the shared reference traces.
. "$(dirname "$0")/lib.sh"
need_shared
PAR_SHARED=1 PAR_FORMS="plain zstd zlib" SHARED=$SHARED sh "$(dirname "$0")/dat-par.sh"
