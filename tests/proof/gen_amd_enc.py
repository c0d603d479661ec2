#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the harness of one AMD encoder proof to stdout (docs/reliability.md, "Proofs").

The specification is generated from tests/data/amd_layouts.txt, the
transcription of the manuals' figures kept apart from the tables of
include/libvirq/amd/fields.h that the encoders are generated from: a field
widened, narrowed or moved in either makes the proof fail. Every property is
stated bit by bit (ACSL bit_test), which WP's simplifier Qed decides:

- encode: it returns LIBVIRQ_OK only when every input fits (no bit of a
  value above its field's width, no bit of an address outside the field), and
  then every bit of the output is the input's bit the layout puts there
  (reserved bits 0); on an error the output is not written;
- decode: every bit of every output field is the word's bit of that field
  (nothing else), and it returns LIBVIRQ_OK only when no reserved bit is set;
- round trips: decode(encode(x)) == x whenever encode succeeds, and
  encode(decode(w)) == w whenever decode succeeds (bit by bit).
That every input that fits is accepted is not proved here (Qed does not
decide it; the unit tests check it).

avic_entry: the AVIC physical and logical APIC ID table entries.
perf_ctl: PerfEvtSeln (PERF_CTLn), the PMC virtualization encoder and decoder.
"""
import os
import re
import sys


def read_layouts(path):
    layouts, cur = {}, None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        w = line.split()
        if w[0] == 'layout':
            cur = layouts.setdefault(w[1], {'bits': int(w[2]), 'fields': []})
        elif w[0] in ('source', 'access', 'slot'):
            continue
        elif w[0] == 'end':
            cur = None
        elif cur is not None:
            cur['fields'].append((int(w[0]), int(w[1]), ' '.join(w[2:])))
    return layouts


here = os.path.dirname(os.path.abspath(__file__))
LAYOUTS = read_layouts(os.path.join(here, '..', 'data', 'amd_layouts.txt'))


def fields_of(name, members):
    """[(hi, lo, member or None, kind, member bit of lo)] for a layout.

    members: manual name (without a [a:b] part suffix) -> (member, kind),
    kind 'value' (right-aligned) or 'addr' (held in place in its word).
    """
    out = []
    for hi, lo, fname in LAYOUTS[name]['fields']:
        if fname == 'Reserved':
            out.append((hi, lo, None, 'rsvd', 0))
            continue
        m = re.match(r'^(.*)\[(\d+):(\d+)\]$', fname)
        base, mlo = (m.group(1), int(m.group(3))) if m else (fname, 0)
        if base not in members:
            base = fname
            mlo = 0
        mem, kind = members[base]
        assert (hi // 64) == (lo // 64), 'a field inside one word'
        out.append((hi, lo, mem, kind, lo % 64 if kind == 'addr' else mlo))
    return out


def bit(x, k):
    return 'bit_test(%s, %d)' % (x, k)


def member_bit(expr, types, mem, j):
    if types[mem] == 1:
        return '(%s != 0)' % expr(mem) if j == 0 else '\\false'
    return bit(expr(mem), j)


def layout_bit(fields, word, k, expr, types):
    """What bit k of the layout holds, in terms of the members."""
    for hi, lo, mem, kind, mlo in fields:
        if lo <= k <= hi:
            if mem is None:
                return '\\false'
            return member_bit(expr, types, mem, k - lo + mlo)
    raise AssertionError('bit %d not in the layout' % k)


def covered(fields, mem):
    """Member bits the layout holds, -> layout bit."""
    cov = {}
    for hi, lo, m, kind, mlo in fields:
        if m == mem:
            for k in range(lo, hi + 1):
                cov[k - lo + mlo] = k
    return cov


def fits(fields, types, expr):
    """Every member bit the layout does not hold is 0."""
    conds = []
    for mem, tb in types.items():
        cov = covered(fields, mem)
        conds += ['!' + bit(expr(mem), j) for j in range(tb) if j not in cov and tb > 1]
    return ' && '.join(conds) if conds else '\\true'


def enc_bits(fields, nbits, out, expr, types):
    """Every bit of the output words."""
    return ' &&\n\t      '.join('(%s <==> %s)' % (bit(out(k // 64), k % 64),
                                              layout_bit(fields, k // 64, k, expr, types))
                              for k in range(nbits))


def dec_bits(fields, word, expr, types):
    conds = []
    for mem, tb in types.items():
        cov = covered(fields, mem)
        for j in range(tb):
            src = bit(word(cov[j] // 64), cov[j] % 64) if j in cov else '\\false'
            conds.append('(%s <==> %s)' % (member_bit(expr, types, mem, j), src))
    return ' &&\n\t      '.join(conds)


def rsvd_clear(fields, word):
    conds = ['!' + bit(word(k // 64), k % 64)
             for hi, lo, m, kind, mlo in fields if m is None for k in range(lo, hi + 1)]
    return ' && '.join(conds) if conds else '\\true'


def same(types, a, b):
    """a(m) equals b(m) for every member, bit by bit."""
    conds = []
    for mem, tb in types.items():
        if tb == 1:
            conds.append('(%s != 0 <==> %s != 0)' % (a(mem), b(mem)))
        else:
            conds += ['(%s <==> %s)' % (bit(a(mem), j), bit(b(mem), j)) for j in range(tb)]
    return ' &&\n\t      '.join(conds)


def same_each(types, a, b):
    """One ensures clause per member (small goals for the provers)."""
    return '\n    '.join('ensures same_%s: \\result == LIBVIRQ_OK ==> (%s);' % (m, same({m: t}, a, b))
                         for m, t in types.items())


def same_word(nbits, a, b):
    return ' &&\n\t      '.join('(%s <==> %s)' % (bit(a(k // 64), k % 64), bit(b(k // 64), k % 64))
                                 for k in range(nbits))


def avic_entry():
    o = []
    # Physical APIC ID table entry: struct in, one 64-bit word out.
    pf = fields_of('avic-phys-entry', {
        'V': ('valid', 'value'), 'IR': ('is_running', 'value'),
        'Backing Page Pointer': ('backing_pa', 'addr'),
        'Host Physical APIC ID': ('host_apic_id', 'value')})
    pt = {'host_apic_id': 32, 'backing_pa': 64, 'is_running': 1, 'valid': 1}
    old = lambda m: '\\old(f->%s)' % m
    o.append('''/*@ requires \\valid_read(f) && \\valid(out) && \\separated(f, out);
    assigns *out;
    ensures ok_fits: \\result == LIBVIRQ_OK ==> (%s);
    ensures error: \\result == LIBVIRQ_OK || ((\\result == LIBVIRQ_ERANGE || \\result == LIBVIRQ_EALIGN) && *out == \\old(*out));
    ensures bits: \\result == LIBVIRQ_OK ==>
	     (%s);
*/
virq_status virq_avic_phys_entry_encode(const struct virq_avic_phys_entry *f, uint64_t *out);
''' % (fits(pf, pt, old), enc_bits(pf, 64, lambda w: '*out', old, pt)))
    o.append('''/*@ requires \\valid(f);
    assigns *f;
    ensures ok_rsvd: \\result == LIBVIRQ_OK ==> (%s);
    ensures error: \\result == LIBVIRQ_OK || \\result == LIBVIRQ_ERANGE;
    ensures bits: %s;
*/
virq_status virq_avic_phys_entry_decode(uint64_t e, struct virq_avic_phys_entry *f);
''' % (rsvd_clear(pf, lambda w: 'e'),
       dec_bits(pf, lambda w: 'e', lambda m: 'f->%s' % m, pt)))
    # Logical APIC ID table entry: values in, one 32-bit word out.
    lf = fields_of('avic-logical-entry', {
        'V': ('valid', 'value'), 'Guest Physical APIC ID': ('guest_apic_id', 'value')})
    lt = {'guest_apic_id': 32, 'valid': 1}
    o.append('''/*@ requires \\valid(out);
    assigns *out;
    ensures ok_fits: \\result == LIBVIRQ_OK ==> (%s);
    ensures error: \\result == LIBVIRQ_OK || (\\result == LIBVIRQ_ERANGE && *out == \\old(*out));
    ensures bits: \\result == LIBVIRQ_OK ==>
	     (%s);
*/
virq_status virq_avic_logical_entry_encode(uint32_t guest_apic_id, bool valid, uint32_t *out);
''' % (fits(lf, lt, str), enc_bits(lf, 32, lambda w: '*out', str, lt)))
    o.append('''/*@ requires \\valid(guest_apic_id) && \\valid(valid) && \\separated(guest_apic_id, valid);
    assigns *guest_apic_id, *valid;
    ensures ok_rsvd: \\result == LIBVIRQ_OK ==> (%s);
    ensures error: \\result == LIBVIRQ_OK || \\result == LIBVIRQ_ERANGE;
    ensures bits: %s;
*/
virq_status virq_avic_logical_entry_decode(uint32_t e, uint32_t *guest_apic_id, bool *valid);
''' % (rsvd_clear(lf, lambda w: 'e'),
       dec_bits(lf, lambda w: 'e', lambda m: '*%s' % m, lt)))
    o.append(MEMSET)
    o.append('#include "avic/enc/encode.c"')
    # Round trips, from the contracts above.
    o.append('''
/*@ requires \\valid_read(f) && \\valid(g) && \\separated(f, g);
    assigns *g;
    ensures \\result == LIBVIRQ_OK ==>
	     (@A@);
*/
virq_status phys_roundtrip(const struct virq_avic_phys_entry *f, struct virq_avic_phys_entry *g)
{
	uint64_t w;

	if (virq_avic_phys_entry_encode(f, &w) != LIBVIRQ_OK)
		return LIBVIRQ_ERANGE;
	return virq_avic_phys_entry_decode(w, g);
}

/*@ requires \\valid(out);
    assigns *out;
    ensures \\result == LIBVIRQ_OK ==>
	     (@B@);
*/
virq_status phys_reencode(uint64_t e, uint64_t *out)
{
	struct virq_avic_phys_entry f;

	if (virq_avic_phys_entry_decode(e, &f) != LIBVIRQ_OK)
		return LIBVIRQ_ERANGE;
	return virq_avic_phys_entry_encode(&f, out);
}

/*@ requires \\valid(id) && \\valid(v) && \\separated(id, v);
    assigns *id, *v;
    ensures \\result == LIBVIRQ_OK ==>
	     (@C@);
*/
virq_status logical_roundtrip(uint32_t guest_apic_id, bool valid, uint32_t *id, bool *v)
{
	uint32_t w;

	if (virq_avic_logical_entry_encode(guest_apic_id, valid, &w) != LIBVIRQ_OK)
		return LIBVIRQ_ERANGE;
	return virq_avic_logical_entry_decode(w, id, v);
}

/*@ requires \\valid(out);
    assigns *out;
    ensures \\result == LIBVIRQ_OK ==>
	     (@D@);
*/
virq_status logical_reencode(uint32_t e, uint32_t *out)
{
	uint32_t id;
	bool v;

	if (virq_avic_logical_entry_decode(e, &id, &v) != LIBVIRQ_OK)
		return LIBVIRQ_ERANGE;
	return virq_avic_logical_entry_encode(id, v, out);
}'''.replace('@A@', same(pt, lambda m: 'g->' + m, lambda m: 'f->' + m)).replace(
        '@B@', same_word(64, lambda w: '*out', lambda w: 'e')).replace(
        '@C@', same(lt, {'guest_apic_id': '*id', 'valid': '*v'}.get, str)).replace(
        '@D@', same_word(32, lambda w: '*out', lambda w: 'e')))
    return o


def struct_word(layout, members, types, stype, enc, dec, errors, tag):
    """Contracts of encode(const struct *f, uint64_t *out) and decode(uint64_t e,
    struct *f) for a 64-bit layout, and the two round trips."""
    f = fields_of(layout, members)
    old = lambda m: '\\old(f->%s)' % m
    errs = ' || '.join('\\result == %s' % e for e in errors)
    o = ['''/*@ requires \\valid_read(f) && \\valid(out) && \\separated(f, out);
    assigns *out;
    ensures ok_fits: \\result == LIBVIRQ_OK ==> (%s);
    ensures error: \\result == LIBVIRQ_OK || ((%s) && *out == \\old(*out));
    ensures bits: \\result == LIBVIRQ_OK ==>
	     (%s);
*/
virq_status %s(const struct %s *f, uint64_t *out);''' % (
        fits(f, types, old), errs, enc_bits(f, 64, lambda w: '*out', old, types), enc, stype)]
    o.append('''/*@ requires \\valid(f);
    assigns *f;
    ensures ok_rsvd: \\result == LIBVIRQ_OK ==> (%s);
    ensures error: \\result == LIBVIRQ_OK || \\result == LIBVIRQ_ERANGE;
    ensures bits: %s;
*/
virq_status %s(uint64_t e, struct %s *f);''' % (
        rsvd_clear(f, lambda w: 'e'), dec_bits(f, lambda w: 'e', lambda m: 'f->%s' % m, types),
        dec, stype))
    rt = '''
/*@ requires \\valid_read(f) && \\valid(g) && \\separated(f, g);
    assigns *g;
    %s
*/
virq_status %s_roundtrip(const struct %s *f, struct %s *g)
{
	uint64_t w;

	if (%s(f, &w) != LIBVIRQ_OK)
		return LIBVIRQ_ERANGE;
	return %s(w, g);
}

/*@ requires \\valid(out);
    assigns *out;
    ensures \\result == LIBVIRQ_OK ==>
	     (%s);
*/
virq_status %s_reencode(uint64_t e, uint64_t *out)
{
	struct %s f;

	if (%s(e, &f) != LIBVIRQ_OK)
		return LIBVIRQ_ERANGE;
	return %s(&f, out);
}''' % (same_each(types, lambda m: 'g->' + m, lambda m: 'f->' + m), tag, stype, stype, enc, dec,
        same_word(64, lambda w: '*out', lambda w: 'e'), tag, stype, dec, enc)
    return o, [rt]


def perf_ctl():
    members = {'PREC_RET': ('prec_ret', 'value'), 'HG_ONLY': ('hg_only', 'value'),
               'EVENT_SELECT': ('event_select', 'value'), 'CNT_MASK': ('cnt_mask', 'value'),
               'INV': ('inv', 'value'), 'EN': ('en', 'value'), 'INT': ('int_en', 'value'),
               'EDGE': ('edge', 'value'), 'OS': ('os', 'value'), 'USR': ('usr', 'value'),
               'UNIT_MASK': ('unit_mask', 'value')}
    types = {'event_select': 16, 'unit_mask': 8, 'usr': 1, 'os': 1, 'edge': 1, 'int_en': 1,
             'en': 1, 'inv': 1, 'cnt_mask': 8, 'hg_only': 8, 'prec_ret': 1}
    c, rt = struct_word('pmc-perfevtsel', members, types, 'virq_pmcvirt_evtsel',
                        'virq_pmcvirt_evtsel_encode', 'virq_pmcvirt_evtsel_decode',
                        ['LIBVIRQ_ERANGE'], 'evtsel')
    # layout.c clears two structures: the PerfEvtSel fields (f), whose
    # EVENT_SELECT parts are ORed in, member by member; the state (state),
    # not proved here, as a whole.
    zero = ['#define memset(p, c, n) PROOF_ZERO_##p',
            '#define PROOF_ZERO_f (%s)' % ', '.join('f->%s = 0' % m for m in types),
            '#define PROOF_ZERO_state (*state = (struct virq_pmcvirt_state){0})']
    return c + zero + ['#include "pmcvirt/enc/layout.c"'] + rt


# The encoders clear a structure with memset(p, 0, sizeof(*p)) before filling
# it: that is the assignment of the zero structure (WP's typed memory model
# does not see a structure through memset's char pointer).
MEMSET = '#define memset(p, c, n) ((void)(n), *(p) = (__typeof__(*(p))){0})'

kind = sys.argv[1]
head = ['/* Generated by tests/proof/gen_amd_enc.py %s; do not edit. */' % kind,
        '#include "proof_env.h"', '#include <__fc_integer.h>', '#include <libvirq/avic.h>',
        '#include <libvirq/avic/iommu.h>', '#include <libvirq/pmcvirt.h>',
        '/* The bit of a bool (proved in the lemma run). */',
        '/*@ lemma bool_bit: \\forall integer b; 0 <= b <= 1 ==> (bit_test(b, 0) <==> b != 0); */']
body = {'avic_entry': avic_entry, 'perf_ctl': perf_ctl}[kind]()
print('\n'.join(head + body))
