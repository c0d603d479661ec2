/* SPDX-License-Identifier: MIT */
/*
 * A minimal PCIe enumerator for a bare-metal hypervisor: the host bridge the
 * device tree describes (binding pci-host-ecam-generic: reg = ECAM,
 * bus-range, ranges; Linux Documentation/devicetree/bindings/pci/
 * host-generic-pci.yaml), configuration space through ECAM (PCI Express Base
 * Specification §7.2.2: bus << 20 | device << 15 | function << 12), BAR
 * sizing and assignment, and the MSI capability (PCI Local Bus Specification
 * 3.0 §6.8.1). Bridges are not programmed: every bus of bus-range that the
 * ECAM covers is scanned as it is (QEMU's virt puts its devices on bus 0).
 */
#include "pci.h"

#include "minihv.h"

#include <libfdt.h>
#include <string.h>

#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY (1u << 1)
#define PCI_COMMAND_MASTER (1u << 2)
#define PCI_COMMAND_INTX_DISABLE (1u << 10)
#define PCI_STATUS_CAP_LIST (1u << 20) /* in the dword at 0x04 */
#define PCI_HEADER_TYPE 0x0c           /* byte 2 of the dword at 0x0c */
#define PCI_BAR0 0x10
#define PCI_CAP_PTR 0x34
#define PCI_CAP_ID_MSI 0x05
#define MSI_CTRL_ENABLE (1u << 0)
#define MSI_CTRL_64BIT (1u << 7)

static uint64_t be_cells_(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n * 4; i++)
		v = v << 8 | p[i];
	return v;
}

uint32_t pci_cfg_read32(const struct pci_fn *f, uint32_t off)
{
	return *(volatile uint32_t *)(uintptr_t)(f->cfg + (off & ~3u));
}

static void cfg_write32_(const struct pci_fn *f, uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)(f->cfg + (off & ~3u)) = v;
	dsb(sy);
}

static uint8_t cfg_read8_(const struct pci_fn *f, uint32_t off)
{
	return (uint8_t)(pci_cfg_read32(f, off) >> ((off & 3u) * 8));
}

int pcie_host_from_dt(const void *fdt, struct pcie_host *h)
{
	int node = fdt_node_offset_by_compatible(fdt, -1, "pci-host-ecam-generic");
	int parent, pac, psc, ac, sc, len = 0;
	const uint8_t *p;
	const char *status;

	memset(h, 0, sizeof(*h));
	while (node >= 0) {
		status = fdt_getprop(fdt, node, "status", NULL);
		if (!status || !strcmp(status, "okay") || !strcmp(status, "ok"))
			break;
		node = fdt_node_offset_by_compatible(fdt, node, "pci-host-ecam-generic");
	}
	if (node < 0) {
		con_puts("minihv: no enabled pci-host-ecam-generic node in the device tree\n");
		return -1;
	}
	h->node = node;
	parent = fdt_parent_offset(fdt, node);
	pac = fdt_address_cells(fdt, parent);
	psc = fdt_size_cells(fdt, parent);
	ac = fdt_address_cells(fdt, node);
	sc = fdt_size_cells(fdt, node);
	/* The host bridge must sit where its reg is a CPU address (root, as on virt). */
	if (parent != 0 || pac < 1 || pac > 2 || psc < 1 || psc > 2 || ac != 3 || sc < 1 ||
	    sc > 2) {
		con_puts("minihv: PCIe host node: unsupported placement or cell sizes\n");
		return -1;
	}
	p = fdt_getprop(fdt, node, "reg", &len);
	if (!p || len < (pac + psc) * 4) {
		con_puts("minihv: PCIe host node has no reg (ECAM)\n");
		return -1;
	}
	h->ecam = be_cells_(p, pac);
	h->ecam_size = be_cells_(p + pac * 4, psc);
	h->bus_start = 0;
	h->bus_end = 255;
	p = fdt_getprop(fdt, node, "bus-range", &len);
	if (p && len == 8) {
		h->bus_start = (uint32_t)be_cells_(p, 1);
		h->bus_end = (uint32_t)be_cells_(p + 4, 1);
	}
	/* The ECAM covers (size >> 20) buses from bus_start. */
	if (h->ecam_size < (1u << 20) || h->bus_end < h->bus_start || h->bus_end > 255) {
		con_puts("minihv: PCIe host: bad ECAM size or bus-range\n");
		return -1;
	}
	if (h->bus_end - h->bus_start + 1 > h->ecam_size >> 20)
		h->bus_end = h->bus_start + (uint32_t)(h->ecam_size >> 20) - 1;
	/* ranges: <pci address (3 cells)> <CPU address (pac)> <size (sc)>; the
	 * space code in phys.hi bits 25:24 is 2 for 32-bit memory; bit 30 is
	 * prefetchable (IEEE 1275 PCI binding). */
	p = fdt_getprop(fdt, node, "ranges", &len);
	for (int e = 0, esz = (3 + pac + sc) * 4; p && (e + 1) * esz <= len; e++) {
		const uint8_t *q = p + e * esz;
		uint32_t hi = (uint32_t)be_cells_(q, 1);

		if (((hi >> 24) & 3) != 2 || (hi & (1u << 30)))
			continue;
		h->mem_pci = be_cells_(q + 4, 2);
		h->mem_cpu = be_cells_(q + 12, pac);
		h->mem_size = be_cells_(q + 12 + pac * 4, sc);
		break;
	}
	if (!h->mem_size) {
		con_puts("minihv: PCIe host: no 32-bit memory window in ranges\n");
		return -1;
	}
	h->mem_next = h->mem_pci;
	return 0;
}

