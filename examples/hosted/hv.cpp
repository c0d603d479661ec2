// SPDX-License-Identifier: MIT
// A hosted embedder in C++ (C++17 and later): libvirq's C headers and the
// C archive, used from C++ with captureless lambdas as HAL callbacks and the
// bit-field macros in constant expressions. CI (ctest: install_consumer_cxx_*)
// builds it against the *installed* libvirq with g++ and clang++ and runs it:
//
//   c++ -std=c++17 -o hv examples/hosted/hv.cpp $(pkg-config --cflags --libs libvirq)
//
// Prints one line ending in "ok" and exits 0 when everything behaves.
#include <libvirq/virq.h>
#ifdef LIBVIRQ_HAVE_GICV4
#include <libvirq/gicv4.h>
#endif
#ifdef LIBVIRQ_HAVE_AVIC
#include <libvirq/avic.h>
#endif

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace
{

struct fake_dev {
	uint32_t status = 0;
	std::array<char, LIBVIRQ_FAIL_MSG_SIZE> last_fail{}; // the library's last failure report
};

fake_dev &dev_of(void *ctx)
{
	return *static_cast<fake_dev *>(ctx);
}

// A compile-time field in the manuals' [hi:lo] notation, usable in C++ constant expressions.
#define HV_STATUS_COUNT 7, 0
constexpr uint64_t k_count_mask = LIBVIRQ_FIELD_MASK(HV_STATUS_COUNT);
static_assert(k_count_mask == 0xffu, "LIBVIRQ_FIELD_MASK in a C++ constant expression");
static_assert(LIBVIRQ_FIELD_PREP(HV_STATUS_COUNT, 5) == 5u, "LIBVIRQ_FIELD_PREP");

virq_hal_ops make_ops()
{
	virq_hal_ops ops{};
	ops.version = LIBVIRQ_HAL_VERSION;
	ops.size = sizeof(virq_hal_ops);
	ops.mmio_read32 = [](void *ctx, uint64_t) -> uint32_t { return ++dev_of(ctx).status; };
	ops.mmio_write32 = [](void *ctx, uint64_t, uint32_t v) { dev_of(ctx).status = v; };
	ops.mmio_read64 = [](void *ctx, uint64_t) -> uint64_t { return ++dev_of(ctx).status; };
	ops.mmio_write64 = [](void *ctx, uint64_t, uint64_t v) {
		dev_of(ctx).status = static_cast<uint32_t>(v);
	};
	ops.page_alloc = [](void *, size_t size, size_t align, virq_page *pg) -> virq_status {
		const size_t rounded = (size + align - 1) / align * align;
		void *va = std::aligned_alloc(align, rounded);
		if (!va)
			return LIBVIRQ_ENOMEM;
		std::memset(va, 0, rounded);
		pg->va = va;
		pg->pa = reinterpret_cast<uintptr_t>(va);
		pg->size = size;
		return LIBVIRQ_OK;
	};
	ops.page_free = [](void *, const virq_page *pg) { std::free(pg->va); };
	ops.now_ns = [](void *) -> uint64_t {
		using namespace std::chrono;
		return static_cast<uint64_t>(
		    duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
	};
	// Each failed check: which public function, which check, the values.
	ops.fail = [](void *ctx, const virq_failure *f) {
		std::snprintf(dev_of(ctx).last_fail.data(), dev_of(ctx).last_fail.size(), "%s",
			      f->message);
	};
	return ops;
}

const virq_hal_ops hv_ops = make_ops();

} // namespace

int main()
{
	fake_dev dev;
	virq_hal hal = {&hv_ops, &dev};
	uint32_t last = 0;

	virq_status st = virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_CORE);
	if (st != LIBVIRQ_OK) {
		std::fprintf(stderr, "hal: %s\n", virq_strerror(st));
		return 1;
	}
	if (virq_hal_validate(&hal, LIBVIRQ_HAL_NEED_MSR) != LIBVIRQ_ENOHAL ||
	    std::strcmp(dev.last_fail.data(),
			"virq_hal_validate: msr_read=NULL (LIBVIRQ_HAL_NEED_MSR)") != 0) {
		std::fprintf(stderr,
			     "hal: a HAL without msr_read passed LIBVIRQ_HAL_NEED_MSR (%s)\n",
			     dev.last_fail.data());
		return 2;
	}
	st = virq_poll32(&hal, 0x1000, static_cast<uint32_t>(k_count_mask), 5, 10000000u, &last);
	if (st != LIBVIRQ_OK || last != 5) {
		std::fprintf(stderr, "poll: %s\n", virq_strerror(st));
		return 3;
	}
	if (std::strcmp(virq_status_name(LIBVIRQ_ENOMEM), "LIBVIRQ_ENOMEM") != 0)
		return 4;
	std::printf("libvirq %u.%u.%u from C++: hal ok, poll ok", virq_version() >> 16,
		    (virq_version() >> 8) & 0xffu, virq_version() & 0xffu);
#ifdef LIBVIRQ_HAVE_GICV4
	{
		const virq_its_cmd mapti = virq_its_mapti(7, 3, 8192, 1);
		std::array<uint8_t, LIBVIRQ_ITS_CMD_SIZE> raw{};
		virq_its_cmd back{};
		st = virq_its_cmd_encode(&mapti, nullptr, raw.data(), nullptr, nullptr);
		if (st == LIBVIRQ_OK)
			st = virq_its_cmd_decode(raw.data(), &back);
		if (st != LIBVIRQ_OK || back.opcode != LIBVIRQ_ITS_MAPTI || back.pINTID != 8192) {
			std::fprintf(stderr, "\nits: MAPTI round trip: %s\n", virq_strerror(st));
			return 5;
		}
		std::printf(", its MAPTI ok");
	}
#endif
#ifdef LIBVIRQ_HAVE_AVIC
	{
		virq_avic_irte_ga irte{};
		std::array<uint64_t, 2> w{};
		irte.remap_en = true;
		irte.guest_mode = true;
		irte.vector = 0x41;
		irte.ga_root_pa = 0x123456000u;
		irte.ga_tag = 0xabcd;
		st = virq_avic_irte_ga_encode(&irte, w.data());
		if (st != LIBVIRQ_OK || (w[1] & 0xffu) != 0x41u) {
			std::fprintf(stderr, "\navic: IRTE encode: %s\n", virq_strerror(st));
			return 6;
		}
		std::printf(", avic IRTE ok");
	}
#endif
	std::printf(": ok\n");
	return 0;
}
