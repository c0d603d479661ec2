#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lint: the tree cites only what its users can read (ctest lint_private_refs).
#   private_refs.sh SRC_DIR            every tracked text file of SRC_DIR
#   private_refs.sh SRC_DIR FILE...    only these files (ctest lint_private_refs_fixture)
# Fails on references to private working notes (fault-case IDs, fact-sheet
# sections, their source tags and confidence grades, private issue numbers),
# on machine-specific absolute paths, and on a docs/rationale.md#ID that has no
# {#ID} heading in docs/rationale.md. Rules the manuals do not settle are cited
# as docs/rationale.md#ID; everything else as a manual section.
# Before the tree check, every line of bad.txt beside this script must be
# reported on its own and good.txt must pass, so a broken pattern cannot pass
# silently.
set -u
src=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
cd "$src" || exit 1
# shellcheck source=tests/build/lint/tree_files.sh
. "$here/tree_files.sh"

# Anywhere in the tree.
pat_any='CASE-[0-9]'
pat_any+='|[Ff]acts? §|[Ff]acts? sheet|[Ff]act-sheet|shared/(facts|cases)|\.\./shared/'
pat_any+='|\bconf\. [ABC]\b|\bRFC[0-9](\b|-)|\b[Ii]ssue #?[0-9]'
pat_any+='|\b(BEDROCK|SD-3F|APM-(B|RH|NOTE)|L-(ITS|H|V4H?|GIC)|Q-(H|ITS|RD|ML|DOC)|X-(H|ITS)'
pat_any+='|A-(new|mid|old|svmh|enum)|B-(types|iommu|hdr-old)|JM-HG|SC-EXIT|AMD-VMRUN|P4K)\b'
pat_any+='|\bLNX-[a-z]|\[(S1|S2|S2old|C1|C2|U1|K1|M1|APM-B|EXP|ILL|RG|KUT|MED|XEN)\]'
pat_any+='|/work/|/home/'
# Absolute paths of a machine, in docs, public headers and Markdown anywhere.
pat_doc='(^|[^A-Za-z0-9_.~$}-])/(root|tmp|mnt|media|Users|scratch)/'

# check FILE...: prints offending lines, returns 1 if any. One grep per
# pattern over all the files (binary files skipped by -I), so the tree check
# costs a few processes, not a few per file.
check() {
	local rc=0 docs=() f id anchors
	if grep -nHIE "$pat_any" -- "$@"; then rc=1; fi
	for f in "$@"; do
		case $f in docs/* | include/* | *.md) docs+=("$f") ;; esac
	done
	if [ ${#docs[@]} -gt 0 ] && grep -nHIE "$pat_doc" -- "${docs[@]}"; then rc=1; fi
	# Every docs/rationale.md#ID (source comments) and hyphenated @ref ID
	# (Doxygen comments and pages) must be an entry of docs/rationale.md.
	anchors=$(grep -oE '\{#[a-z0-9-]+\}' docs/rationale.md 2>/dev/null | sed -E 's/^\{#(.*)\}$/\1/' | sort -u)
	while IFS=: read -r f id; do
		[ -n "$id" ] || continue
		id=$(sed -E 's/.*[# ]//' <<<"$id")
		if ! grep -qxF -- "$id" <<<"$anchors"; then
			echo "$f: rationale entry $id: no such entry in docs/rationale.md"
			rc=1
		fi
	done < <(grep -oHIE 'rationale\.md#[a-z0-9-]+|@ref [a-z0-9]+-[a-z0-9-]+' -- "$@" | sort -u)
	return $rc
}

# Self-test: each bad line alone is reported, good.txt passes.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	n=$((n + 1))
	mkdir -p "$tmp/docs"
	printf '%s\n' "$line" >"$tmp/docs/bad.md"
	if (cd "$tmp" && check docs/bad.md >/dev/null); then
		echo "FAIL: self-test: not reported: $line"
		exit 1
	fi
done <"$here/private_refs/bad.txt"
if ! check "$here/private_refs/good.txt"; then
	echo "FAIL: self-test: good.txt reported"
	exit 1
fi
echo "self-test ok ($n forbidden forms reported)"

if [ $# -gt 0 ]; then
	check "$@" || { echo "private references FOUND"; exit 1; }
	echo "clean: $# file(s)"
	exit 0
fi
mapfile -t all < <(lint_tree_files)
files=()
for f in "${all[@]}"; do
	[ -f "$f" ] || continue
	case $f in
	tests/build/lint/private_refs.sh | tests/build/lint/private_refs/*) continue ;;
	esac
	files+=("$f")
done
check "${files[@]}" || { echo "private references FOUND (cite a manual section or docs/rationale.md#ID)"; exit 1; }
echo "private references: ${#files[@]} files clean"
