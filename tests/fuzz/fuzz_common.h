/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the libFuzzer targets: a byte reader over the input and
 * FUZZ_CHECK, which aborts (a crash libFuzzer reports and minimises) when a
 * property of the library does not hold.
 */
#ifndef LIBVIRQ_FUZZ_COMMON_H
#define LIBVIRQ_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__,        \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* Consumes the input front to back; past the end every read gives zeros. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint64_t fuzz_take(struct fuzz_in *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		uint64_t b = 0;

		if (in->n) {
			b = *in->p++;
			in->n--;
		}
		v |= b << (8 * i);
	}
	return v;
}

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	return (uint8_t)fuzz_take(in, 1);
}
static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	return (uint16_t)fuzz_take(in, 2);
}
static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
	return (uint32_t)fuzz_take(in, 4);
}
static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
	return fuzz_take(in, 8);
}

#endif /* LIBVIRQ_FUZZ_COMMON_H */
