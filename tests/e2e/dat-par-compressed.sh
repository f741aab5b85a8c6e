#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dat-par.sh's -j 1 / -j 2 comparisons on traces/ converted to compressed
# v7, zstd and zlib.
PAR_FORMS="zstd zlib" sh "$(dirname "$0")/dat-par.sh"
