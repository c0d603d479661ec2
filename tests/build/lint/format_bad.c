/* SPDX-License-Identifier: MIT */
/* Fixture of lint_format: not formatted as .clang-format says, so the check must fail on it. */
int format_bad_(int a,int b){ if(a) return b ;
    return a+b; }
