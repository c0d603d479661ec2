#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the harness of an ITS command encoder proof to stdout (docs/reliability.md, "Proofs").

Argument: a comma-separated list of ITS command names.

The formats are read from tests/data/its/ihi0069h_commands.txt (Arm IHI
0069H §5.3 written out by hand, apart from the library's tables in
src/gicv4/enc/its_layout.h that the encoders are generated from), so a field
widened or moved in the library's table is a failed goal. For each command
CMD, prove_CMD() calls the command's encoder enc_CMD_() (what
virq_its_cmd_encode() dispatches to) on any command with CMD's opcode, any
limits or none, a failed-field pointer or NULL and no sync (its writes go
to a structure of their own; proof rte_its_cmd covers them), and, when it
succeeds, the decoder's steps for the 32 bytes written (the four
doublewords, the opcode, dec_CMD_()). When the encoder returns LIBVIRQ_OK,
proved by WP, stated bit by bit (ACSL bit_test, which Qed decides):
  - every one of the 64 bits of each doubleword is what the format puts
    there: the member's bit (numbers from bit 0, addresses in place, the
    priority from bit 4, a flag its value), the opcode's bit, RES0 clear;
  - the input fits its field: no bit of a number above the field's width,
    no bit of an address outside [hi:lo], no priority bit outside [7:4];
  - decoding gives the opcode and every member back bit by bit:
    decode(encode(x)) == x.
That every input that fits is accepted is not proved (the unit tests and
test_its_layout check it).
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


def old(name):
    return '\\old(c->%s)' % name


def bit(x, k):
    return 'bit_test(%s, %d)' % (x, k)


def word_bit(cmd, dw, k):
    """What bit k of doubleword dw holds, in terms of the input."""
    for fdw, hi, lo, name in cmd['fields']:
        if fdw != dw or not lo <= k <= hi:
            continue
        if name == 'RES0':
            return '\\false'
        if name == 'opcode':
            return '\\true' if (cmd['opcode'] >> k) & 1 else '\\false'
        if name in ADDR:
            return bit(old(name), k)
        if name in FLAG:
            return '%s != 0' % old(name)
        if name in PRIO:
            return bit(old(name), k - lo + 4)
        return bit(old(name), k - lo)
    raise AssertionError('DW%d bit %d not in the format' % (dw, k))


def word_clause(cmd, dw):
    conds = []
    for k in range(64):
        w, v = bit('proof_w_[%d]' % dw, k), word_bit(cmd, dw, k)
        conds.append(w if v == '\\true' else '!' + w if v == '\\false' else
                     '(%s <==> %s)' % (w, v))
    return ' &&\n\t'.join(conds)


def fits_clause(hi, lo, name):
    if name in FLAG:
        return None
    if name in ADDR:
        outside = [k for k in range(64) if not lo <= k <= hi]
    elif name in PRIO:
        outside = [k for k in range(32) if not 4 <= k < 4 + hi - lo + 1]
    else:
        outside = list(range(hi - lo + 1, 32))
    return ' && '.join('!' + bit(old(name), k) for k in outside) if outside else None


def decode_clause(name):
    if name in FLAG:
        return '(proof_d_.%s != 0 <==> %s != 0)' % (name, old(name))
    nb = 64 if name in ADDR else 32
    return ' &&\n\t'.join('(%s <==> %s)' % (bit('proof_d_.' + name, k), bit(old(name), k))
                          for k in range(nb))


def harness(name, cmd):
    fields = [(dw, hi, lo, n) for dw, hi, lo, n in cmd['fields'] if n not in ('RES0', 'opcode')]
    o = ['/*@ requires \\valid_read(c) && (lim == \\null || \\valid_read(lim));',
         '    requires \\valid(out + (0 .. 31));',
         '    requires \\separated(c, lim, out + (0 .. 31));',
         '    requires c->opcode == %d;' % cmd['opcode']]
    for dw in range(4):
        o.append('    ensures %s_DW%d: enc_r == LIBVIRQ_OK ==>\n\t(%s);'
                 % (name, dw, word_clause(cmd, dw)))
    for dw, hi, lo, n in fields:
        f = fits_clause(hi, lo, n)
        if f:
            o.append('    ensures %s_fits_%s: enc_r == LIBVIRQ_OK ==> (%s);' % (name, n, f))
    o.append('    ensures %s_back_opcode: enc_r == LIBVIRQ_OK ==>\n\t(%s);'
             % (name, ' &&\n\t'.join(('' if (cmd['opcode'] >> k) & 1 else '!') +
                                      bit('proof_d_.opcode', k) for k in range(32))))
    for dw, hi, lo, n in fields:
        o.append('    ensures %s_back_%s: enc_r == LIBVIRQ_OK ==>\n\t(%s);'
                 % (name, n, decode_clause(n)))
    o[-1] += ' */'
    o.append('''void prove_%(n)s(const struct virq_its_cmd *c, const struct virq_its_limits *lim, uint8_t *out,
		bool want_bad)
{
	struct virq_its_cmd *d = &proof_d_;
	enum virq_its_field bad;
	uint64_t w[4];

	proof_buf_ = out;
	enc_r = enc_%(n)s_(c, lim, out, NULL, want_bad ? &bad : NULL, lim ? lim : &nolim_);
	if (enc_r != LIBVIRQ_OK)
		return;
	/* virq_its_cmd_decode(): virq_its_cmd_to_words(), the opcode, its case\n\t * (the opcode read back bit by bit selects it). */
	w[0] = ld_le64_(out);
	w[1] = ld_le64_(out + 8);
	w[2] = ld_le64_(out + 16);
	w[3] = ld_le64_(out + 24);
	d->opcode = (enum virq_its_opcode)LIBVIRQ_FIELD_GET_(7, 0, w[0]);
	dec_%(n)s_(d, w);
}''' % {'n': name})
    return '\n'.join(o)


def main():
    spec = read_spec()
    want = sys.argv[1].split(',')
    out = ['/* Generated by tests/proof/gen_its_cmd.py %s; do not edit. */' % sys.argv[1],
           '#include "its_cmd_env.h"',
           '/* The bit of a bool (proved in the lemma run). */',
           '/*@ lemma bool_bit: \\forall integer b; 0 <= b <= 1 ==> (bit_test(b, 0) <==> b != 0); */']
    for n in want:
        out.append(harness(n, spec[n]))
    print('\n'.join(out))


main()
