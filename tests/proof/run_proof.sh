#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One machine-checked proof (ctest label `proof`, docs/reliability.md "Proofs").
#
#   run_proof.sh NAME SOURCE_DIR WORK_DIR TOOL HARNESS MIN [--mutant FILE SED] [-- FRAMA-C-ARGS...]
#
# NAME     the proof's name (printed)
# TOOL     wp:  every WP goal must be proved (Qed, or Z3/CVC4 through Why3 with a
#              fixed step limit, so the result does not depend on machine load);
#          eva: EVA must finish with no alarm and no degeneration.
# HARNESS  a file of tests/proof/ that #includes the real library sources, or
#          GEN.py:ARG, a harness that tests/proof/GEN.py ARG writes
# MIN      the least number of WP goals (wp) or of analysed statements (eva) a
#          genuine run has: a harness that lost its properties fails
# --mutant FILE SED
#          the planted mutation: FILE (relative to SOURCE_DIR) is copied, SED is
#          applied to the copy (it must change it), the copy shadows the real
#          file on the include path, and the proof must then FAIL for a proof
#          reason (an unproved goal or an alarm, not a parse error). The test
#          passes exactly when the mutant is caught.
#
# Prints one line: "proof NAME: PROVED|REFUTED|FAILED ... in S s (CPU)".
set -u
name=$1 src=$2 work=$3 tool=$4 harness=$5 min=$6
shift 6
mut_file='' mut_sed=''
if [ "${1:-}" = --mutant ]; then
	mut_file=$2 mut_sed=$3
	shift 3
fi
[ "${1:-}" = -- ] && shift

rm -rf "$work"
mkdir -p "$work"
log=$work/frama-c.log
if [ -n "$mut_file" ]; then
	# A copy of the sources with the mutation; the proof reads only the copy.
	mkdir -p "$work/mut/tests"
	cp -r "$src/include" "$src/src" "$work/mut/"
	cp -r "$src/tests/proof" "$src/tests/data" "$work/mut/tests/"
	sed -i -E "$mut_sed" "$work/mut/$mut_file"
	if cmp -s "$src/$mut_file" "$work/mut/$mut_file"; then
		echo "proof $name: the mutation '$mut_sed' does not apply to $mut_file (re-target it)"
		exit 2
	fi
	echo "mutant of $mut_file:"
	diff -u "$src/$mut_file" "$work/mut/$mut_file" | sed -n '3,$p' | grep '^[-+]'
	src=$work/mut
fi
incs=("-I$src/include" "-I$src/src" "-I$src/tests/proof")

for t in frama-c why3; do
	if ! command -v $t >/dev/null; then
		echo "proof $name: $t not installed (scripts/debian-packages.txt: frama-c-base why3 z3 cvc4)"
		exit 1
	fi
done
# A private Why3 configuration: the provers found on this machine, nothing
# from the user's home.
export WHY3CONFIG=$work/why3.conf
why3 config detect -C "$WHY3CONFIG" >"$work/why3-detect.log" 2>&1
export HOME=$work

defs="-DLIBVIRQ_PROOF=1"
[ "$tool" = wp ] && defs+=" -DLIBVIRQ_PROOF_WP=1"
common=(-c11 -machdep gcc_x86_64 -cpp-extra-args="${incs[*]} $defs")
case $tool in
wp)
	args=(-wp -wp-par 1 -wp-timeout 60 -wp-steps 200000 -wp-cache none
	      -wp-session "$work/session" -wp-out "$work/out")
	;;
eva)
	args=(-eva -eva-no-print -eva-no-show-progress -eva-auto-loop-unroll 256 -eva-slevel 64
	      -warn-invalid-bool -warn-signed-downcast -warn-invalid-pointer)
	;;
*)
	echo "proof $name: unknown tool $tool"
	exit 2
	;;
esac

# HARNESS "script.py:arg": the harness is generated (tests/proof/gen_*.py).
input=$src/tests/proof/$harness
case $harness in
*.py:*)
	input=$work/harness.c
	python3 "$src/tests/proof/${harness%%:*}" "${harness#*:}" >"$input" || exit 1
	;;
