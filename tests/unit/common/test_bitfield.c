/* SPDX-License-Identifier: MIT */
/*
 * Bit-field helpers (include/libvirq/bitfield.h): values at the edges of the
 * 64-bit word, every helper on a named [hi:lo] field, single evaluation of
 * arguments. Compile-time rejection of bad ranges is tested separately by
 * the bitfield_compile_* tests (tests/build/bitfield/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <libvirq/bitfield.h>

/* Reference mask, built bit by bit (independent of the macros). */
static uint64_t ref_mask(unsigned hi, unsigned lo)
{
	uint64_t m = 0;

	for (unsigned b = lo; b <= hi; b++)
		m |= (uint64_t)1 << b;
	return m;
}

#define CHECK_MASK(hi, lo)                                                                         \
	do {                                                                                       \
		assert_int_equal(LIBVIRQ_GENMASK(hi, lo), ref_mask(hi, lo));                       \
		assert_int_equal(LIBVIRQ_FIELD_WIDTH(hi, lo), (hi) - (lo) + 1);                    \
		assert_int_equal(LIBVIRQ_FIELD_MAX(hi, lo), ref_mask(hi, lo) >> (lo));             \
	} while (0)

static void test_genmask_values(void **state)
{
	(void)state;
	assert_int_equal(LIBVIRQ_GENMASK(63, 0), UINT64_MAX);
	assert_int_equal(LIBVIRQ_GENMASK(0, 0), 1);
	assert_int_equal(LIBVIRQ_GENMASK(63, 63), 0x8000000000000000ull);
	assert_int_equal(LIBVIRQ_GENMASK(31, 0), 0xffffffffull);
	assert_int_equal(LIBVIRQ_GENMASK(63, 32), 0xffffffff00000000ull);
	assert_int_equal(LIBVIRQ_GENMASK(51, 12), 0x000ffffffffff000ull);
	assert_int_equal(LIBVIRQ_GENMASK(7, 4), 0xf0);
	CHECK_MASK(63, 0);
	CHECK_MASK(0, 0);
	CHECK_MASK(63, 63);
	CHECK_MASK(62, 1);
	CHECK_MASK(32, 31);
	CHECK_MASK(47, 16);
	CHECK_MASK(11, 11);
	CHECK_MASK(1, 0);
	CHECK_MASK(63, 1);
	CHECK_MASK(62, 0);
}

static void test_bit_every_position(void **state)
{
	(void)state;
#define B(n) assert_int_equal(LIBVIRQ_BIT(n), (uint64_t)1 << (n))
	B(0);
	B(1);
	B(2);
	B(7);
	B(8);
	B(15);
	B(16);
	B(31);
	B(32);
	B(33);
	B(47);
	B(48);
	B(62);
	B(63);
#undef B
}

/* Named fields, as encoders declare them. */
#define F_SIZE 7, 0  /* e.g. GITS_CBASER.Size */
#define F_PA 51, 12  /* e.g. GITS_CBASER.Physical_Address */
#define F_TOP 63, 63 /* e.g. GITS_CBASER.Valid */
#define F_ALL 63, 0
#define F_LOW 0, 0

static void test_field_prep_get(void **state)
{
	(void)state;
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_SIZE, 15), 15);
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_TOP, 1), 0x8000000000000000ull);
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_ALL, UINT64_MAX), UINT64_MAX);
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_LOW, 1), 1);
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_PA, 0xffffffffffull), 0x000ffffffffff000ull);
	/* PREP drops bits above the field (documented; encoders check FITS first). */
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_SIZE, 0x1ff), 0xff);
	assert_int_equal(LIBVIRQ_FIELD_PREP(F_TOP, 2), 0);

	assert_int_equal(LIBVIRQ_FIELD_GET(F_SIZE, 0xabcdull), 0xcd);
	assert_int_equal(LIBVIRQ_FIELD_GET(F_TOP, 0x8000000000000001ull), 1);
	assert_int_equal(LIBVIRQ_FIELD_GET(F_TOP, 0x7fffffffffffffffull), 0);
	assert_int_equal(LIBVIRQ_FIELD_GET(F_ALL, 0x0123456789abcdefull), 0x0123456789abcdefull);
	assert_int_equal(LIBVIRQ_FIELD_GET(F_LOW, 0xfffffffffffffffeull), 0);
	assert_int_equal(LIBVIRQ_FIELD_GET(F_PA, 0xfff0000000001fffull), 1);
	/* Round trip of every value a small field holds. */
	for (uint64_t v = 0; v <= 0xff; v++)
		assert_int_equal(LIBVIRQ_FIELD_GET(F_SIZE, LIBVIRQ_FIELD_PREP(F_SIZE, v)), v);
}

