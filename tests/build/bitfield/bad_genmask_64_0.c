/* SPDX-License-Identifier: MIT */
/* Must NOT compile: the range check of bitfield.h rejects this field. */
#include <libvirq/bitfield.h>

#define F_BAD 3, 5    /* hi < lo */
#define F_WIDE 64, 12 /* hi > 63 */

uint64_t bitfield_bad_(void);
uint64_t bitfield_bad_(void)
{
	return (uint64_t)(LIBVIRQ_GENMASK(64, 0));
}
