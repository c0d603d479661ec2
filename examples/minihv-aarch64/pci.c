/* SPDX-License-Identifier: MIT */
/*
 * A minimal PCIe enumerator for a bare-metal hypervisor: the host bridge the
 * device tree describes (libvirq's virq_fdt_discover_pci_host(): configuration
 * window, bus-range, ranges with CPU addresses), configuration space through
 * virq_fdt_pci_cfg_addr() (ECAM: bus << 20 | device << 15 | function << 12),
 * BAR sizing and assignment, and the MSI capability (PCI Local Bus
 * Specification 3.0 §6.8.1). Bridges are not programmed: every bus of
 * bus-range that the window covers is scanned as it is (QEMU's virt puts its
 * devices on bus 0).
 */
#include "pci.h"

#include "minihv.h"

#include <string.h>

#define PCI_COMMAND 0x04
#define PCI_COMMAND_MEMORY (1u << 1)
#define PCI_COMMAND_MASTER (1u << 2)
#define PCI_COMMAND_INTX_DISABLE (1u << 10)
#define PCI_STATUS_CAP_LIST (1u << 20) /* in the dword at 0x04 */
#define PCI_HEADER_TYPE 0x0c	       /* byte 2 of the dword at 0x0c */
#define PCI_BAR0 0x10
#define PCI_CAP_PTR 0x34
#define PCI_CAP_ID_MSI 0x05
#define MSI_CTRL_ENABLE (1u << 0)
#define MSI_CTRL_64BIT (1u << 7)

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

int pcie_host_from_dt(const void *fdt, size_t size, struct pcie_host *h)
{
	const char *why = NULL;
	virq_status st;

	memset(h, 0, sizeof(*h));
	st = virq_fdt_discover_pci_host(fdt, size, 0, &h->dt, &why);
	if (st != LIBVIRQ_OK) {
		con_printf("minihv: no usable PCI host bridge: %s (%s)\n", why, virq_strerror(st));
		return -1;
	}
	for (uint32_t i = 0; i < h->dt.nr_ranges; i++) {
		const struct virq_fdt_pci_range *r = &h->dt.ranges[i];

		if (r->space != LIBVIRQ_FDT_PCI_MEM32 || r->prefetchable)
			continue;
		h->mem_pci = r->pci_base;
		h->mem_cpu = r->cpu_base;
		h->mem_size = r->size;
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
	for (uint32_t bus = h->dt.bus_start; bus <= h->dt.bus_end; bus++) {
		for (uint32_t dev = 0; dev < 32; dev++) {
			for (uint32_t fn = 0; fn < 8; fn++) {
				struct pci_fn f;
				uint32_t id;

				memset(&f, 0, sizeof(f));
				f.rid = bus << 8 | dev << 3 | fn;
				if (virq_fdt_pci_cfg_addr(&h->dt, bus, dev, fn, 0, &f.cfg) !=
				    LIBVIRQ_OK)
					return -1;
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

	cfg_write32_(f, PCI_COMMAND,
		     pci_cfg_read32(f, PCI_COMMAND) & 0xffffu &
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
	cfg_write32_(f, PCI_COMMAND,
		     (pci_cfg_read32(f, PCI_COMMAND) & 0xffffu) | PCI_COMMAND_MEMORY);
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
	cfg_write32_(f, PCI_COMMAND,
		     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_INTX_DISABLE);
}
