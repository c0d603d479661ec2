/* SPDX-License-Identifier: MIT */
/*
 * The memory table of docs/integration.md, measured: what each libvirq object
 * takes from the HAL's page_alloc (bytes and allocations, live after the call
 * that creates it) on the simulator, next to the size of the structure the
 * embedder provides. Prints the table's Markdown rows; ctest memory_table
 * compares them with the documentation (check_memtable.cmake), so the table
 * cannot drift from the code.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libvirq/avic.h>
#include <libvirq/gicv4.h>
#include <libvirq/pmcvirt.h>
#include <libvirq/sim/cpu.h>
#include <libvirq/sim/gic.h>
#include <libvirq/sim/hal.h>

#define CHECK(call)                                                                                \
	do {                                                                                       \
		virq_status st_ = (call);                                                          \
		if (st_ != LIBVIRQ_OK) {                                                           \
			fprintf(stderr, "memtable: %s: %s\n", #call, virq_strerror(st_));          \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

struct meter {
	struct virq_sim *sim;
	size_t bytes, pages;
};

static void mark(struct meter *m)
{
	m->bytes = virq_sim_live_bytes(m->sim);
	m->pages = virq_sim_live_pages(m->sim);
}

/* One row: the object, its structure's size, what the call took from the HAL. */
static void row(struct meter *m, const char *object, const char *call, size_t struct_size)
{
	size_t b = virq_sim_live_bytes(m->sim) - m->bytes;
	size_t n = virq_sim_live_pages(m->sim) - m->pages;

	printf("| %s | `%s` | %zu | %zu | %zu |\n", object, call, struct_size, b, n);
	mark(m);
}

/* A row for @n objects made by one call each: what each takes on average. */
static void row_avg(struct meter *m, const char *object, const char *call, size_t struct_size,
		    size_t n)
{
	size_t b = virq_sim_live_bytes(m->sim) - m->bytes;
	size_t k = virq_sim_live_pages(m->sim) - m->pages;

	printf("| %s | `%s` | %zu | %.0f | %.2f |\n", object, call, struct_size,
	       (double)b / (double)n, (double)k / (double)n);
	mark(m);
}

static void gicv4_rows(void)
{
	static struct virq_its_device small[4096];
	static struct virq_gic gic;
	static struct virq_gic_rdist rds[2];
	static struct virq_its its;
	static struct virq_its_device dev[3];
	static struct virq_gic_vm vm;
	static struct virq_vpe vpe, vpe2;
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_sim_gic_cfg cfg = virq_sim_gic_default_cfg();
	struct virq_gic_desc desc;
	struct virq_sim_gic *sg;
	struct meter m = {sim, 0, 0};
	uint32_t db;

	cfg.rdist.nr = 2;
	sg = virq_sim_gic_new(sim, &cfg, &desc);
	mark(&m);
	CHECK(virq_gic_init(&gic, &hal, &desc, rds, 2, 16));
	row(&m, "GIC, 2 redistributors, 16 LPI ID bits", "virq_gic_init", sizeof(gic));
	CHECK(virq_gic_dist_enable(&gic));
	CHECK(virq_gic_rdist_init(&gic, 0));
	row(&m, "first redistributor", "virq_gic_rdist_init", sizeof(rds[0]));
	CHECK(virq_gic_rdist_init(&gic, 1));
	row(&m, "each further redistributor", "virq_gic_rdist_init", sizeof(rds[1]));
	CHECK(virq_its_init(&its, &gic, &desc.its[0], NULL));
	row(&m, "ITS (default queue, flat tables)", "virq_its_init", sizeof(its));
	CHECK(virq_its_map_collection(&its, 0));
	row(&m, "collection", "virq_its_map_collection", 0);
	CHECK(virq_its_device_map(&its, &dev[2], 3, 32));
	row(&m, "first device (with the device table's level-2 page)", "virq_its_device_map",
	    sizeof(dev[2]));
	CHECK(virq_its_device_map(&its, &dev[0], 1, 32));
	for (uint32_t i = 0; i < 4095; i++)
		CHECK(virq_its_device_map(&its, &small[i], 100 + i, 32));
	row_avg(&m, "device, 32 events (each of 4,096; five share a pool page)",
		"virq_its_device_map", sizeof(dev[0]), 4096);
	CHECK(virq_its_device_map(&its, &dev[1], 2, 1024));
	row(&m, "device, 1024 events", "virq_its_device_map", sizeof(dev[1]));
	CHECK(virq_lpi_alloc(&gic, 1, &db));
	row(&m, "LPI (doorbell)", "virq_lpi_alloc", 0);
	CHECK(virq_gic_vm_init(&vm, &gic, 16));
	row(&m, "VM, 16 vINTID bits", "virq_gic_vm_init", sizeof(vm));
	CHECK(virq_vpe_init(&vpe, &vm, 0, db));
	row(&m, "first vPE", "virq_vpe_init", sizeof(vpe));
	CHECK(virq_vpe_init(&vpe2, &vm, 0, LIBVIRQ_ITS_NO_DOORBELL));
	row(&m, "vPE", "virq_vpe_init", sizeof(vpe2));
	CHECK(virq_vlpi_map(&dev[0], 0, &vpe, 8192, true));
	row(&m, "first vLPI of a vPE on an ITS (lazy VMAPP: the vPE table's level-2 page)",
	    "virq_vlpi_map", 0);

	CHECK(virq_vlpi_unmap(&dev[0], 0));
	CHECK(virq_vpe_destroy(&vpe2));
	CHECK(virq_vpe_destroy(&vpe));
	CHECK(virq_gic_vm_destroy(&vm));
	CHECK(virq_lpi_free(&gic, db, 1));
	CHECK(virq_its_device_unmap(&dev[1]));
	for (uint32_t i = 0; i < 4095; i++)
		CHECK(virq_its_device_unmap(&small[i]));
	CHECK(virq_its_device_unmap(&dev[0]));
	CHECK(virq_its_device_unmap(&dev[2]));
	CHECK(virq_its_destroy(&its));
	CHECK(virq_gic_destroy(&gic));
	if (virq_sim_live_pages(sim) != 0) {
		fprintf(stderr, "memtable: GICv4 objects leaked %zu allocations\n",
			virq_sim_live_pages(sim));
		exit(1);
	}
	virq_sim_gic_free(sg);
	virq_sim_free(sim);
}

