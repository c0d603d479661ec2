/* SPDX-License-Identifier: MIT */
/*
 * Lint self-test: each function holds a defect the linters must report, so
 * the lint tests are shown to be able to fail. Never compiled into anything.
 */
#include <libvirq/virq.h>

int lint_bad_null_(int *p);
int lint_bad_null_(int *p)
{
	if (p == NULL)
		return *p; /* null dereference: clang-analyzer, cppcheck nullPointer */
	return 0;
}

uint32_t lint_bad_index_(void);
uint32_t lint_bad_index_(void)
{
	uint32_t a[4] = {0};

	return a[4]; /* out of bounds: cppcheck arrayIndexOutOfBounds */
}
