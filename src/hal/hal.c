/* SPDX-License-Identifier: MIT */
#include <libvirq/hal.h>
#include "hal_priv.h"

virq_status virq_hal_check_(const char *api, const struct virq_hal *hal, uint32_t needs)
{
	const struct virq_hal_ops *o;

	if (!hal || !hal->ops)
		return LIBVIRQ_EINVAL; /* no HAL to report through */
	o = hal->ops;
	if (o->version != LIBVIRQ_HAL_VERSION || o->size < LIBVIRQ_HAL_OPS_SIZE_V1)
		/* the ops table is not ours to read beyond version and size */
		return LIBVIRQ_EHALVER;
	/* In the order of the ops table: the first one missing is reported. */
	if (!o->mmio_read32)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "mmio_read32=NULL");
	if (!o->mmio_write32)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "mmio_write32=NULL");
	if (!o->mmio_read64)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "mmio_read64=NULL");
	if (!o->mmio_write64)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "mmio_write64=NULL");
	if ((needs & LIBVIRQ_HAL_NEED_MSR) && !o->msr_read)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "msr_read=NULL (LIBVIRQ_HAL_NEED_MSR)");
	if ((needs & LIBVIRQ_HAL_NEED_MSR) && !o->msr_write)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "msr_write=NULL (LIBVIRQ_HAL_NEED_MSR)");
	if ((needs & LIBVIRQ_HAL_NEED_CPUID) && !o->cpuid)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "cpuid=NULL (LIBVIRQ_HAL_NEED_CPUID)");
	if (!o->page_alloc)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "page_alloc=NULL");
	if (!o->page_free)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "page_free=NULL");
	if ((needs & LIBVIRQ_HAL_NEED_DCACHE) && !o->dcache_clean)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "dcache_clean=NULL (LIBVIRQ_HAL_NEED_DCACHE)");
	if (!o->now_ns)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL, "now_ns=NULL");
	if ((needs & LIBVIRQ_HAL_NEED_KICK) && !o->kick_vcpu)
		return LIBVIRQ_FAIL_(api, hal, LIBVIRQ_ENOHAL,
				     "kick_vcpu=NULL (LIBVIRQ_HAL_NEED_KICK)");
	return LIBVIRQ_OK;
}

virq_status virq_hal_validate(const struct virq_hal *hal, uint32_t needs)
{
	return virq_hal_check_(LIBVIRQ_ENTRY_, hal, needs);
}

/* A bounded output buffer; characters past the end are dropped and the
 * message ends in "..." (fmt_end_()). */
struct fmt_ {
	char *buf;
	size_t len, cap; /* cap: bytes before the NUL */
	bool cut;
};

static void fmt_ch_(struct fmt_ *f, char c)
{
	if (f->len < f->cap)
		f->buf[f->len++] = c;
	else
		f->cut = true;
}

static void fmt_str_(struct fmt_ *f, const char *s)
{
	while (*s)
		fmt_ch_(f, *s++);
}