static void avic_rows(enum virq_avic_mode mode, uint32_t max_vcpus, const char *what)
{
	static struct virq_avic_vm vm;
	static struct virq_avic_vcpu v;
	static int cookie;
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_avic_caps caps;
	struct virq_avic_vm_cfg cfg = {.mode = mode, .max_vcpus = max_vcpus};
	struct virq_avic_vcpu_cfg vc = {.index = 0, .apic_id = 0, .cookie = &cookie};
	struct meter m = {sim, 0, 0};

	virq_sim_cpu_apply(sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN4]);
	CHECK(virq_avic_caps_probe(&hal, &caps));
	mark(&m);
	CHECK(virq_avic_vm_init(&vm, &hal, &caps, &cfg));
	row(&m, what, "virq_avic_vm_init", sizeof(vm));
	CHECK(virq_avic_vcpu_init(&vm, &v, &vc));
	row(&m, "AVIC vCPU", "virq_avic_vcpu_init", sizeof(v));
	CHECK(virq_avic_vcpu_destroy(&v));
	CHECK(virq_avic_vm_destroy(&vm));
	virq_sim_free(sim);
}

static void pmc_rows(void)
{
	static struct virq_pmcvirt_vcpu vcpu;
	static uint8_t vmcb[4096];
	struct virq_sim *sim = virq_sim_new();
	struct virq_hal hal = virq_sim_hal(sim);
	struct virq_pmcvirt_caps caps;
	struct meter m = {sim, 0, 0};

	virq_sim_cpu_apply(sim, &virq_sim_cpus[LIBVIRQ_SIM_CPU_ZEN5]);
	CHECK(virq_pmcvirt_probe(&hal, &caps));
	mark(&m);
	CHECK(virq_pmcvirt_vcpu_init(&vcpu, &hal, &caps, &virq_sim_guest_pmc6,
				     LIBVIRQ_PMCVIRT_MODE_HW, 0, vmcb));
	row(&m, "PMC vCPU (hardware-switched)", "virq_pmcvirt_vcpu_init", sizeof(vcpu));
	virq_sim_free(sim);
}

int main(void)
{
	printf(
	    "| Object | Created by | Structure (bytes) | HAL memory (bytes) | HAL allocations |\n");
	printf("|---|---|---|---|---|\n");
	gicv4_rows();
	avic_rows(LIBVIRQ_AVIC_MODE_XAVIC, 255, "AVIC VM, xAVIC, 255 vCPUs");
	avic_rows(LIBVIRQ_AVIC_MODE_X2AVIC, 512, "AVIC VM, x2AVIC, 512 vCPUs");
	pmc_rows();
	return 0;
}
