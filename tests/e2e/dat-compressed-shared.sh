#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dat-compressed.sh's comparisons on the shared reference traces.
. "$(dirname "$0")/lib.sh"
need_shared
DZ_SHARED=1 SHARED=$SHARED sh "$(dirname "$0")/dat-compressed.sh"