int pci_find(struct pcie_host *h, uint16_t vendor, uint16_t device, struct pci_fn *out,
	     uint32_t *nr_functions)
{
	int found = -1;

	*nr_functions = 0;
	for (uint32_t bus = h->bus_start; bus <= h->bus_end; bus++) {
		for (uint32_t dev = 0; dev < 32; dev++) {
			for (uint32_t fn = 0; fn < 8; fn++) {
				struct pci_fn f;
				uint32_t id;

				memset(&f, 0, sizeof(f));
				f.rid = bus << 8 | dev << 3 | fn;
				f.cfg = h->ecam + ((uint64_t)(bus - h->bus_start) << 20 |
						   (uint64_t)dev << 15 | (uint64_t)fn << 12);
				id = pci_cfg_read32(&f, 0);
				if ((id & 0xffff) == 0xffff) {
					if (fn == 0)
						break;
					continue;
				}
				(*nr_functions)++;
				f.vendor = (uint16_t)id;
				f.device = (uint16_t)(id >> 16);
				if (found < 0 && f.vendor == vendor && f.device == device) {
					*out = f;
					found = 0;
				}
				/* Single-function device: header type bit 7 clear. */
				if (fn == 0 && !(cfg_read8_(&f, PCI_HEADER_TYPE + 2) & 0x80))
					break;
			}
		}
	}
	return found;
}

int pci_assign_bar0(struct pcie_host *h, struct pci_fn *f)
{
	uint32_t orig = pci_cfg_read32(f, PCI_BAR0), rb, size;
	uint64_t a;

	cfg_write32_(f, PCI_COMMAND, pci_cfg_read32(f, PCI_COMMAND) & 0xffffu &
					 ~PCI_COMMAND_MEMORY); /* decode off while sizing */
	cfg_write32_(f, PCI_BAR0, 0xffffffffu);
	rb = pci_cfg_read32(f, PCI_BAR0);
	cfg_write32_(f, PCI_BAR0, orig);
	if (rb & 1u) {
		con_puts("minihv: BAR0 is an I/O BAR\n");
		return -1;
	}
	if (((rb >> 1) & 3u) != 0) {
		con_puts("minihv: BAR0 is not a 32-bit memory BAR\n");
		return -1;
	}
	size = ~(rb & ~0xfu) + 1u;
	if (!size || (size & (size - 1))) {
		con_printf("minihv: BAR0 sizing read back 0x%x\n", rb);
		return -1;
	}
	a = (h->mem_next + size - 1) & ~((uint64_t)size - 1);
	if (a + size > h->mem_pci + h->mem_size || a + size > 0x100000000ull) {
		con_puts("minihv: BAR0 does not fit the 32-bit memory window\n");
		return -1;
	}
	cfg_write32_(f, PCI_BAR0, (uint32_t)a);
	if ((pci_cfg_read32(f, PCI_BAR0) & ~0xfu) != (uint32_t)a) {
		con_printf("minihv: BAR0 did not take 0x%lx\n", a);
		return -1;
	}
	h->mem_next = a + size;
	cfg_write32_(f, PCI_COMMAND, (pci_cfg_read32(f, PCI_COMMAND) & 0xffffu) |
					 PCI_COMMAND_MEMORY);
	f->bar0 = h->mem_cpu + (a - h->mem_pci);
	f->bar0_size = size;
	return 0;
}