static void test_field_fits(void **state)
{
	(void)state;
	assert_true(LIBVIRQ_FIELD_FITS(F_SIZE, 0));
	assert_true(LIBVIRQ_FIELD_FITS(F_SIZE, 255));
	assert_false(LIBVIRQ_FIELD_FITS(F_SIZE, 256));
	assert_true(LIBVIRQ_FIELD_FITS(F_TOP, 1));
	assert_false(LIBVIRQ_FIELD_FITS(F_TOP, 2));
	assert_true(LIBVIRQ_FIELD_FITS(F_LOW, 1));
	assert_false(LIBVIRQ_FIELD_FITS(F_LOW, 2));
	assert_true(LIBVIRQ_FIELD_FITS(F_ALL, UINT64_MAX));
	assert_true(LIBVIRQ_FIELD_FITS(F_PA, 0xffffffffffull));
	assert_false(LIBVIRQ_FIELD_FITS(F_PA, 0x10000000000ull));
	/* Negative values are converted to uint64_t, so they never fit a small field. */
	assert_false(LIBVIRQ_FIELD_FITS(F_SIZE, -1));
	assert_int_equal(LIBVIRQ_FIELD_MAX(F_PA), 0xffffffffffull);
	assert_int_equal(LIBVIRQ_FIELD_MASK(F_PA), 0x000ffffffffff000ull);
	assert_int_equal(LIBVIRQ_FIELD_WIDTH(F_PA), 40);
}

static void test_field_set(void **state)
{
	(void)state;
	assert_int_equal(LIBVIRQ_FIELD_SET(F_SIZE, 0xffffffffffffff00ull, 0x12),
			 0xffffffffffffff12ull);
	assert_int_equal(LIBVIRQ_FIELD_SET(F_SIZE, 0xffffffffffffffffull, 0),
			 0xffffffffffffff00ull);
	assert_int_equal(LIBVIRQ_FIELD_SET(F_TOP, 0, 1), 0x8000000000000000ull);
	assert_int_equal(LIBVIRQ_FIELD_SET(F_TOP, UINT64_MAX, 0), 0x7fffffffffffffffull);
	assert_int_equal(LIBVIRQ_FIELD_SET(F_ALL, 0x1234, 0x5678), 0x5678);
	assert_int_equal(LIBVIRQ_FIELD_SET(F_LOW, 0x10, 1), 0x11);
	/* Bits outside the field are kept; a too-wide value does not spill. */
	assert_int_equal(LIBVIRQ_FIELD_SET(F_SIZE, 0xa500, 0x1ff), 0xa5ff);
}

static void test_addr_fits(void **state)
{
	(void)state;
	assert_true(LIBVIRQ_ADDR_FITS(F_PA, 0));
	assert_true(LIBVIRQ_ADDR_FITS(F_PA, 0x1000));
	assert_true(LIBVIRQ_ADDR_FITS(F_PA, 0x000ffffffffff000ull));
	assert_false(LIBVIRQ_ADDR_FITS(F_PA, 0x1800));		      /* misaligned */
	assert_false(LIBVIRQ_ADDR_FITS(F_PA, 0xfff));		      /* misaligned */
	assert_false(LIBVIRQ_ADDR_FITS(F_PA, 0x0010000000000000ull)); /* above PA[51] */
	assert_false(LIBVIRQ_ADDR_FITS(F_PA, 0x8000000000000000ull));
	assert_true(LIBVIRQ_ADDR_FITS(F_ALL, UINT64_MAX));
	assert_true(LIBVIRQ_ADDR_FITS(F_LOW, 1));
	assert_false(LIBVIRQ_ADDR_FITS(F_LOW, 2));
}

static void test_arguments_evaluated_once(void **state)
{
	uint64_t v = 0, w = 0;

	(void)state;
	(void)LIBVIRQ_FIELD_PREP(F_SIZE, v++);
	assert_int_equal(v, 1);
	(void)LIBVIRQ_FIELD_GET(F_SIZE, w++);
	assert_int_equal(w, 1);
	(void)LIBVIRQ_FIELD_FITS(F_SIZE, v++);
	assert_int_equal(v, 2);
	(void)LIBVIRQ_FIELD_SET(F_SIZE, w++, v++);
	assert_int_equal(w, 2);
	assert_int_equal(v, 3);
	(void)LIBVIRQ_ADDR_FITS(F_PA, v++);
	assert_int_equal(v, 4);
}

/* The helpers are integer constant expressions. */
enum { CONST_MASK = (int)LIBVIRQ_FIELD_MASK(F_SIZE), CONST_BIT = (int)LIBVIRQ_BIT(30) };
_Static_assert(CONST_MASK == 0xff, "constant expression");
_Static_assert(LIBVIRQ_FIELD_PREP(F_TOP, 1) == 0x8000000000000000ull, "constant PREP");

static void test_constant_expressions(void **state)
{
	static const uint64_t table[] = {LIBVIRQ_GENMASK(3, 0), LIBVIRQ_FIELD_PREP(F_SIZE, 3)};

	(void)state;
	assert_int_equal(table[0], 0xf);
	assert_int_equal(table[1], 3);
	switch (0x40000000) {
	case CONST_BIT:
		break;
	default:
		fail();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_genmask_values),
	    cmocka_unit_test(test_bit_every_position),
	    cmocka_unit_test(test_field_prep_get),
	    cmocka_unit_test(test_field_fits),
	    cmocka_unit_test(test_field_set),
	    cmocka_unit_test(test_addr_fits),
	    cmocka_unit_test(test_arguments_evaluated_once),
	    cmocka_unit_test(test_constant_expressions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
