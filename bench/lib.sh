# SPDX-License-Identifier: MIT
# Shared helpers of the benchmark scripts (POSIX sh; source it):
#   . "$(dirname "$0")/../lib.sh"      (from bench/<module>/run.sh)
#
# What a "library instruction" is, in every report: callgrind's self cost
# (Ir) of the functions libvirq.a defines — exported and static ones alike
# (nm --defined-only, symbol types t/T) — inside the measured call. Inlined
# code counts in the library function it was inlined into. The HAL
# callbacks, the hardware models (libvirq_sim.a), the benchmark's own code
# and libc are not counted. A figure that is not this (an inclusive count of
# a bench function) is labelled "inclusive" where it is printed.

# bench_lib_syms LIBVIRQ_A BIN OUT: the function names of libvirq.a, one a
# line, into OUT. Warns when BIN defines a name more often than libvirq.a
# (a static of the benchmark or model with a library function's name would
# be counted as library code).
bench_lib_syms() {
	nm --defined-only "$1" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort >"$3.all"
	sort -u "$3.all" >"$3"
	if [ -n "$2" ]; then
		nm --defined-only "$2" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort |
			awk -v list="$3.all" '
				BEGIN { while ((getline l < list) > 0) lib[l]++ }
				{ bin[$1]++ }
				END { for (f in bin) if ((f in lib) && bin[f] > lib[f])
					printf "bench: %s is defined outside libvirq.a too; its cost is counted as library\n", f > "/dev/stderr" }'
	fi
	rm -f "$3.all"
}

# bench_lib_ir CALLGRIND_OUT SYMS: total self Ir of the functions in SYMS.
bench_lib_ir() {
	callgrind_annotate --auto=no --inclusive=no --threshold=100 "$1" 2>/dev/null |
		awk -v list="$2" '
			BEGIN { while ((getline l < list) > 0) lib[l] = 1 }
			/^ *[0-9,]+ / { f = $0; sub(/ \[.*$/, "", f); sub(/^.*:/, "", f)
				if (f in lib) { x = $1; gsub(",", "", x); t += x } }
			END { print t + 0 }'
}

# bench_cg SYMS TMPDIR BIN TOGGLE [ARGS...]: runs BIN ARGS under callgrind
# collecting only inside functions matching TOGGLE (a callgrind
# --toggle-collect pattern); prints the library instructions counted.
bench_cg() {
	# (POSIX sh has no local variables: these names are the helper's own)
	_bcg_syms=$1 _bcg_dir=$2 _bcg_bin=$3 _bcg_toggle=$4
	shift 4
	valgrind --tool=callgrind --callgrind-out-file="$_bcg_dir/cg.out" \
		--toggle-collect="$_bcg_toggle" "$_bcg_bin" "$@" >"$_bcg_dir/cg.stdout" \
		2>"$_bcg_dir/cg.stderr" || { cat "$_bcg_dir/cg.stderr" >&2; return 1; }
	bench_lib_ir "$_bcg_dir/cg.out" "$_bcg_syms"
	rm -f "$_bcg_dir/cg.out"
}

# bench_have_callgrind: true when valgrind and callgrind_annotate are there.
bench_have_callgrind() {
	command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1
}

# bench_div TOTAL N [DIGITS]: TOTAL / N printed with DIGITS decimals (1).
bench_div() {
	awk -v t="$1" -v n="$2" -v d="${3:-1}" 'BEGIN { printf "%.*f", d, t / n }'
}