int pci_find_msi(struct pci_fn *f)
{
	uint32_t ptr;

	if (!(pci_cfg_read32(f, PCI_COMMAND) & PCI_STATUS_CAP_LIST))
		return -1;
	ptr = cfg_read8_(f, PCI_CAP_PTR) & 0xfcu;
	/* At most 48 capabilities fit in the 192 bytes after the header. */
	for (uint32_t hops = 0; ptr >= 0x40 && hops < 48; hops++) {
		if (cfg_read8_(f, ptr) == PCI_CAP_ID_MSI) {
			f->msi = ptr;
			f->msi64 = (pci_cfg_read32(f, ptr) >> 16) & MSI_CTRL_64BIT;
			return 0;
		}
		ptr = cfg_read8_(f, ptr + 1) & 0xfcu;
	}
	return -1;
}

static uint32_t msi_data_off_(const struct pci_fn *f)
{
	return f->msi + (f->msi64 ? 0x0c : 0x08);
}

void pci_msi_set_data(struct pci_fn *f, uint16_t data)
{
	cfg_write32_(f, msi_data_off_(f), data);
}

void pci_msi_enable(struct pci_fn *f, uint64_t addr, uint16_t data)
{
	uint32_t hdr = pci_cfg_read32(f, f->msi);
	uint32_t ctrl = (hdr >> 16) & ~(7u << 4); /* MME = 0: one vector */

	cfg_write32_(f, f->msi + 4, (uint32_t)addr);
	if (f->msi64)
		cfg_write32_(f, f->msi + 8, (uint32_t)(addr >> 32));
	pci_msi_set_data(f, data);
	cfg_write32_(f, f->msi, (hdr & 0xffffu) | (ctrl | MSI_CTRL_ENABLE) << 16);
	/* Memory decode for the BAR, bus mastering for the MSI write (an MSI is a
	 * memory write by the device), legacy INTx off. Status half written 0 (W1C). */
	cfg_write32_(f, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
					 PCI_COMMAND_INTX_DISABLE);
}

/*
 * RID -> (ITS, DeviceID) through the host bridge's msi-map (Linux
 * Documentation/devicetree/bindings/pci/pci-msi.txt): entries <rid-base
 * &msi-controller msi-base length>, the RID masked with msi-map-mask first
 * (default all ones). The controller's phandle is resolved to its node and
 * matched with the GIC description by the node's reg.
 */
int pci_msi_map(const void *fdt, const struct pcie_host *h, uint32_t rid,
		const uint64_t *its_bases, uint32_t nr_its, uint32_t *its_idx, uint32_t *devid)
{
	int len = 0;
	const uint8_t *map = fdt_getprop(fdt, h->node, "msi-map", &len);
	const uint8_t *mask = fdt_getprop(fdt, h->node, "msi-map-mask", NULL);
	uint32_t id = rid & (mask ? (uint32_t)be_cells_(mask, 1) : 0xffffffffu);

	if (!map || len % 16) {
		con_puts("minihv: PCIe host has no usable msi-map\n");
		return -1;
	}
	for (int e = 0; e < len / 16; e++) {
		const uint8_t *q = map + e * 16;
		uint32_t base = (uint32_t)be_cells_(q, 1), ph = (uint32_t)be_cells_(q + 4, 1);
		uint32_t msi_base = (uint32_t)be_cells_(q + 8, 1), n = (uint32_t)be_cells_(q + 12, 1);
		int its = fdt_node_offset_by_phandle(fdt, ph), plen = 0;
		const uint8_t *reg;
		uint64_t a;

		if (id < base || id - base >= n)
			continue;
		reg = its >= 0 ? fdt_getprop(fdt, its, "reg", &plen) : NULL;
		if (!reg || plen < 8) {
			con_printf("minihv: msi-map phandle 0x%x names no node with a reg\n", ph);
			return -1;
		}
		a = be_cells_(reg, fdt_address_cells(fdt, fdt_parent_offset(fdt, its)));
		for (uint32_t i = 0; i < nr_its; i++) {
			if (its_bases[i] == a) {
				*its_idx = i;
				*devid = msi_base + (id - base);
				return 0;
			}
		}
		con_printf("minihv: msi-map points to 0x%lx, which is no ITS libvirq knows\n", a);
		return -1;
	}
	con_printf("minihv: RID 0x%x is outside every msi-map entry\n", rid);
	return -1;
}
