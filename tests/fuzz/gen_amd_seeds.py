#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the structure-aware seeds of fuzz_avic (an AVIC exit of every code
and cause) and fuzz_irte (GA-mode IRTEs of both modes, GA log entries, IRTE
lifecycles) into tests/fuzz/corpus/. The seeds are committed; run this again
after changing an input layout:  python3 tests/fuzz/gen_amd_seeds.py
The layouts are those read by fuzz_avic.c and fuzz_irte.c."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def u8(v):
    return struct.pack('<B', v & 0xFF)


def u16(v):
    return struct.pack('<H', v & 0xFFFF)


def u32(v):
    return struct.pack('<I', v & 0xFFFFFFFF)


def u64(v):
    return struct.pack('<Q', v & 0xFFFFFFFFFFFFFFFF)


def write(target, name, data):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# ---- fuzz_avic: VM shape, then operations (see run_ops_() in fuzz_avic.c) ----

def avic_vm(x2=True, n=4):
    # shape: mode (0 xAVIC, 1 x2AVIC), policy doorbell; n-1; one byte per vCPU
    # (APIC ID = index, 0x40: switch to x2APIC mode).
    return u8(1 if x2 else 0) + u8(n - 1) + b''.join(u8(0x40 if x2 else 0) for _ in range(n))


def load(i, host):
    return u8(5) + u8(i) + u16(host)


def ipi(i, info1, cause, index):
    return u8(1) + u8(i) + u64(info1) + u8(cause) + u16(index) + u8(0)


def noaccel(i, offset, write_, value, icr2=None):
    b = u8(2) + u8(i) + u64(offset | (1 << 32 if write_ else 0)) + u32(0) + u32(value)
    if offset == 0x300:
        b += u32(icr2 or 0)
    return b


def handle_exit(i, code, info1, info2):
    return u8(0x47) + u8(i) + u8(7) + u64(code) + u64(info1) + u64(info2)


CAUSES = {0: 'invalid_int_type', 1: 'target_not_running', 2: 'invalid_target',
          3: 'invalid_backing_page', 4: 'invalid_vector', 5: 'unknown5', 6: 'unknown6',
          7: 'unknown7'}
TRAPS = {0x020: 'id', 0x0B0: 'eoi', 0x0C0: 'rrr', 0x0D0: 'ldr', 0x0E0: 'dfr', 0x0F0: 'spiv',
         0x280: 'esr', 0x300: 'icr', 0x320: 'lvtt', 0x330: 'lvtthmr', 0x340: 'lvtpc',
         0x350: 'lvt0', 0x360: 'lvt1', 0x370: 'lvterr', 0x380: 'tmict', 0x3E0: 'tdcr'}


def avic_seeds():
    base = avic_vm() + load(0, 0x10) + load(1, 0x11)
    for c, name in CAUSES.items():
        # x2APIC sender; the ICR each cause is taken for.
        info1 = {0: 0x0000000100000400,   # NMI to 1: not fixed
                 2: 0x00000003000040F1,   # fixed to 3 (not running / invalid)
                 4: 0x000000020000400F}.get(c, 0xFFFFFFFF00004050)  # fixed broadcast
        write('fuzz_avic', 'exit401_' + name, base + ipi(0, info1, c, 3))
        # xAPIC sender: destination in ICR[63:56].
        xinfo1 = (info1 & 0xFFFFFFFF) | ((info1 >> 32) & 0xFF) << 56
        write('fuzz_avic', 'exit401_' + name + '_xavic',
              avic_vm(x2=False) + load(0, 0x10) + ipi(0, xinfo1, c, 3))
    for off, name in TRAPS.items():
        value = {0x0D0: 0x02000000, 0x0E0: 0x0FFFFFFF, 0x020: 0x05000000,
                 0x300: 0x000040F1}.get(off, 0)
        write('fuzz_avic', 'exit402_trap_' + name,
              avic_vm(x2=False) + load(0, 0x10) + noaccel(0, off, True, value, 0x01000000))
    write('fuzz_avic', 'exit402_trap_read', avic_vm() + noaccel(0, 0x0B0, False, 0))
    write('fuzz_avic', 'exit402_fault_read', avic_vm() + noaccel(0, 0x390, False, 0))
    write('fuzz_avic', 'exit402_fault_write', avic_vm() + noaccel(0, 0x400, True, 1))
    for code, name in ((0x401, '401'), (0x402, '402'), (0x400, 'npf'), (0x72, 'cpuid'),
                       (0xFFFFFFFFFFFFFFFF, 'invalid'), (0xFFFFFFFFFFFFFFFC, 'invalid_pmc'),
                       (0x403, '403')):
        write('fuzz_avic', 'dispatch_' + name,
              base + handle_exit(0, code, 0xFFFFFFFF00004050, 1 << 32))
    # A flood of unknown causes: the log stays bounded.
    write('fuzz_avic', 'flood_unknown_cause', base + b''.join(
        ipi(k % 4, 0xFFFFFFFF00004050, 5 + k % 3, k) for k in range(46)))


