# SPDX-License-Identifier: MIT
# Sourced by ports/*/check.sh. objects_match_cmake OBJ_SRC_DIR MODULE...
# sets `have` to the objects a host's build compiled below OBJ_SRC_DIR (the
# library's src/, relative, without ".o", sorted) and reports, through the
# caller's bad(), any difference from what CMake compiles for the core and
# MODULE... (ports/cmake-sources.sh): a port cannot silently drop or add a
# source.
objects_match_cmake() {
	local objdir=$1 want
	shift
	want=$("$lv/ports/cmake-sources.sh" "$@") || bad "cannot read CMake's source lists"
	have=$(cd "$objdir" && find . -name '*.o' | sed 's|^\./||; s/\.o$//' | LC_ALL=C sort -u)
	if [ "$want" != "$have" ]; then
		bad "compiled objects differ from CMake's source list for core + $*:"
		diff <(echo "$want") <(echo "$have") | sed 's/^/    /'
	else
		echo "ok   $(echo "$have" | wc -l) library objects = CMake's sources for core + $*"
	fi
}
