/* SPDX-License-Identifier: MIT */
/*
 * avic_model: a model of the AVIC hardware's handling of a guest ICR write
 * (AMD APM Vol 2 §15.29.3.1), written independently of libvirq's own
 * resolution and decoders: it reads the raw VMCB, the physical and logical
 * APIC ID tables and the backing pages through the fake HAL's PA -> VA map
 * with its own masks. An ICR write either sets IRR bits in the targets'
 * backing pages (recording doorbells for running targets) or produces the
 * #VMEXIT AVIC_INCOMPLETE_IPI with a cause and index.
 */
#ifndef AVIC_MODEL_H
#define AVIC_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "fake_hal.h"

#define AVIC_MODEL_MAX 4097

struct avic_model_result {
	bool exited;	       /* #VMEXIT taken */
	uint64_t exit_code;    /* 0x401 */
	uint64_t info1, info2; /* EXITINFO1/2 */
	uint32_t nirr;	       /* physical-table indexes whose IRR bit was set */
	uint32_t irr[AVIC_MODEL_MAX];
	uint32_t ndoorbell; /* host APIC IDs signalled */
	uint32_t doorbell[AVIC_MODEL_MAX];
};

/* Model options. */
struct avic_model_opts {
	bool check_vector; /* vectors < 16 exit with INVALID_IPI_VECTOR (newer CPUs) */
};

/*
 * The guest running on host CPU @host_apic_id with VMCB @vmcb writes
 * ICR2 = @icr_hi then ICR = @icr_lo (xAPIC) or the 64-bit ICR MSR (x2APIC;
 * @icr_hi = destination). Returns 0, or -1 when the VMCB does not enable
 * AVIC or a table is not mapped (test setup error).
 */
int avic_model_icr_write(struct fake_hal *fh, const void *vmcb, uint32_t host_apic_id,
			 uint32_t icr_lo, uint32_t icr_hi, const struct avic_model_opts *opts,
			 struct avic_model_result *r);

/* Test helpers reading a backing page by VA with the model's own offsets. */
bool avic_model_irr_test(const void *backing_va, uint8_t vector);
void avic_model_irr_clear(void *backing_va, uint8_t vector);

/* Records doorbell MSR writes made by the library (values = host APIC IDs). */
struct avic_model_doorbells {
	uint32_t n;
	uint64_t last;
	uint32_t per_host[4096];
};
void avic_model_watch_doorbells(struct fake_hal *fh, struct avic_model_doorbells *d);

#endif
