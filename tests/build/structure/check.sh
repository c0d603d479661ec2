#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Structure checks of the library (docs/design.md, "Layers and rules"):
#
#   check.sh layers SRC_DIR ALLOW OBJ|DIR...
#       The pure layer: every file in src/*/enc/ includes only public headers
#       (<libvirq/...>, bitfield.h among them), headers of an enc/ directory
#       and common/compiler.h (attribute spellings); no HAL wrapper, HAL ops
#       call, log or LIBVIRQ_FAIL appears in it; and the objects compiled from
#       src/*/enc/*.c (among OBJ, the library's objects) need no symbol but
#       memcpy/memset/memmove/memcmp and each other's.
#   check.sh cycles SRC_DIR ALLOW SCC OBJ|DIR...
#       No include cycle among the library's files (src/, include/), from their
#       #include lines, and no call cycle among its source files, from `nm` of
#       OBJ: an edge A -> B when A's object needs a symbol B's object defines.
#       SCC is the tests/build/structure/scc helper. A DIR stands for the
#       objects under it (a CMake object directory) whose source still exists.
#   check.sh selftest SRC_DIR SCC CC
#       Runs both checks on tests/build/structure/fixture (a file pair that
#       includes and calls each other, an encoder that calls the HAL): each
#       must fail there, naming what it found, or the checks are broken.
#
# ALLOW lists known violations still being removed, one per line:
#   include: FILE FILE ...     a known include cycle (its files, sorted)
#   call: FILE FILE ...        a known call cycle
#   layer: FILE: WHAT          a known layering violation
# The check passes only when what it finds is exactly the list: a new
# violation fails ("new"), and so does an entry that no longer holds
# ("fixed: remove it from the allow-list"), so the list only shrinks.
set -u -o pipefail
mode=${1:-}
src=${2:-}
[ -n "$mode" ] && [ -d "$src" ] || { sed -n '3,30p' "$0"; exit 2; }
src=$(cd "$src" && pwd)

