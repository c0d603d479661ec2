#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the library sources the CMake build compiles for the core and the
# given modules, one per line relative to src/ and without ".c" (for example
# common/status, gicv4/enc/its_cmd), sorted. The ports' checks compare what a
# host's build compiled against it, so a port cannot silently drop or add a
# source. The core's list is src/CMakeLists.txt's add_library(virq ...) and
# src/common|hal/*.cmake; a module's is src/<module>/sources.cmake.
#
#   usage: ports/cmake-sources.sh MODULE...
set -euo pipefail
lv=$(cd "$(dirname "$0")/.." && pwd)
{
	cat "$lv/src/CMakeLists.txt" $(ls "$lv"/src/common/*.cmake "$lv"/src/hal/*.cmake 2>/dev/null) |
		sed 's/#.*//' | grep -oE '\b(common|hal)/[A-Za-z0-9_/]+\.c\b'
	for m in "$@"; do
		f=$lv/src/$m/sources.cmake
		[ -f "$f" ] || { echo "cmake-sources: no $f" >&2; exit 1; }
		sed 's/#.*//' "$f" | grep -oE "\b$m/[A-Za-z0-9_/]+\.c\b"
	done
} | sed 's/\.c$//' | LC_ALL=C sort -u
