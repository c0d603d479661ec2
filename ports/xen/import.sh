#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Imports libvirq into a Xen source tree the way Xen carries libfdt: the
# library's sources are copied into xen/common/libvirq/ (no symlink, no
# reference back to this checkout), with the port's Makefile as that
# directory's Makefile. Xen then builds them with its own CFLAGS once
# xen/common/Makefile descends into the directory (obj-y += libvirq/, or the
# obj-$(CONFIG_LIBVIRQ) line of the Xen series in ports/xen/patches).
#
#   usage: ports/xen/import.sh XEN_TREE
#
# XEN_TREE is the directory holding xen/ (a release tarball or a git
# checkout). What lands in XEN_TREE/xen/common/libvirq/, in the layout of
# this repository so that the port's Makefile and flags.mk work unchanged:
#
#   Makefile                ports/xen/Makefile
#   ports/xen/flags.mk      LIBVIRQ_XEN_CFLAGS for Xen code in other directories
#   ports/xen/hal.c, example.c, include/virq_env_xen.h, include/virq_xen.h
#   include/libvirq/...     the public headers
#   src/...                 every module's sources (the Makefile picks the
#                           architecture's: GICv4 on arm64, AVIC and PMC
#                           virtualization on x86_64); not the libfdt-based
#                           discovery (src/gicv4/fdt*: Xen parses the DT)
#   LICENSE                 the MIT licence the copied files are under
#   VERSION                 the library version and the source's git commit
#
# A directory already there is replaced (an update is a re-import). Only
# files git tracks are copied when this is a git checkout (a build
# directory's objects never land in Xen); otherwise every file of those
# directories. Prints the number of files copied.
set -euo pipefail
die() { echo "import.sh: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 XEN_TREE"
[ -f "$1/xen/common/Makefile" ] || die "$1 is not a Xen tree (no xen/common/Makefile)"
lv=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
dst=$(cd "$1" && pwd)/xen/common/libvirq

# The files, relative to the checkout: tracked ones when the checkout is a
# git work tree of its own (a copy inside another tree's ignored build/
# directory is not: git would list nothing there).
list() {
	if [ "$(git -C "$lv" rev-parse --show-toplevel 2>/dev/null)" = "$lv" ]; then
		git -C "$lv" ls-files -- "$@"
	else
		(cd "$lv" && find "$@" -type f)
	fi
}
mapfile -t files < <(list include/libvirq src ports/xen/flags.mk ports/xen/hal.c ports/xen/example.c \
	ports/xen/include LICENSE |
	grep -E '\.(c|h|mk)$|^LICENSE$' | grep -vE '^src/gicv4/fdt|^src/CMakeLists|^include/libvirq/fdt\.h$' |
	LC_ALL=C sort)
[ ${#files[@]} -gt 50 ] || die "only ${#files[@]} files found in $lv"

rm -rf "$dst"
mkdir -p "$dst"
for f in "${files[@]}"; do
	mkdir -p "$dst/$(dirname "$f")"
	cp "$lv/$f" "$dst/$f"
done
cp "$lv/ports/xen/Makefile" "$dst/Makefile"
ver=$(sed -n 's/^project(libvirq VERSION \([0-9.]*\).*/\1/p' "$lv/CMakeLists.txt")
rev=$(git -C "$lv" describe --always --dirty 2>/dev/null || echo unknown)
printf 'libvirq %s (source %s), imported by ports/xen/import.sh\n' "${ver:-unknown}" "$rev" >"$dst/VERSION"
echo "$((${#files[@]} + 2)) files in $dst"
