#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs of fuzz_gicv4_smp (tests/fuzz/corpus/fuzz_gicv4_smp/).

Input layout (fuzz_gicv4_smp.c): two world bytes (a: bit 0 GICv4.1,
bits 1-2 CPUs - 2 (mod 3), bit 3 two ITSes, bit 4 DirectLPI (else the
proxy), bit 5 ITSList, bits 6-7 slow ITS; b: bits 0-1 vPEs - 2, bits 2-3
devices - 2, bit 4 devices mapped at set-up, bit 5 4 KiB queue), then a
stream read as the controller decides: per decision an MSI byte (< 48:
then device and event bytes), a pick byte, for an idle CPU an op byte and
a 4-byte selector, a stall byte (< 24: the next command of that ITS
stalls). A pick of a CPU whose call is in flight reads no op, so the
stream below only approximates its scenario (every byte string is a valid
input). Each seed weighs the calls of one area.
Deterministic: run it to regenerate the directory.
"""
import os
import random
import struct

OPS = ["nop", "dev_map", "dev_unmap", "map_lpi", "unmap_event", "int", "clear", "inv",
       "move_lpi", "vlpi_map", "vlpi_map_range", "vlpi_unmap_range", "unmap_range",
       "vlpi_remap", "vlpi_move", "vlpi_set_doorbell", "vlpi_set_config", "vpe_invall",
       "vpe_move", "vpe_load", "vpe_put", "vpe_wfi", "vpe_db_masking", "vpe_db_invalidate",
       "vsgi_config", "vsgi_send", "vpe_init", "vpe_destroy", "map_collection"]


def world(v41=False, ncpu=2, two_its=False, direct=False, itslist=False, slow=0,
          nvpe=4, ndev=4, mapped=True, small_queue=False):
    a = (1 if v41 else 0) | ((ncpu - 2) << 1) | (8 if two_its else 0) | \
        (16 if direct else 0) | (32 if itslist else 0) | (slow << 6)
    b = (nvpe - 2) | ((ndev - 2) << 2) | (16 if mapped else 0) | (32 if small_queue else 0)
    return bytes([a, b])


def stream(rng, n, focus, stall_rate=0.1, msi_rate=0.2):
    """n decisions; op names drawn from focus (then any)."""
    out = bytearray()
    for _ in range(n):
        if rng.random() < msi_rate:
            out += bytes([rng.randrange(48), rng.randrange(256), rng.randrange(16)])
        else:
            out.append(200)
        out.append(rng.randrange(256))            # pick
        name = rng.choice(focus) if rng.random() < 0.8 else rng.choice(OPS[1:])
        out.append(OPS.index(name) - 1)           # op byte: 1 + b % (len(OPS) - 1)
        out += struct.pack("<I", rng.randrange(1 << 32) & ~1)  # a valid call mostly
        out.append(rng.randrange(24) if rng.random() < stall_rate else 255)
    return bytes(out)


SEEDS = {
    "qemu40_moves": (world(), ["vlpi_map", "vpe_move", "vpe_load", "vpe_put", "int"]),
    "qemu40_proxy_masking": (world(), ["vpe_db_masking", "vpe_load", "vpe_put", "vpe_wfi",
                                      "vpe_move", "vpe_db_invalidate"]),
    "direct40_ranges": (world(direct=True, ncpu=3),
                        ["vlpi_map_range", "vlpi_unmap_range", "unmap_range", "map_lpi",
                         "vlpi_remap", "vlpi_move"]),
    "itslist_two_its": (world(two_its=True, direct=True, ncpu=4),
                        ["vpe_move", "vlpi_map", "dev_map", "dev_unmap", "vpe_init",
                         "vpe_destroy", "map_collection"]),
    "v41_vsgi": (world(v41=True, ncpu=3), ["vsgi_config", "vsgi_send", "vpe_move",
                                          "vpe_load", "vpe_put", "vlpi_map"]),
    "slow_its_small_queue": (world(slow=2, small_queue=True),
                             ["vlpi_map_range", "vpe_move", "int", "vlpi_unmap_range"]),
    "lifecycle": (world(mapped=False, nvpe=2),
                  ["dev_map", "dev_unmap", "vpe_init", "vpe_destroy", "map_lpi",
                   "unmap_event", "move_lpi"]),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "corpus", "fuzz_gicv4_smp")
    os.makedirs(out, exist_ok=True)
    for i, (name, (w, focus)) in enumerate(sorted(SEEDS.items())):
        for k, stall in enumerate((0.0, 0.15)):
            rng = random.Random(1000 * i + k)
            data = w + stream(rng, 60, focus, stall_rate=stall)
            with open(os.path.join(out, f"{name}_{k}.bin"), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