esac
TIMEFORMAT='%U %S'
{ time frama-c "${common[@]}" "${args[@]}" "$@" "$input" >"$log" 2>&1; } \
	2>"$work/time"
rc=$?
secs=$(awk '{ printf "%.1f", $1 + $2 }' "$work/time")
# -wp-fct selects no lemma: the harness's lemmas (used as axioms by the goals
# above) are proved in a second run, and their goals counted with the rest.
if [ "$tool" = wp ] && grep -q '^ *\(/\*@\)\? *lemma ' "$input"; then
	largs=() skip=0
	for a in "$@"; do
		if [ $skip = 1 ]; then skip=0; continue; fi
		case $a in -wp-fct) skip=1; continue ;; -wp-fct=*) continue ;; esac
		largs+=("$a")
	done
	{ time frama-c "${common[@]}" "${args[@]}" "${largs[@]}" -wp-prop=@lemma "$input" \
		>"$work/lemmas.log" 2>&1; } 2>"$work/time"
	rc2=$?
	[ $rc = 0 ] && rc=$rc2
	secs=$(awk -v s="$secs" '{ printf "%.1f", s + $1 + $2 }' "$work/time")
	cat "$work/lemmas.log" >>"$log"
fi

# A run that did not get as far as proving anything is an error in either case.
broken=''
if grep -qE 'User Error|Frama-C aborted|annot-error|syntax error|Plug-in .* aborted: internal' "$log" &&
	! grep -qE 'Plug-in eva aborted: invalid user input' "$log"; then
	broken="frama-c did not run the proof (see $log)"
fi

verdict=FAILED detail=''
case $tool in
wp)
	line=$(sed -n 's/^\[wp\] Proved goals: *\([0-9]*\) *\/ *\([0-9]*\).*/\1 \2/p' "$log" |
		awk '{ p += $1; t += $2 } END { if (NR) print p, t }')
	proved=${line% *} total=${line#* }
	if [ -z "$line" ]; then
		broken=${broken:-"no WP summary (see $log)"}
	elif [ "$total" -lt "$min" ]; then
		broken="only $total goals, expected at least $min (the harness lost properties?)"
	elif [ "$proved" = "$total" ]; then
		verdict=PROVED
	else
		verdict=REFUTED
	fi
	detail="$proved/$total goals"
	;;
eva)
	reached=$(sed -n 's/.* \([0-9]*\) statements reached (out of \([0-9]*\)).*/\1/p' "$log" | tail -1)
	alarms=$(sed -n 's/^ *\([0-9]*\) alarms\{0,1\} generated by the analysis.*/\1/p' "$log" | tail -1)
	grep -q 'No alarm generated by the analysis\|No logical properties have been reached' "$log" &&
		alarms=${alarms:-0}
	if [ -z "$reached" ]; then
		broken=${broken:-"no EVA summary (see $log)"}
	elif [ "$reached" -lt "$min" ]; then
		broken="only $reached statements reached, expected at least $min (dead harness?)"
	elif [ "${alarms:-0}" = 0 ] && [ $rc = 0 ] && ! grep -q 'degeneration\|invalid status' "$log"; then
		verdict=PROVED
	else
		verdict=REFUTED
	fi
	detail="${alarms:-0} alarms, $reached statements reached"
	;;
esac

if [ -n "$broken" ]; then
	echo "proof $name: FAILED: $broken"
	tail -n 30 "$log"
	exit 1
fi
if [ -n "$mut_file" ]; then
	if [ $verdict = REFUTED ]; then
		echo "proof $name: mutant REFUTED as it must be ($detail) in $secs s (CPU)"
		grep -E '^\[wp\] \[(Failed|Unknown|Timeout)|^\[wp\] .*(Timeout|Unknown|Failed)|\[eva:alarm\]' \
			"$log" | head -n 5
		exit 0
	fi
	echo "proof $name: FAILED: the mutant was PROVED too ($detail): the proof cannot fail"
	exit 1
fi
echo "proof $name: $verdict ($detail) in $secs s (CPU)"
if [ $verdict != PROVED ]; then
	grep -E -A4 '^\[wp\] \[(Failed|Unknown|Timeout)|\[eva:alarm\]' "$log" | head -n 60
	exit 1
fi
exit 0
