/* SPDX-License-Identifier: MIT */
/*
 * AVIC pure encoders and decoders: physical/logical APIC ID table entries,
 * the doorbell value, the ICR, #VMEXIT information, trap/fault
 * classification, x2APIC MSR policy and the raw VMCB writer (AMD64 APM Vol 2 rev 3.44
 * rev 3.44 §15.29, §16.5, §16.13, Appendix B). The field code is generated
 * from the tables of libvirq/amd/fields.h: one straight-line statement per
 * field, no loops. No state, no I/O.
 */
#include "fields.h"

/* ---- physical APIC ID table entry (APM Vol 2 rev 3.44 Table 15-23) ---- */

virq_status virq_avic_phys_entry_encode(const struct virq_avic_phys_entry *f, uint64_t *out)
{
	uint64_t w[1] = {0};

	if (!f || !out)
		return LIBVIRQ_EINVAL;
	LIBVIRQ_AVIC_PHYS_ENTRY_TABLE(LIBVIRQ_AMD_ENC_, ~)
	*out = w[0];
	return LIBVIRQ_OK;
}

virq_status virq_avic_phys_entry_decode(uint64_t e, struct virq_avic_phys_entry *f)
{
	const uint64_t w[1] = {e};
	uint64_t rsvd = 0;

	if (!f)
		return LIBVIRQ_EINVAL;
	memset(f, 0, sizeof(*f));
	LIBVIRQ_AVIC_PHYS_ENTRY_TABLE(LIBVIRQ_AMD_DEC_, ~)
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

/* ---- logical APIC ID table entry (APM Vol 2 rev 3.44 Table 15-24) ---- */

struct log_entry_ {
	uint32_t guest_apic_id;
	bool valid;
};

virq_status virq_avic_logical_entry_encode(uint32_t guest_apic_id, bool valid, uint32_t *out)
{
	const struct log_entry_ v = {guest_apic_id, valid}, *f = &v;
	uint64_t w[1] = {0};

	if (!out)
		return LIBVIRQ_EINVAL;
	LIBVIRQ_AVIC_LOG_ENTRY_TABLE(LIBVIRQ_AMD_ENC_, ~)
	*out = (uint32_t)w[0];
	return LIBVIRQ_OK;
}

virq_status virq_avic_logical_entry_decode(uint32_t e, uint32_t *guest_apic_id, bool *valid)
{
	const uint64_t w[1] = {e};
	struct log_entry_ v = {0, false}, *f = &v;
	uint64_t rsvd = 0;

	if (!guest_apic_id || !valid)
		return LIBVIRQ_EINVAL;
	LIBVIRQ_AVIC_LOG_ENTRY_TABLE(LIBVIRQ_AMD_DEC_, ~)
	*guest_apic_id = v.guest_apic_id;
	*valid = v.valid;
	return rsvd ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

/* ---- doorbell register (APM Vol 2 rev 3.44 Figure 15-22) ---- */

struct doorbell_ {
	uint32_t physical_apic_id;
};

virq_status virq_avic_doorbell_encode(uint32_t physical_apic_id, uint64_t *out)
{
	const struct doorbell_ v = {physical_apic_id}, *f = &v;
	uint64_t w[1] = {0};

	if (!out)
		return LIBVIRQ_EINVAL;
	LIBVIRQ_AVIC_DOORBELL_TABLE(LIBVIRQ_AMD_ENC_, ~)
	*out = w[0];
	return LIBVIRQ_OK;
}

/* ---- logical destinations ---- */

static bool one_bit_(uint32_t x)
{
	return x && !(x & (x - 1));
}

virq_status virq_avic_logical_index(uint32_t dfr, uint32_t ldr, uint32_t *index)
{
	uint32_t id = ldr >> 24, model = dfr >> 28;

	if (!index)
		return LIBVIRQ_EINVAL;
	if (model == 0xFu) {
		if (!one_bit_(id))
			return LIBVIRQ_ENOENT;
		*index = (uint32_t)__builtin_ctz(id);
		return LIBVIRQ_OK;
	}
	if (model != 0)
		return LIBVIRQ_EINVAL;
	/* Cluster 0xF is the broadcast cluster: never an entry. */
	if ((id >> 4) == 0xFu || !one_bit_(id & 0xFu))
		return LIBVIRQ_ENOENT;
	*index = (id >> 4) * 4u + (uint32_t)__builtin_ctz(id & 0xFu);
	return LIBVIRQ_OK;
}

uint32_t virq_avic_x2apic_ldr(uint32_t x2apic_id)
{
	return ((x2apic_id >> 4) << 16) | (1u << (x2apic_id & 0xFu));
}

/* ---- ICR (APM Vol 2 rev 3.44 Figure 16-18 xAPIC, Figure 16-34 x2APIC) ---- */

virq_status virq_avic_icr_decode(uint64_t icr, bool sender_x2apic, struct virq_avic_icr *out)
{
	const uint64_t w[1] = {icr};
	struct virq_avic_icr *f = out;
	uint64_t rsvd = 0;

	if (!out)
		return LIBVIRQ_EINVAL;
	memset(f, 0, sizeof(*f));
	/* The layout is the SENDER's mode (docs/rationale.md#avic-icr-sender-mode). */
	if (sender_x2apic) {
		LIBVIRQ_APIC_ICR_X2_TABLE(LIBVIRQ_AMD_DEC_, ~)
	} else {
		LIBVIRQ_APIC_ICR_TABLE(LIBVIRQ_AMD_DEC_, ~)
	}
	f->x2apic = sender_x2apic;
	(void)rsvd; /* the APIC acts on the defined fields; reserved bits are ignored */
	return LIBVIRQ_OK;
}

virq_status virq_avic_icr_encode(const struct virq_avic_icr *f, uint64_t *out)
{
	uint64_t w[1] = {0};

	if (!f || !out || (unsigned)f->delivery_mode > 7u || (unsigned)f->shorthand > 3u)
		return LIBVIRQ_EINVAL;
	if (f->x2apic) {
		/* DS and RRS do not exist in x2APIC mode (they "must be zero"). */
		if (f->busy || f->remote_read_status)
			return LIBVIRQ_EINVAL;
		LIBVIRQ_APIC_ICR_X2_TABLE(LIBVIRQ_AMD_ENC_, ~)
	} else {
		LIBVIRQ_APIC_ICR_TABLE(LIBVIRQ_AMD_ENC_, ~)
	}
	*out = w[0];
	return LIBVIRQ_OK;
}

/* ---- #VMEXIT information (APM Vol 2 rev 3.44 Tables 15-25 to 15-29) ---- */

struct ipi_info2_ {
	uint32_t raw_cause;
	uint32_t index;
};

virq_status virq_avic_exit_ipi_decode(uint64_t info1, uint64_t info2, bool sender_x2apic,
				      struct virq_avic_exit_ipi *out)
{
	const uint64_t w[1] = {info2};
	struct ipi_info2_ v = {0, 0}, *f = &v;
	uint64_t rsvd = 0;
	virq_status st;

	if (!out)
		return LIBVIRQ_EINVAL;
	st = virq_avic_icr_decode(info1, sender_x2apic, &out->icr);
	if (st != LIBVIRQ_OK)
		return st;
	LIBVIRQ_AVIC_IPI_INFO2_TABLE(LIBVIRQ_AMD_DEC_, ~)
	(void)rsvd; /* bits 31:12 are reserved; the ID and Index are what matters */
	out->raw_cause = v.raw_cause;
	out->cause = v.raw_cause <= LIBVIRQ_AVIC_IPI_UNACCELERATED
			 ? (enum virq_avic_ipi_cause)v.raw_cause
			 : LIBVIRQ_AVIC_IPI_UNKNOWN;
	out->index = v.index;
	/* "For ID = 1 - 3, this field provides the index ... Reserved for all other ID values." */
	out->index_valid = v.raw_cause >= LIBVIRQ_AVIC_IPI_TARGET_NOT_RUNNING &&
			   v.raw_cause <= LIBVIRQ_AVIC_IPI_INVALID_BACKING_PAGE;
	return LIBVIRQ_OK;
}

#define VAPIC_ROW_(first, last, msr, rd, wr, name)                                                 \
	{first, last, msr, LIBVIRQ_AVIC_ACCESS_##rd, LIBVIRQ_AVIC_ACCESS_##wr, name},

const struct virq_avic_vapic_reg virq_avic_vapic_regs[] = {
    LIBVIRQ_AVIC_VAPIC_ACCESS_TABLE(VAPIC_ROW_){0, 0, 0, 0, 0, NULL}};

bool virq_avic_noaccel_is_trap(uint32_t offset, bool ext_lvt_trap)
{
	for (const struct virq_avic_vapic_reg *r = virq_avic_vapic_regs; r->name; r++) {
		if (offset < r->first || offset > r->last || (offset & 0xFu))
			continue;
		switch (r->write) {
		case LIBVIRQ_AVIC_ACCESS_TRAP:
		case LIBVIRQ_AVIC_ACCESS_ACCEL_TRAP:
			return true;
		case LIBVIRQ_AVIC_ACCESS_EXTLVT_WRITE:
			return ext_lvt_trap;
		default:
			return false;
		}
	}
	return false;
}

struct noaccel_info1_ {
	bool write;
	uint32_t offset;
};

struct noaccel_info2_ {
	uint32_t vector;
};

virq_status virq_avic_exit_noaccel_decode(uint64_t info1, uint64_t info2, bool ext_lvt_trap,
					  struct virq_avic_exit_noaccel *out)
{
	struct noaccel_info1_ v1 = {false, 0};
	struct noaccel_info2_ v2 = {0};
	uint64_t rsvd = 0;

	if (!out)
		return LIBVIRQ_EINVAL;
	{
		const uint64_t w[1] = {info1};
		struct noaccel_info1_ *f = &v1;

		LIBVIRQ_AVIC_NOACCEL_INFO1_TABLE(LIBVIRQ_AMD_DEC_, ~)
	}
	{
		const uint64_t w[1] = {info2};
		struct noaccel_info2_ *f = &v2;

		LIBVIRQ_AVIC_NOACCEL_INFO2_TABLE(LIBVIRQ_AMD_DEC_, ~)
	}
	(void)rsvd; /* reserved bits of hardware-written exit information are ignored */
	out->offset = v1.offset;
	out->write = v1.write;
	out->trap = virq_avic_noaccel_is_trap(v1.offset, ext_lvt_trap);
	/* Vector: "Vector for attempted EOI; otherwise undefined" (APM Vol 2 rev 3.44 Table 15-29).
	 */
	out->vector_valid = v1.write && v1.offset == 0x0B0u;
	out->vector = out->vector_valid ? (uint8_t)v2.vector : 0;
	return LIBVIRQ_OK;
}

enum virq_avic_msr_access virq_avic_x2apic_msr_access(uint32_t msr)
{
	switch (msr) {
	case 0x808: /* TPR */
	case 0x830: /* ICR */
		return LIBVIRQ_AVIC_MSR_PASS_READ_WRITE;
	case 0x80B: /* EOI (write only: reads #GP, intercept them) */
	case 0x83F: /* SELF_IPI (write only) */
		return LIBVIRQ_AVIC_MSR_PASS_WRITE;
	case 0x802:
	case 0x803:
	case 0x80A:
	case 0x80D:
	case 0x80F:
	case 0x828:
		return LIBVIRQ_AVIC_MSR_PASS_READ;
	default:
		break;
	}
	/* ISR, TMR, IRR 0x810..0x827; LVT CMCI..Error 0x82F, 0x832..0x837; TMICT 0x838. */
	if ((msr >= 0x810 && msr <= 0x827) || msr == 0x82F || (msr >= 0x832 && msr <= 0x838))
		return LIBVIRQ_AVIC_MSR_PASS_READ;
	return LIBVIRQ_AVIC_MSR_INTERCEPT;
}

/* Little-endian accessors for the raw VMCB (independent of host byte order). */
static void put_le_(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le_(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

virq_status virq_avic_vmcb_write(void *vmcb, const struct virq_avic_vmcb_values *v)
{
	uint8_t *b = vmcb;
	uint32_t ctl, clean;

	if (!vmcb || !v)
		return LIBVIRQ_EINVAL;
	ctl = (uint32_t)get_le_(b + LIBVIRQ_VMCB_INT_CTL, 4);
	ctl = (ctl & ~v->int_ctl_clear) | v->int_ctl_set;
	put_le_(b + LIBVIRQ_VMCB_INT_CTL, ctl, 4);
	put_le_(b + LIBVIRQ_VMCB_AVIC_APIC_BAR, v->apic_bar, 8);
	put_le_(b + LIBVIRQ_VMCB_AVIC_BACKING_PAGE, v->backing_page, 8);
	put_le_(b + LIBVIRQ_VMCB_AVIC_LOGICAL_TABLE, v->logical_table, 8);
	put_le_(b + LIBVIRQ_VMCB_AVIC_PHYSICAL_TABLE, v->physical_table, 8);
	clean = (uint32_t)get_le_(b + LIBVIRQ_VMCB_CLEAN, 4);
	put_le_(b + LIBVIRQ_VMCB_CLEAN, clean & ~v->clean_clear, 4);
	return LIBVIRQ_OK;
}
