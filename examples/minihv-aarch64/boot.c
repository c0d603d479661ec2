/* SPDX-License-Identifier: MIT */
/*
 * Boot-time discovery from the device tree QEMU put at the start of RAM:
 * the console (chosen/stdout-path, PL011), the RAM size (memory node) and,
 * through libvirq's discovery (virq_fdt_discover_gic), the GIC.
 */
#include "boot.h"

#include "minihv.h"

#include <libfdt.h>
#include <string.h>

/* First reg entry of @node, with the parent's cells (1 or 2 each). */
static int first_reg_(const void *fdt, int node, uint64_t *base, uint64_t *size)
{
	int parent = fdt_parent_offset(fdt, node), len = 0;
	int ac, sc;
	const uint8_t *p;
	uint64_t v[2] = {0, 0};

	if (parent < 0)
		return -1;
	ac = fdt_address_cells(fdt, parent);
	sc = fdt_size_cells(fdt, parent);
	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return -1;
	p = fdt_getprop(fdt, node, "reg", &len);
	if (!p || len < (ac + sc) * 4)
		return -1;
	for (int c = 0; c < ac + sc; c++) {
		int w = c < ac ? 0 : 1;

		v[w] = v[w] << 32 | ((uint64_t)p[4 * c] << 24 | (uint64_t)p[4 * c + 1] << 16 |
				     (uint64_t)p[4 * c + 2] << 8 | p[4 * c + 3]);
	}
	*base = v[0];
	*size = v[1];
	return 0;
}

static int find_uart_(const void *fdt, uint64_t *base)
{
	int chosen = fdt_path_offset(fdt, "/chosen"), len = 0, node = -1, n;
	const char *path = chosen >= 0 ? fdt_getprop(fdt, chosen, "stdout-path", &len) : NULL;
	uint64_t size;

	if (path && len > 1) {
		n = (int)strnlen(path, (size_t)len);
		for (int i = 0; i < n; i++)
			if (path[i] == ':')
				n = i;
		node = fdt_path_offset_namelen(fdt, path, n);
	}
	if (node < 0 || fdt_node_check_compatible(fdt, node, "arm,pl011") != 0)
		node = fdt_node_offset_by_compatible(fdt, -1, "arm,pl011");
	if (node < 0)
		return -1;
	return first_reg_(fdt, node, base, &size);
}

static int find_ram_(const void *fdt, uint64_t *base, uint64_t *size)
{
	int node = fdt_path_offset(fdt, "/memory");

	if (node < 0) {
		for (node = fdt_next_node(fdt, -1, NULL); node >= 0;
		     node = fdt_next_node(fdt, node, NULL)) {
			const char *t = fdt_getprop(fdt, node, "device_type", NULL);

			if (t && !strcmp(t, "memory"))
				break;
		}
	}
	if (node < 0)
		return -1;
	return first_reg_(fdt, node, base, size);
}

/*
 * The EL2 physical timer's PPI: the 4th interrupt of the arm,armv8-timer node
 * (binding: secure, non-secure, virtual, hypervisor), GIC cells <1 n flags>
 * for PPI n (INTID 16 + n).
 */
static int find_hyp_timer_(const void *fdt, uint32_t *intid)
{
	int node = fdt_node_offset_by_compatible(fdt, -1, "arm,armv8-timer"), len = 0;
	const uint8_t *p = node >= 0 ? fdt_getprop(fdt, node, "interrupts", &len) : NULL;
	uint32_t c[3];

	if (!p || len < 48)
		return -1;
	for (int i = 0; i < 3; i++)
		c[i] = (uint32_t)p[36 + 4 * i] << 24 | (uint32_t)p[37 + 4 * i] << 16 |
		       (uint32_t)p[38 + 4 * i] << 8 | p[39 + 4 * i];
	if (c[0] != 1 || c[1] > 15)
		return -1;
	*intid = 16 + c[1];
	return 0;
}

int boot_discover(uint64_t dtb, size_t room, struct boot_info *bi)
{
	const void *fdt = (const void *)(uintptr_t)dtb;
	virq_status st;

	memset(bi, 0, sizeof(*bi));
	if (fdt_check_header(fdt) != 0) {
		con_puts("minihv: no device tree at the start of RAM (link above 0x40100000?)\n");
		return -1;
	}
	if (fdt_totalsize(fdt) > room) {
		con_puts("minihv: device tree larger than the room below the image\n");
		return -1;
	}
	if (find_uart_(fdt, &bi->uart) == 0)
		con_init(bi->uart);
	if (find_ram_(fdt, &bi->ram_base, &bi->ram_size) != 0) {
		con_puts("minihv: no memory node in the device tree\n");
		return -1;
	}
	if (find_hyp_timer_(fdt, &bi->hyp_timer_intid) != 0) {
		con_puts("minihv: no arm,armv8-timer node with a hypervisor timer PPI\n");
		return -1;
	}
	st = virq_fdt_discover_gic(fdt, fdt_totalsize(fdt), &bi->gic, &bi->why);
	if (st != LIBVIRQ_OK) {
		con_printf("minihv: GIC discovery failed: %s (%s)\n", bi->why, virq_strerror(st));
		return -1;
	}
	return 0;
}