# The library's source object: .../virq.dir/<module>/<file>.c.o -> src/<module>/<file>.c
obj_src() {
	local o=$1
	o=${o##*/virq.dir/}
	o=${o##*/virq_fdt.dir/}
	echo "src/${o%.o}"
}

# include_edges ROOT: "FROM TO" for every #include of a file under ROOT/src or
# ROOT/include that resolves to a file of the tree (paths relative to ROOT).
include_edges() {
	local root=$1 f dir inc q target
	(cd "$root" && find src include -name '*.[ch]' 2>/dev/null | sort) | while read -r f; do
		dir=$(dirname "$f")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1 \2/p' \
			"$root/$f" | while read -r q inc; do
			target=
			if [ "$q" = '"' ] && [ -f "$root/$dir/$inc" ]; then
				target=$dir/$inc
			elif [ -f "$root/src/$inc" ]; then
				target=src/$inc
			elif [ -f "$root/include/$inc" ]; then
				target=include/$inc
			fi
			[ -n "$target" ] || continue
			echo "$f $(realpath -m --relative-to="$root" "$root/$target")"
		done
	done
}

# call_edges OBJ...: "FROM TO" between the objects' sources.
call_edges() {
	local o defs
	defs=$(mktemp)
	for o in "$@"; do
		nm -g --defined-only "$o" 2>/dev/null | awk -v s="$(obj_src "$o")" 'NF == 3 { print $3, s }'
	done | sort -u >"$defs"
	for o in "$@"; do
		nm -u "$o" 2>/dev/null | awk '{ print $NF }' | sort -u |
			join - "$defs" | awk -v s="$(obj_src "$o")" '$2 != s { print s, $2 }'
	done | sort -u
	rm -f "$defs"
}

# layer_findings ROOT OBJ...: "layer: FILE: WHAT" for each violation.
layer_findings() {
	local root=$1 f inc q ok bad target
	shift
	(cd "$root" && find src -path '*/enc/*' -name '*.[ch]' | sort) | while read -r f; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1 \2/p' \
			"$root/$f" | while read -r q inc; do
			# The file it names (relative to the includer first, as the
			# compiler looks), then what that may be.
			target=
			if [ "$q" = '"' ] && [ -f "$root/$(dirname "$f")/$inc" ]; then
				target=$(realpath -m --relative-to="$root" "$root/$(dirname "$f")/$inc")
			elif [ -f "$root/src/$inc" ]; then
				target=src/$inc
			elif [ -f "$root/include/$inc" ]; then
				target=include/$inc
			fi
			ok=no
			case $target in
			include/libvirq/* | src/*/enc/* | src/common/compiler.h) ok=yes ;;
			esac
			[ $ok = yes ] || echo "layer: $f: includes $inc"
		done
		# HAL use: wrappers of hal_priv.h, ops calls, logging, failure paths.
		bad=$(grep -noE '\b(virq_(rd|wr)(32|64)_|virq_msr_(rd|wr)_|virq_cpuid_|virq_now_|virq_relax_|virq_barrier_|virq_page_(alloc|free)_|virq_dcache_clean_|virq_log_|virq_fail_|LIBVIRQ_LOG(0|V)|LIBVIRQ_FAILV?_?)\b|->ops->' \
			"$root/$f" | head -n 3 | tr '\n' ' ')
		[ -z "$bad" ] || echo "layer: $f: uses the HAL (${bad% })"
	done
	# Objects of the pure layer need nothing but the memory functions and each other.
	local encobjs=() o sym defs
	for o in "$@"; do
		case $(obj_src "$o") in src/*/enc/*) encobjs+=("$o") ;; esac
	done
	[ ${#encobjs[@]} -gt 0 ] || return 0
	defs=$(for o in "${encobjs[@]}"; do nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }'; done |
		sort -u)
	for o in "${encobjs[@]}"; do
		for sym in $(nm -u "$o" | awk '{ print $NF }'); do
			case $sym in memcpy | memset | memmove | memcmp) continue ;; esac
			grep -qx "$sym" <<<"$defs" || echo "layer: $(obj_src "$o"): needs $sym"
		done
	done
}

# compare FOUND ALLOW WHAT KINDS: FOUND must be exactly ALLOW's entries of KINDS
# (a regex: "include|call" or "layer"); prints the differences.
compare() {
	local found=$1 allow=$2 what=$3 kinds=$4 rc=0 l
	local want
	want=$(grep -E "^($kinds):" "$allow" 2>/dev/null | sed 's/[[:space:]]*$//' | sort -u)
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		grep -qxF "$l" <<<"$want" || { echo "new $what: $l"; rc=1; }
	done <<<"$found"
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		grep -qxF "$l" <<<"$found" ||
			{ echo "fixed: '$l' no longer holds: remove it from the allow-list ($allow)"; rc=1; }
	done <<<"$want"
	return $rc
}

# objects ARG...: the object files named, and those under named directories
# whose source file still exists (a deleted source leaves a stale object).
objects() {
	local a o
	for a in "$@"; do
		if [ -d "$a" ]; then
			find "$a" -name '*.c.o' | sort | while read -r o; do
				[ -f "$src/$(obj_src "$o")" ] && echo "$o"
			done
		else
			echo "$a"
		fi
	done
}

case $mode in
layers)
	allow=$3
	shift 3
	mapfile -t objs < <(objects "$@")
	set -- "${objs[@]}"
	found=$(layer_findings "$src" "$@" | sort -u)
	n=$(grep -c . <<<"$found" || true)
	echo "layers: $(cd "$src" && find src -path '*/enc/*' -name '*.[ch]' | wc -l) files of src/*/enc checked, $n known violations:"
	[ -z "$found" ] || sed 's/^/  /' <<<"$found"
	compare "$found" "$allow" "layering violation" layer || { echo "layers: FAILED"; exit 1; }
	echo "layers: ok"
	;;
cycles)
	allow=$3 scc=$4
	shift 4
	mapfile -t objs < <(objects "$@")
	set -- "${objs[@]}"
	iedges=$(include_edges "$src")
	cedges=$(call_edges "$@")
	inc=$("$scc" <<<"$iedges" | sed 's/^/include: /')
	call=$("$scc" <<<"$cedges" | sed 's/^/call: /')
	found=$(printf '%s\n%s\n' "$inc" "$call" | grep . | sort -u)
	echo "cycles: $(grep -c . <<<"$iedges") include edges, $(grep -c . <<<"$cedges") call edges between $# objects; cycles found:"
	[ -z "$found" ] && echo "  none" || sed 's/^/  /' <<<"$found"
	compare "$found" "$allow" "cycle" "include|call" || { echo "cycles: FAILED"; exit 1; }
	echo "cycles: ok"
	;;
selftest)
	scc=$3 cc=$4
	fx=$src/tests/build/structure/fixture
	tmp=$(mktemp -d)
	mkdir -p "$tmp/src/CMakeFiles/virq.dir/m/enc" "$tmp/lib/src/m/enc"
	cp -r "$fx/src" "$tmp/lib/"
	mkdir -p "$tmp/lib/include"
	for c in a b enc/pure; do
		"$cc" -c -I"$tmp/lib/src" "$tmp/lib/src/m/$c.c" \
			-o "$tmp/src/CMakeFiles/virq.dir/m/$c.c.o" || { rm -rf "$tmp"; exit 1; }
	done
	objs=("$tmp"/src/CMakeFiles/virq.dir/m/*.o "$tmp"/src/CMakeFiles/virq.dir/m/enc/*.o)
	: >"$tmp/none"
	out=$("$0" cycles "$tmp/lib" "$tmp/none" "$scc" "${objs[@]}" 2>&1)
	if [ $? -eq 0 ] || ! grep -q 'new cycle: include: src/m/a.h src/m/b.h' <<<"$out" ||
	   ! grep -q 'new cycle: call: src/m/a.c src/m/b.c' <<<"$out"; then
		echo "FAIL: the cycle check did not find the fixture's include and call cycles:"
		echo "$out"; rm -rf "$tmp"; exit 1
	fi
	echo "selftest: cycles found in the fixture:"; grep 'new cycle' <<<"$out" | sed 's/^/  /'
	out=$("$0" layers "$tmp/lib" "$tmp/none" "${objs[@]}" 2>&1)
	if [ $? -eq 0 ] || ! grep -q 'src/m/enc/pure.c: includes hal/hal_priv.h' <<<"$out" ||
	   ! grep -q 'src/m/enc/pure.c: includes ../../hal/hal_priv.h' <<<"$out" ||
	   ! grep -q 'src/m/enc/pure.c: uses the HAL' <<<"$out" ||
	   ! grep -q 'src/m/enc/pure.c: needs m_driver_helper' <<<"$out"; then
		echo "FAIL: the layering check did not find the fixture's violations:"
		echo "$out"; rm -rf "$tmp"; exit 1
	fi
	echo "selftest: layering violations found in the fixture:"
	grep 'new layering' <<<"$out" | sed 's/^/  /'
	# And an allow-list entry that no longer holds fails too.
	echo "call: src/m/x.c src/m/y.c" >"$tmp/stale"
	printf 'include: src/m/a.h src/m/b.h\ncall: src/m/a.c src/m/b.c\n' >>"$tmp/stale"
	out=$("$0" cycles "$tmp/lib" "$tmp/stale" "$scc" "${objs[@]}" 2>&1)
	if [ $? -eq 0 ] || ! grep -q "fixed: 'call: src/m/x.c src/m/y.c'" <<<"$out"; then
		echo "FAIL: a stale allow-list entry was not reported:"; echo "$out"; rm -rf "$tmp"; exit 1
	fi
	echo "selftest: a stale allow-list entry fails; ok"
	rm -rf "$tmp"
	;;
*)
	sed -n '3,30p' "$0"; exit 2 ;;
esac
