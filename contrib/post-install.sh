#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run by `make install` after the library and the Python package are in
# place: LIBDIR PYDIR PYTHON (and DESTDIR from the environment).
#
# - Installing to the system (no DESTDIR, as root) into a directory the
#   dynamic loader searches (ldconfig's list): runs ldconfig, so that
#   programs find the new libeatrace.so.0 at once. Elsewhere (a staging
#   DESTDIR, a private PREFIX) nothing outside the install is touched: a
#   note says how programs find the library there.
# - Says whether PYTHON imports the package from PYDIR as it is, or which
#   PYTHONPATH to set.
libdir=$1 pydir=$2 python=$3
if [ -n "${DESTDIR:-}" ]; then
	echo "install: staged under DESTDIR=$DESTDIR: no ldconfig"
	exit 0
fi
lib=$(realpath -e "$libdir" 2>/dev/null || echo "$libdir")
if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null &&
	ldconfig -N -X -v 2>/dev/null | sed -n 's/^\(\/[^:]*\):.*/\1/p' |
	while read -r d; do realpath -e "$d" 2>/dev/null; done | grep -qxF "$lib"; then
	ldconfig && echo "install: ldconfig run ($libdir is on the loader's path)"
else
	echo "install: $libdir is not a directory the dynamic loader searches (or not root):"
	echo "  no ldconfig; C programs need LD_LIBRARY_PATH=$libdir (or -Wl,-rpath,$libdir);"
	echo "  the Python package loads the library beside it by itself"
fi
if [ -x "$python" ]; then
	if "$python" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$pydir" 2>/dev/null; then
		echo "install: Python package in $pydir, on $python's path"
	else
		echo "install: Python package in $pydir, not on $python's path:"
		echo "  PYTHONPATH=$pydir $python -c 'import eatrace'"
	fi
fi