# ---- fuzz_irte: two IRTEs, a GA log entry, then operations (op_() in fuzz_irte.c) ----

# (lo, hi) pairs: GuestMode 1 running / preempted, remap fixed, the Linux
# "allocated, unused" marker, GuestMode 1 with RemapEn 0, reserved bits.
IRTES = {
    'vapic_running': (0x00000105000005C1, 0x0000000123456031),
    'vapic_preempted': (0x0000010500000581, 0x0000000123456031),
    'remap_fixed': (0x0000000000000A01, 0x0000000000000041),
    'linux_unused_marker': (0x0, 0xFF),
    'vapic_remapen0': (0x0000020100000284, 0x00000000ABCDE050),
    'vapic_rsvd': (0x00000105000005C9, 0x0000000123456131),
    'remap_rsvd_tag': (0x0000000100000A01, 0x0000000000000041),
    'x2_dest_hi': (0x00FFFF01, 0xFF00000000000041),
}
GALOG = {'guest_nr': 0x1000001000000105, 'other_code': 0x2000001000000105,
         'our_vm': 0x1000001000007003}


def irte_op(op, a, extra=b''):
    return u8(op) + u8(a) + extra


def irte_seeds():
    names = list(IRTES)
    for k, name in enumerate(names):
        lo, hi = IRTES[name]
        lo2, hi2 = IRTES[names[(k + 1) % len(names)]]
        g = list(GALOG.values())[k % len(GALOG)]
        write('fuzz_irte', 'irte_' + name, u64(lo) + u64(hi) + u64(lo2) + u64(hi2) + u64(g))
    hdr = u64(IRTES['vapic_running'][0]) + u64(IRTES['vapic_running'][1]) + \
        u64(IRTES['remap_fixed'][0]) + u64(IRTES['remap_fixed'][1]) + u64(GALOG['our_vm'])
    # a = vCPU (bits 1:0) | reference (bits 4:2 mod 6) << 2
    seq = (irte_op(0, 1 | 0 << 2, u8(0x41)) + irte_op(2, 1) + irte_op(0, 1 | 1 << 2, u8(0x42)) +
           irte_op(4, 1) + irte_op(8 | 0x10, 1, u64(0)) + irte_op(5, 1) + irte_op(6 | 0x10, 0) +
           irte_op(6, 0) + irte_op(7 | 0x10, 1) + irte_op(7, 1) + irte_op(3, 1) +
           irte_op(1 | 0x80, 1 | 0 << 2) + irte_op(0, 2 | 0 << 2, u8(0x43)) + irte_op(2, 2))
    write('fuzz_irte', 'lifecycle', hdr + seq)
    # The IRTE use after free: attach to vCPU 0, attach the same reference
    # to vCPU 1 (refused), detach and free it, load vCPU 0.
    uaf = (irte_op(0, 0 | 0 << 2, u8(0x41)) + irte_op(0, 1 | 0 << 2, u8(0x41)) +
           irte_op(1, 1 | 0 << 2) + irte_op(1 | 0x80, 0 | 0 << 2) + irte_op(2, 0))
    write('fuzz_irte', 'regress_attach_twice_uaf', hdr + uaf)


if __name__ == '__main__':
    avic_seeds()
    irte_seeds()
