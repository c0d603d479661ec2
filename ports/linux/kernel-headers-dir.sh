#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the build directory (KDIR) of the Linux headers Debian's
# linux-headers-amd64 package installed: /usr/src/linux-headers-<ABI>-amd64,
# the one that package depends on (the newest if it cannot be read). Fails
# with a message when the package is not installed.
set -euo pipefail
dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	sed -n 's/.*\(linux-headers-[0-9][^ ,]*-amd64\).*/\1/p' || true)
dir=""
if [ -n "$dep" ] && [ -f "/usr/src/$dep/Makefile" ]; then
	dir=/usr/src/$dep
else
	dir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n1 || true)
fi
if [ -z "$dir" ] || [ ! -f "$dir/Makefile" ]; then
	echo "kernel-headers-dir: no Linux headers: apt-get install linux-headers-amd64" >&2
	exit 1
fi
echo "$dir"