static void fmt_num_(struct fmt_ *f, uint64_t v, unsigned base)
{
	char d[20];
	size_t n = 0;

	do {
		d[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		fmt_ch_(f, d[--n]);
}

/* One value as a placeholder says: 'u' decimal, 'd' signed decimal, 'x'
 * hexadecimal with 0x. */
static void fmt_val_(struct fmt_ *f, char conv, uint64_t v)
{
	if (conv == 'x') {
		fmt_str_(f, "0x");
		fmt_num_(f, v, 16);
	} else if (conv == 'd' && (int64_t)v < 0) {
		fmt_ch_(f, '-');
		fmt_num_(f, (uint64_t)0 - v, 10);
	} else {
		fmt_num_(f, v, 10);
	}
}

/* @check with its placeholders replaced by @vals; a placeholder without a
 * value prints "?", a value without a placeholder is not printed. */
static void fmt_check_(struct fmt_ *f, const char *check, const uint64_t *vals, size_t n)
{
	size_t k = 0;

	for (; *check; check++) {
		char conv = check[1];

		if (*check != '%' || (conv != 'u' && conv != 'd' && conv != 'x')) {
			fmt_ch_(f, *check);
			continue;
		}
		if (k < n)
			fmt_val_(f, conv, vals[k++]);
		else
			fmt_ch_(f, '?');
		check++;
	}
}

static void fmt_end_(struct fmt_ *f)
{
	if (f->cut)
		memcpy(f->buf + f->cap - 3, "...", 3);
	f->buf[f->len] = '\0';
}

/* "<api>: <check with values>"; without the check text "<api>: line <line>"
 * and the values, each as " 0x<hex>". */
static void fail_format_(char *buf, const struct virq_failure *r)
{
	struct fmt_ f = {buf, 0, LIBVIRQ_FAIL_MSG_SIZE - 1, false};
	size_t i;

	if (r->function && r->check) {
		fmt_str_(&f, r->function);
		fmt_str_(&f, ": ");
		fmt_check_(&f, r->check, r->values, r->nvalues);
	} else {
		if (r->function) {
			fmt_str_(&f, r->function);
			fmt_str_(&f, ": line ");
			fmt_num_(&f, r->line, 10);
		} else {
			fmt_str_(&f, r->check ? r->check : "libvirq");
			fmt_end_(&f);
			return;
		}
		for (i = 0; i < r->nvalues; i++) {
			fmt_ch_(&f, ' ');
			fmt_val_(&f, 'x', r->values[i]);
		}
	}
	fmt_end_(&f);
}

virq_status virq_fail_(const char *api, const struct virq_hal *hal, virq_status st, uint32_t line,
		       const char *check, const uint64_t *vals, size_t n)
{
	char msg[LIBVIRQ_FAIL_MSG_SIZE];
	uint64_t logv[LIBVIRQ_FAIL_MAX_VALUES + 1];
	struct virq_failure r;
	size_t i;

	if (!api || !hal || !hal->ops || (!hal->ops->log && !LIBVIRQ_HAL_HAS_(hal, fail)))
		return st;
	memset(&r, 0, sizeof(r));
	r.status = st;
	r.line = line;
	r.function = api;
	r.check = check;
	r.message = msg;
	r.nvalues = (uint32_t)(n < LIBVIRQ_FAIL_MAX_VALUES ? n : LIBVIRQ_FAIL_MAX_VALUES);
	for (i = 0; i < r.nvalues; i++)
		r.values[i] = vals[i];
	fail_format_(msg, &r);
	if (LIBVIRQ_HAL_HAS_(hal, fail)) {
		(hal->ops->fail)(hal->ctx, &r);
		return st;
	}
	/* The text channel: the status first, as a signed value, then the values. */
	logv[0] = (uint64_t)(int64_t)st;
	for (i = 0; i < r.nvalues; i++)
		logv[i + 1] = r.values[i];
	(hal->ops->log)(hal->ctx, LIBVIRQ_LOG_DEBUG, msg, logv, r.nvalues + 1);
	return st;
}

virq_status virq_fail_dead_(const char *api, const struct virq_hal *hal, const char *name,
			    bool null, uint32_t state, uint32_t gone, uint32_t line)
{
	char check[48];
	struct fmt_ f = {check, 0, sizeof(check) - 1, false};
	const uint64_t v = state;
	const size_t n = null || state == gone ? 0 : 1;

	if (!name)
		return virq_fail_(api, hal, LIBVIRQ_EINVAL, line, NULL, &v, n);
	fmt_str_(&f, name);
	fmt_str_(&f, null ? "=NULL" : state == gone ? " destroyed" : " not initialised (state=%x)");
	fmt_end_(&f);
	return virq_fail_(api, hal, LIBVIRQ_EINVAL, line, check, &v, n);
}

virq_status virq_page_alloc_fail_(const char *api, const struct virq_hal *hal, uint64_t size,
				  size_t align, struct virq_page *page, const char *check,
				  uint32_t line)
{
	uint64_t v[3] = {0, 0, 0};
	virq_status st = virq_page_alloc_got_(hal, size, align, page, v);

	if (st == LIBVIRQ_OK)
		return LIBVIRQ_OK;
	if (st == LIBVIRQ_EALIGN) { /* say which address broke the contract */
		v[2] = align;
		return virq_fail_(
		    api, hal, st, line,
		    LIBVIRQ_FAIL_CHECK_("HAL page_alloc returned pa=%x va=%x: the PA must "
					"be aligned to %u, the VA to 8 bytes"),
		    v, 3);
	}
	v[0] = size;
	v[1] = align;
	return virq_fail_(api, hal, st, line, check, v, 2);
}
