#!/bin/sh
# Install the Debian packages eatrace needs to build and test, when missing.
set -e
PKGS="build-essential pkg-config clang libtraceevent-dev libtracefs-dev libtracecmd-dev libcmocka-dev libjson-c-dev trace-cmd libxml2-utils python3 zlib1g-dev libzstd-dev zstd protobuf-compiler python3-protobuf libyaml-dev libxml2-dev time libfdt-dev device-tree-compiler cpp python3-pandas python3-pytest python3-distributed libgsl-dev python3-scipy python3-bottleneck python3-numexpr python3-lz4 python3-certifi"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing (run as root or: sudo apt-get install$missing)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || apt-get update
# Without recommends (they doubled the packages: matplotlib, sympy, numba
# and the like, which no test imports; scipy for tests/e2e/diff.sh and the
# optional modules pandas and Dask load when present, bottleneck, numexpr,
# lz4 and certifi, are listed above), and without dpkg's fsync per file
# (a machine being set up)
apt-get install -y -qq --no-install-recommends \
	-o Dpkg::Options::=--force-unsafe-io $missing >/dev/null
