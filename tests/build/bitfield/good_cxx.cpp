/* SPDX-License-Identifier: MIT */
/* Must compile as C++ (C++11 and later): valid ranges, in every kind of
 * constant expression C++ has, and through the C headers' linkage. */
#include <libvirq/bitfield.h>
#include <libvirq/gicv4/its_regs.h>

#define F_LOW 7, 0
#define F_TOP 63, 63
#define F_ALL 63, 0

enum { E_MASK = static_cast<int>(LIBVIRQ_FIELD_MASK(F_LOW)) };
static const uint64_t table_[] = {LIBVIRQ_GENMASK(63, 0), LIBVIRQ_GENMASK(0, 0), LIBVIRQ_BIT(63),
				  LIBVIRQ_FIELD_PREP(F_TOP, 1)};
static_assert(LIBVIRQ_GENMASK(3, 1) == 0xeu, "GENMASK(3,1)");
static_assert(LIBVIRQ_FIELD_WIDTH(F_ALL) == 64, "width of [63:0]");
static_assert(LIBVIRQ_FIELD_MAX(F_ALL) == ~static_cast<uint64_t>(0), "max of [63:0]");
static_assert(LIBVIRQ_FIELD_GET(LIBVIRQ_GITS_CBASER_Size, 0xffu) == 0xffu, "a named spec field");
constexpr uint64_t k_set_ = LIBVIRQ_FIELD_SET(15, 8, 0xffffu, 0x12u);
static_assert(k_set_ == 0x12ffu, "FIELD_SET");
static_assert(LIBVIRQ_ADDR_FITS(51, 16, 0x10000u), "ADDR_FITS");

template <uint64_t M> struct mask_holder_ {
	static constexpr uint64_t value = M;
};
static_assert(mask_holder_<LIBVIRQ_BIT(40)>::value == (1ull << 40), "as a template argument");

int bitfield_good_(int x);
int bitfield_good_(int x)
{
	switch (x) {
	case static_cast<int>(LIBVIRQ_BIT(4)):
		return E_MASK;
	case static_cast<int>(LIBVIRQ_FIELD_PREP(F_LOW, 3)):
		return static_cast<int>(LIBVIRQ_FIELD_WIDTH(F_LOW));
	default:
		return static_cast<int>(table_[0] & 1);
	}
}
