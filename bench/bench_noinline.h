/* SPDX-License-Identifier: MIT */
/*
 * NOINLINE for the bench_* functions callgrind collects inside by name
 * (bench/lib.sh, --toggle-collect): kept out of line and, under GCC, not
 * cloned either, since an IPA-CP clone (bench_op_move.constprop.0 at -O3)
 * carries the call under another name and the count reads 0.
 */
#ifndef LIBVIRQ_BENCH_NOINLINE_H
#define LIBVIRQ_BENCH_NOINLINE_H

#if defined(__GNUC__) && !defined(__clang__)
#define NOINLINE __attribute__((noinline, noclone))
#else
#define NOINLINE __attribute__((noinline))
#endif

#endif
