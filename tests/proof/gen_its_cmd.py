#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the harness of proof enc_its_cmd to stdout (docs/reliability.md, "Proofs").

Argument: a comma-separated list of ITS command names, or "all".

For each command CMD, a function prove_CMD() calls the public
virq_its_cmd_encode() on any command with that opcode, any limits (or NULL),
any sync and bad pointers (or NULL), and, when it succeeds, the public
virq_its_cmd_decode() on the 32 bytes it wrote. Its contract, proved by WP:
when the encoder returns LIBVIRQ_OK,
  - every bit of the 256 command bits is what the manual's format says:
    inside a field, the matching bit of the input member (numbers from bit
    0, addresses in place, the priority from bit 4, a flag its value); the
    opcode's bits; every RES0 bit clear;
  - the input fits its field (no bit of a member is dropped): numbers below
    2^width, addresses aligned to 2^lo and below 2^(hi+1), the priority a
    multiple of 16 below 256;
  - the decoder succeeds and gives every field of the command back
    unchanged: decode(encode(x)) == x.
The formats are read from tests/data/its/ihi0069h_commands.txt (the
manual's figures written out by hand, independent of the library's table
src/gicv4/enc/its_layout.h), so a wrong bit position in the library's
table is a failed goal.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, '..', 'data', 'its', 'ihi0069h_commands.txt')

# The unit of each member of struct virq_its_cmd (include/libvirq/gicv4/its_cmd.h).
ADDR = {'ITT_addr', 'RDbase', 'RDbase1', 'RDbase2', 'VPT_addr', 'VCONF_addr'}
FLAG = {'V', 'D', 'Alloc', 'PTZ', 'DB', 'Enable', 'Clear', 'Group'}
PRIO = {'Priority'}


def read_spec():
    cmds, cur = {}, None
    with open(SPEC) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith('#'):
                continue
            if w[0] == 'COMMAND':
                cur = cmds.setdefault(w[1], {'opcode': int(w[2], 16), 'fields': []})
            else:
                hi, lo = (int(x) for x in w[1].split(':'))
                cur['fields'].append((int(w[0][2:]), hi, lo, w[2]))
    return cmds


