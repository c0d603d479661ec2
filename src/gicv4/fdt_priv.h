/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the device-tree discovery archive (virq_fdt): fdt.c (blob
 * validation, GIC discovery) and fdt_pci.c (PCI host bridges, msi-map).
 * Not a public header. Every helper takes a blob that check_blob has
 * accepted: structure block walked, every tag and property length inside it.
 */
#ifndef LIBVIRQ_SRC_GICV4_FDT_PRIV_H
#define LIBVIRQ_SRC_GICV4_FDT_PRIV_H

/*
 * libfdt's own porting header already supplies every type and the mem*
 * prototypes libvirq's virq_env.h would declare; use it as the env header
 * (the documented porting point) so nothing is declared twice.
 */
#include <libfdt.h>
#ifndef LIBVIRQ_ENV_HEADER
#define LIBVIRQ_ENV_HEADER <libfdt_env.h>
#endif
#include <libvirq/fdt.h>

/* A bus: the #address-cells / #size-cells its children's reg entries use. */
struct virq_fdt_cells_ {
	uint32_t ac; /* 1 or 2 (3 only where a PCI bus is parsed explicitly) */
	uint32_t sc; /* 1 or 2 */
};

/* DT spec: ranges nesting is bounded by the tree depth; anything deeper is hostile. */
#define LIBVIRQ_FDT_MAX_DEPTH_ 64

/*
 * A node and its ancestors, root first: node[0] is the root (offset 0),
 * node[len - 1] the node itself. Lets address translation climb the tree
 * without libfdt's fdt_parent_offset(), which walks from the root each time
 * (a walk per level per region made enumerating PCI host bridges quadratic).
 */
struct virq_fdt_path_ {
	int node[LIBVIRQ_FDT_MAX_DEPTH_];
	uint32_t len;
};

/* Sets *why (when non-NULL) and returns @p st (inline: analysers see the status). */
static inline virq_status virq_fdt_fail_(const char **why, virq_status st, const char *msg)
{
	if (why)
		*why = msg;
	return st;
}

/* Sets *why (when non-NULL) and returns LIBVIRQ_EBADDT. */
static inline virq_status virq_fdt_bad_(const char **why, const char *msg)
{
	return virq_fdt_fail_(why, LIBVIRQ_EBADDT, msg);
}

/* Big-endian load of @p ncells (0..2) cells from an unaligned pointer. */
uint64_t virq_fdt_cells_at_(const uint8_t *p, uint32_t ncells);

/* One-cell property that must be exactly 4 bytes. 1: found, 0: absent, -1: bad. */
int virq_fdt_u32_(const void *fdt, int node, const char *name, uint32_t *out);

/* status absent, "okay" or "ok". */
bool virq_fdt_enabled_(const void *fdt, int node);

/* A bus node's #address-cells / #size-cells (defaults 2 and 1), each 1 or 2. */
virq_status virq_fdt_bus_cells_(const void *fdt, int bus, struct virq_fdt_cells_ *c,
				const char **why);

/* Non-zero size and no wrap past the top of the 64-bit space. */
virq_status virq_fdt_region_ok_(uint64_t base, uint64_t size, const char **why);

/*
 * Translates [*addr, *addr + size) expressed on bus @p bus (the parent of
 * the node it came from) into a root (CPU) address through every
 * ancestor's ranges.
 */
virq_status virq_fdt_translate_(const void *fdt, int bus, uint64_t *addr, uint64_t size,
				const char **why);
/* The same for the bus at the end of @p path (one walk less). */
virq_status virq_fdt_translate_path_(const void *fdt, const struct virq_fdt_path_ *path,
				     uint64_t *addr, uint64_t size, const char **why);

/*
 * Validates the whole blob in [fdt, fdt + bufsize) before any lookup:
 * header fields libfdt 1.6.1 does not check safely, the structure block
 * walk, then fdt_check_full().
 */
virq_status virq_fdt_check_blob_(const void *fdt, size_t bufsize, const char **why);

/* @p node is the offset of a FDT_BEGIN_NODE tag of this blob. */
bool virq_fdt_node_ok_(const void *fdt, int32_t node);

#endif /* LIBVIRQ_SRC_GICV4_FDT_PRIV_H */
