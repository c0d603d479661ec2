/* SPDX-License-Identifier: MIT */
/*
 * PCIe for minihv: the host bridge and the MSI topology come from libvirq's
 * device-tree calls (virq_fdt_discover_pci_host(), virq_fdt_pci_cfg_addr(),
 * virq_fdt_msi_map()); the bus scan, BAR assignment and MSI capability are
 * minihv's own.
 */
#ifndef MINIHV_PCI_H
#define MINIHV_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libvirq/fdt.h>

struct pcie_host {
	struct virq_fdt_pci_host dt; /* from virq_fdt_discover_pci_host() */
	uint64_t mem_pci;	     /* the 32-bit non-prefetchable memory window: PCI address */
	uint64_t mem_cpu;	     /* ... and the CPU address it appears at */
	uint64_t mem_size;
	uint64_t mem_next; /* allocation cursor (PCI address) */
};

struct pci_fn {
	uint32_t rid; /* requester ID: bus << 8 | dev << 3 | fn */
	uint64_t cfg; /* its 4 KiB configuration space in the ECAM */
	uint16_t vendor, device;
	uint64_t bar0; /* BAR0: CPU address after pci_assign_bar0() */
	uint64_t bar0_size;
	uint32_t msi; /* offset of the MSI capability (0: none) */
	bool msi64;
};

/* The first generic host bridge of the tree and its 32-bit memory window. */
int pcie_host_from_dt(const void *fdt, size_t size, struct pcie_host *h);
/* Scans every bus of the host for @vendor:@device; 0 when found. */
int pci_find(struct pcie_host *h, uint16_t vendor, uint16_t device, struct pci_fn *f,
	     uint32_t *nr_functions);
/* Sizes BAR0 (32-bit memory), assigns it from the host's window, reads it
 * back, turns memory decoding on. */
int pci_assign_bar0(struct pcie_host *h, struct pci_fn *f);
/* Finds the MSI capability (list at 0x34). */
int pci_find_msi(struct pci_fn *f);
/* Programs the MSI address and data, enables MSI (one vector), then
 * COMMAND = Memory | BusMaster | INTx disable. */
void pci_msi_enable(struct pci_fn *f, uint64_t addr, uint16_t data);
/* Rewrites only the MSI data (the device reads address and data at every MSI). */
void pci_msi_set_data(struct pci_fn *f, uint16_t data);
uint32_t pci_cfg_read32(const struct pci_fn *f, uint32_t off);

#endif