def out_bit(dw, k):
    return 'bit_test(out[%d], %d)' % (8 * dw + k // 8, k % 8)


def bit_rules(cmd):
    """The 256 output bits, then the input-fits facts."""
    bits, fits, names = [], [], []
    for dw, hi, lo, name in cmd['fields']:
        for k in range(lo, hi + 1):
            o = out_bit(dw, k)
            if name == 'RES0':
                bits.append('!' + o)
            elif name == 'opcode':
                bits.append(o if (cmd['opcode'] >> k) & 1 else '!' + o)
            elif name in ADDR:
                bits.append('(%s <==> bit_test(c->%s, %d))' % (o, name, k))
            elif name in FLAG:
                bits.append('(%s <==> c->%s != 0)' % (o, name))
            elif name in PRIO:
                bits.append('(%s <==> bit_test(c->%s, %d))' % (o, name, k - lo + 4))
            else:
                bits.append('(%s <==> bit_test(c->%s, %d))' % (o, name, k - lo))
        if name in ('RES0', 'opcode'):
            continue
        names.append(name)
        if name in ADDR:
            fits += ['!bit_test(c->%s, %d)' % (name, k) for k in range(64) if not lo <= k <= hi]
        elif name in PRIO:
            w = hi - lo + 1
            fits += ['!bit_test(c->%s, %d)' % (name, k) for k in range(32)
                     if not 4 <= k < 4 + w]
        elif name not in FLAG:
            fits += ['!bit_test(c->%s, %d)' % (name, k) for k in range(hi - lo + 1, 32)]
    assert len(bits) == 256, cmd
    return bits, fits, names


def harness(name, cmd):
    bits, fits, names = bit_rules(cmd)
    o = []
    o.append('/*@ requires \\valid(out + (0 .. 31)) && \\valid_read(c) && \\valid(d);')
    o.append('    requires lim == \\null || \\valid_read(lim);')
    o.append('    requires s == \\null || \\valid(s);')
    o.append('    requires bad == \\null || \\valid(bad);')
    o.append('    requires \\separated(out + (0 .. 31), c, d, lim, s, bad, &enc_r, &dec_r);')
    o.append('    requires \\separated(c, d, s, bad, &enc_r, &dec_r);')
    o.append('    requires c->opcode == %d;' % cmd['opcode'])
    o.append('    requires lim == \\null || PREPARED(lim);')
    o.append('    ensures %s_bits: enc_r == LIBVIRQ_OK ==> %s;' % (name, ' &&\n\t'.join(bits)))
    o.append('    ensures %s_fits: enc_r == LIBVIRQ_OK ==> %s;'
             % (name, ' &&\n\t'.join(fits) if fits else '\\true'))
    o.append('    ensures %s_decode: enc_r == LIBVIRQ_OK ==> dec_r == LIBVIRQ_OK &&'
             ' d->opcode == c->opcode%s; */'
             % (name, ''.join(' &&\n\td->%s == c->%s' % (n, n) for n in names)))
    o.append('void prove_%s(const struct virq_its_cmd *c, const struct virq_its_limits *lim,'
             ' uint8_t *out,\n\t\tstruct virq_its_sync *s, enum virq_its_field *bad,'
             ' struct virq_its_cmd *d)\n{' % name)
    o.append('\tuint64_t w[4];\n')
    o.append('\tenc_r = enc_%s_(c, lim, out, s, bad, lim ? lim : &nolim_);' % name)
    o.append('\tif (enc_r != LIBVIRQ_OK)\n\t\treturn;')
    o.append('\t/* virq_its_cmd_decode() of the 32 bytes: virq_its_cmd_to_words() and the')
    o.append('\t * opcode\'s case. */')
    o.append('\tw[0] = ld_le64_(out);\n\tw[1] = ld_le64_(out + 8);')
    o.append('\tw[2] = ld_le64_(out + 16);\n\tw[3] = ld_le64_(out + 24);')
    o.append('\tdec_r = LIBVIRQ_FIELD_GET_(7, 0, w[0]) == %d ? LIBVIRQ_OK : LIBVIRQ_EUNKNOWN;'
             % cmd['opcode'])
    o.append('\td->opcode = (enum virq_its_opcode)LIBVIRQ_FIELD_GET_(7, 0, w[0]);')
    o.append('\tdec_%s_(d, w);\n}' % name)
    return '\n'.join(o)


# The little-endian stores and loads of the encoder and decoder: every bit
# of the word is bit k % 8 of byte k / 8 (proved: -wp-fct st_le64_,ld_le64_).
LE_CONTRACTS = '\n'.join([
    '#include <stdint.h>',
    '/*@ requires \\valid(p + (0 .. 7));',
    '    assigns p[0 .. 7];',
    '    ensures st_le: %s; */' % ' &&\n\t'.join(
        '(bit_test(p[%d], %d) <==> bit_test(v, %d))' % (k // 8, k % 8, k) for k in range(64)),
    'static inline void st_le64_(uint8_t *p, uint64_t v);',
    '/*@ requires \\valid_read(p + (0 .. 7));',
    '    assigns \\nothing;',
    '    ensures ld_le: %s; */' % ' &&\n\t'.join(
        '(bit_test(\\result, %d) <==> bit_test(p[%d], %d))' % (k, k // 8, k % 8)
        for k in range(64)),
    'static inline uint64_t ld_le64_(const uint8_t *p);'])


# A number below 2^n has no bit n or above: proved for n = 8 and 16 (the C
# types give the bound), assumed for the narrower fields, where it is an
# instance of Frama-C's own proved lemma Cbits.pos_extraction_sup
# (x < 2^i and i <= j: bit j of x is clear), which WP 25 does not pass to
# the SMT solvers.
BOUNDS = '\n'.join([
    '/*@ lemma below_2_8: \\forall uint8_t x; \\forall integer k; 8 <= k ==> !bit_test(x, k);',
    '    lemma below_2_16: \\forall uint16_t x; \\forall integer k; 16 <= k ==> !bit_test(x, k);',
    '    axiomatic Below {',
    '      axiom below_2_4: \\forall integer x, k; 0 <= x < 16 && 4 <= k ==> !bit_test(x, k);',
    '      axiom below_2_5: \\forall integer x, k; 0 <= x < 32 && 5 <= k ==> !bit_test(x, k);',
    '    } */'])


def main():
    spec = read_spec()
    want = sorted(spec) if sys.argv[1] == 'all' else sys.argv[1].split(',')
    out = ['/* Generated by tests/proof/gen_its_cmd.py %s; do not edit. */' % sys.argv[1],
           '#include "proof_env.h"', '#include <__fc_integer.h>', LE_CONTRACTS,
           '#include "its_cmd_env.h"', BOUNDS]
    for n in want:
        out.append(harness(n, spec[n]))
    print('\n'.join(out))


main()
