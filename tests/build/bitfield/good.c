/* SPDX-License-Identifier: MIT */
/* Must compile: valid ranges, including in integer constant expressions. */
#include <libvirq/bitfield.h>

#define F_LOW 7, 0
#define F_TOP 63, 63
#define F_ALL 63, 0

enum { E_MASK = (int)LIBVIRQ_FIELD_MASK(F_LOW) };
static const uint64_t table_[] = {LIBVIRQ_GENMASK(63, 0), LIBVIRQ_GENMASK(0, 0), LIBVIRQ_BIT(63),
				  LIBVIRQ_FIELD_PREP(F_TOP, 1)};
_Static_assert(LIBVIRQ_GENMASK(3, 1) == 0xeu, "GENMASK(3,1)");
_Static_assert(LIBVIRQ_FIELD_WIDTH(F_ALL) == 64, "width of [63:0]");
_Static_assert(LIBVIRQ_FIELD_MAX(F_ALL) == ~(uint64_t)0, "max of [63:0]");

int bitfield_good_(int x);
int bitfield_good_(int x)
{
	switch (x) {
	case (int)LIBVIRQ_BIT(4):
		return E_MASK;
	default:
		return (int)(table_[0] & 1);
	}
}
