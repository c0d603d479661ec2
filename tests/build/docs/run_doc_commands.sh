#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every shell command block of README.md and docs/integration.md as
# written (scripts/test step docs-commands), so a document that drifts from
# the code fails CI.
#
#   usage: tests/build/docs/run_doc_commands.sh SRC_DIR WORK_DIR [DOC...]
#
# Two passes, each in a fresh copy of the checkout (WORK_DIR/<pass>/libvirq,
# the documents' working directory) and, where the kernel allows it, in a
# private mount namespace with an empty tmpfs on /opt (the documents install
# to /opt/libvirq; the machine's /opt is not touched):
#   as-written  every block (tests/build/docs/doc_blocks.py explains the
#               `doc-test: skip` and `once` markers), exactly as written;
#   debug       the same with CMAKE_BUILD_TYPE=Release replaced by Debug
#               (blocks marked `once` are not repeated).
# A block fails the pass as soon as one of its commands fails (bash -e -o
# pipefail). A self-test first proves that a failing block fails the run
# and that a skip without a reason is refused.
set -u -o pipefail
src=$1 work=$2
shift 2
docs=("$@")
[ ${#docs[@]} -gt 0 ] || docs=(README.md docs/integration.md)
here=$src/tests/build/docs
mkdir -p "$work"
work=$(cd "$work" && pwd)
src=$(cd "$src" && pwd)
rm -rf "$work"
mkdir -p "$work"
fail=0

# copy DEST: the checkout's files (tracked and new, not ignored) in DEST.
copy() {
	mkdir -p "$1"
	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$src" && git ls-files -z -co --exclude-standard | tar --null -cf - -T -) | tar -xf - -C "$1"
	else
		(cd "$src" && tar --exclude=./build -cf - .) | tar -xf - -C "$1"
	fi
}

# isolated DIR SCRIPT LOG: runs SCRIPT in DIR with a private /opt when possible.
ns=0
if unshare --mount --propagation private true 2>/dev/null; then
	ns=1
fi
isolated() {
	if [ $ns = 1 ]; then
		unshare --mount --propagation private bash -c \
			'mount -t tmpfs -o mode=0755 libvirq-doc-opt /opt && cd "$1" && exec bash -e -o pipefail "$2"' \
			isolated "$1" "$2" >"$3" 2>&1 </dev/null
	else
		(cd "$1" && exec bash -e -o pipefail "$2") >"$3" 2>&1 </dev/null
	fi
}
[ $ns = 1 ] && echo "private /opt: mount namespace with a tmpfs" ||
	echo "note: no mount namespace here; the documents' /opt/libvirq is written for real"

# --- self-test ---
mkdir -p "$work/self"
printf '# t\n\n```sh\ntrue\n```\n\n```sh\necho before; false; echo after\n```\n' >"$work/self/fail.md"
printf '# t\n\n<!-- doc-test: skip -->\n```sh\ntrue\n```\n' >"$work/self/noreason.md"
if ! python3 "$here/doc_blocks.py" as-written "$work/self/fail.sh" "$work/self/fail.md" >/dev/null ||
   isolated "$work/self" "$work/self/fail.sh" "$work/self/fail.log" ||
   grep -q '^after$' "$work/self/fail.log"; then
	echo "FAIL: self-test: a failing block did not stop the run"
	fail=1
elif python3 "$here/doc_blocks.py" as-written "$work/self/nr.sh" "$work/self/noreason.md" >/dev/null 2>&1; then
	echo "FAIL: self-test: a skip marker without a reason was accepted"
	fail=1
else
	echo "ok   self-test: a failing block fails the run; a skip needs a reason"
fi

for pass in as-written debug; do
	s=$(date +%s)
	dir=$work/$pass
	copy "$dir/libvirq"
	paths=()
	for d in "${docs[@]}"; do paths+=("$dir/libvirq/$d"); done
	if ! (cd "$dir/libvirq" && python3 "$here/doc_blocks.py" "$pass" "$dir/commands.sh" "${docs[@]}"); then
		echo "FAIL: $pass: cannot extract the command blocks"
		fail=1
		continue
	fi
	if isolated "$dir/libvirq" "$dir/commands.sh" "$dir/commands.log"; then
		echo "ok   $pass: $(tail -n 1 "$dir/commands.log") in $(($(date +%s) - s)) s"
	else
		echo "FAIL: $pass: a command block failed after $(($(date +%s) - s)) s (log: $dir/commands.log):"
		grep '^==> ' "$dir/commands.log" | tail -n 1
		tail -n 40 "$dir/commands.log"
		fail=1
	fi
done
exit $fail
