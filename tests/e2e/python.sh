#!/bin/sh
# The Python package (python/eatrace, ctypes over libeatrace.so.0) under
# pytest: skipped without pytest or pandas, and under the sanitizers (an
# instrumented library cannot be loaded into an uninstrumented python).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || skip "no /usr/bin/python3"
$PY -c 'import pytest, pandas' 2>/dev/null || skip "python3-pytest or python3-pandas missing"
case "${MAKEFLAGS:-}" in *fsanitize*) skip "library built with sanitizers" ;; esac
LIB=$(dirname "$EATRACE")/build/libeatrace.so.0
[ -f "$LIB" ] || skip "no $LIB (make builds it)"
cd "$TMP" || exit 1
PYTHONDONTWRITEBYTECODE=1 EATRACE_LIB=$LIB EATRACE=$EATRACE $PY -m pytest -q -p no:cacheprovider "$ROOT/python/tests" ||
	fail "pytest"
finish
