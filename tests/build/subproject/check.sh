#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libvirq as a subproject (add_subdirectory): only the library is built (no
# libvirq_fdt, simulator, virqtool, tests or benchmarks), with the embedder's
# flags: nothing adds -Werror.
# usage: check.sh SRC_DIR WORK_DIR
set -u
src=$1 work=$2
rm -rf "$work"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
if ! cmake -S "$src/tests/build/subproject" -B "$work" -DLIBVIRQ_SRC="$src" >"$work.log" 2>&1 ||
   ! cmake --build "$work" -j"${LIBVIRQ_CHECK_JOBS:-2}" >>"$work.log" 2>&1; then
	tail -n 30 "$work.log"
	echo "FAIL: the embedder did not build"
	exit 1
fi
targets=$(cmake --build "$work" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
for t in virq_fdt virq_sim virqtool docs; do
	grep -qx "$t" <<<"$targets" && bad "the subproject defines target $t"
done
grep -qx virq <<<"$targets" || bad "no virq target"
if grep -q -- '-Werror' "$work/compile_commands.json"; then
	bad "-Werror in the embedder's build: $(grep -o '"file": "[^"]*' "$work/compile_commands.json" | head -n 1)"
fi
[ -x "$work/embedder" ] && "$work/embedder" >/dev/null || bad "the embedder does not run"
n=$(grep -c '"file"' "$work/compile_commands.json")
[ $fail = 0 ] || exit 1
echo "subproject ok: $n objects, targets: $(grep -E '^(virq|embedder)$' <<<"$targets" | tr '\n' ' ')no -Werror"
