// SPDX-License-Identifier: GPL-2.0-only
/*
 * xen_perfc: resets or prints Xen's performance counters from dom0, with
 * the XEN_SYSCTL_perfc_op hypercall (Xen built with CONFIG_PERF_COUNTERS),
 * so that a test can count what Xen did during one window of work:
 *
 *   insmod xen_perfc.ko op=reset sysctl_version=0x16; rmmod xen_perfc
 *   ... the work ...
 *   insmod xen_perfc.ko op=print sysctl_version=0x16; rmmod xen_perfc
 *
 * op=keys keys=STRING sends Xen debug keys instead (XEN_SYSCTL_debug_keys:
 * Xen runs their handlers in this domain's context).
 *
 * op=print prints one line per counter whose total over all CPUs is not 0:
 *   XEN-PERFC: <total> <name>
 * and "XEN-PERFC: done <counters>" last. sysctl_version is Xen's
 * XEN_SYSCTL_INTERFACE_VERSION (xen/include/public/sysctl.h), which
 * changes between releases: Xen refuses any other value with -EACCES.
 *
 * The structures are those of Xen's public/sysctl.h (ABI, stable within an
 * interface version): struct xen_sysctl with the perfc_op member.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <xen/interface/xen.h>
#include <asm/xen/hypercall.h>

#define XEN_SYSCTL_PERFC_OP 5
#define XEN_SYSCTL_DEBUG_KEYS 7
#define PERFCOP_RESET 1
#define PERFCOP_QUERY 2

static char *op = "print";
module_param(op, charp, 0444);
MODULE_PARM_DESC(op, "reset, print or keys");

static char *keys = "";
module_param(keys, charp, 0444);
MODULE_PARM_DESC(keys, "debug keys for op=keys");

static unsigned int sysctl_version;
module_param(sysctl_version, uint, 0444);
MODULE_PARM_DESC(sysctl_version, "Xen's XEN_SYSCTL_INTERFACE_VERSION");

struct perfc_desc {
	char name[80];
	u32 nr_vals;
};

struct perfc_op {
	u32 cmd;
	u32 nr_counters;
	u32 nr_vals;
	u32 pad;
	u64 desc; /* XEN_GUEST_HANDLE_64(xen_sysctl_perfc_desc_t) */
	u64 val;  /* XEN_GUEST_HANDLE_64(xen_sysctl_perfc_val_t) */
};

struct debug_keys {
	u64 keys; /* XEN_GUEST_HANDLE_64(char) */
	u32 nr_keys;
};

struct sysctl {
	u32 cmd;
	u32 interface_version;
	union {
		struct perfc_op perfc_op;
		struct debug_keys debug_keys;
		u8 pad[128];
	} u;
};

static long perfc(struct sysctl *s, u32 cmd, void *desc, void *val)
{
	memset(s, 0, sizeof(*s));
	s->cmd = XEN_SYSCTL_PERFC_OP;
	s->interface_version = sysctl_version;
	s->u.perfc_op.cmd = cmd;
	s->u.perfc_op.desc = (u64)(unsigned long)desc;
	s->u.perfc_op.val = (u64)(unsigned long)val;
	return privcmd_call(__HYPERVISOR_sysctl, (unsigned long)s, 0, 0, 0, 0);
}

static long debug_keys(struct sysctl *s)
{
	memset(s, 0, sizeof(*s));
	s->cmd = XEN_SYSCTL_DEBUG_KEYS;
	s->interface_version = sysctl_version;
	s->u.debug_keys.keys = (u64)(unsigned long)keys;
	s->u.debug_keys.nr_keys = strlen(keys);
	return privcmd_call(__HYPERVISOR_sysctl, (unsigned long)s, 0, 0, 0, 0);
}

static int print_counters(struct sysctl *s)
{
	struct perfc_desc *desc;
	u32 *val, nc, nv, i, j, v = 0;
	long rc;

	rc = perfc(s, PERFCOP_QUERY, NULL, NULL);
	if (rc)
		return rc;
	nc = s->u.perfc_op.nr_counters;
	nv = s->u.perfc_op.nr_vals;
	desc = kcalloc(nc, sizeof(*desc), GFP_KERNEL);
	val = kcalloc(nv, sizeof(*val), GFP_KERNEL);
	rc = -ENOMEM;
	if (desc && val)
		rc = perfc(s, PERFCOP_QUERY, desc, val);
	for (i = 0; !rc && i < nc && v + desc[i].nr_vals <= nv; i++) {
		u64 total = 0;
		u32 first = v;

		for (j = 0; j < desc[i].nr_vals; j++)
			total += val[v++];
		desc[i].name[sizeof(desc[i].name) - 1] = 0;
		if (total)
			pr_info("XEN-PERFC: %llu %s\n", total, desc[i].name);
		/* Per pCPU too (dom0_vcpus_pin: pCPU n runs vCPU n). */
		if (total && desc[i].nr_vals == 2)
			pr_info("XEN-PERFC-CPU: %u %u %s\n", val[first], val[first + 1],
				desc[i].name);
	}
	if (!rc)
		pr_info("XEN-PERFC: done %u\n", nc);
	kfree(desc);
	kfree(val);
	return rc;
}

static int __init xen_perfc_init(void)
{
	struct sysctl *s = kzalloc(sizeof(*s), GFP_KERNEL);
	long rc;

	if (!s)
		return -ENOMEM;
	if (!strcmp(op, "reset"))
		rc = perfc(s, PERFCOP_RESET, NULL, NULL);
	else if (!strcmp(op, "print"))
		rc = print_counters(s);
	else if (!strcmp(op, "keys"))
		rc = debug_keys(s);
	else
		rc = -EINVAL;
	kfree(s);
	if (rc)
		pr_err("XEN-PERFC: op=%s failed: %ld\n", op, rc);
	return rc ? -EIO : 0;
}

static void __exit xen_perfc_exit(void)
{
}

module_init(xen_perfc_init);
module_exit(xen_perfc_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Reset or print Xen's performance counters (XEN_SYSCTL_perfc_op)");
