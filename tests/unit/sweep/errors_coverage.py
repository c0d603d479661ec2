#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The error sweeps cover every documented error of every public function.

    errors_coverage.py SRC_DIR EXCUSES SWEEP_BINARY...

Every public function with an entry (LIBVIRQ_ENTRY_ in src/: one that
reports its failures, docs/design.md "Failures") and every status its
header's @return names (a return "as virq_x()" inherits virq_x's; "no
::LIBVIRQ_E..." takes one away, and a status another function's "return"
names is not this one's; "queue errors" stands for ::LIBVIRQ_ETIMEDOUT, the
queue failure every command path reports through the same check) must be
exercised by a case of one of the SWEEP_BINARYs (each prints the pairs it
covers with --list, one "function STATUS" a line), or be listed in EXCUSES
("function STATUS: why the simulator cannot make it happen", '#' comments).
An excuse for a pair a sweep covers, or for a pair no header documents, is
an error too, so the list stays true. Prints the figures and the gaps.
"""
import os
import re
import subprocess
import sys


def documented(top):
    out, inherit = {}, {}
    for d, _, names in os.walk(os.path.join(top, 'include', 'libvirq')):
        for n in sorted(names):
            if not n.endswith('.h'):
                continue
            s = open(os.path.join(d, n), encoding='utf-8').read()
            for m in re.finditer(r'/\*\*((?:(?!\*/).)*)\*/\s*(?:LIBVIRQ_MUST_CHECK\s+)?'
                                 r'[a-z_][\w ]*?\**\s*\b(virq_\w+)\s*\(', s, re.S):
                doc, fn = m.group(1), m.group(2)
                r = re.search(r'@return(.*?)(?=\n\s*\*\s*\n|\n\s*\*\s*@(?!ref|p\b|c\b)|$)',
                              doc, re.S)
                if not r:
                    continue
                text = ' '.join(r.group(1).replace('*', ' ').split())
                names = set(re.findall(r'(?<!no )(?<!return )::(LIBVIRQ_E\w+)', text))
                if re.search(r'\bqueue errors\b', text):
                    names.add('LIBVIRQ_ETIMEDOUT')
                out[fn] = names
                a = re.search(r'\b[Aa]s (virq_\w+)\(\)', text)
                if a:
                    inherit[fn] = (a.group(1), set(re.findall(r'no ::(LIBVIRQ_E\w+)', text)))
    for _ in range(3):  # chains of "as virq_x()"
        for fn, (base, minus) in inherit.items():
            out[fn] |= out.get(base, set()) - minus
    return out


def entries(top):
    res = set()
    for d, _, names in os.walk(os.path.join(top, 'src')):
        for n in names:
            if not n.endswith('.c'):
                continue
            s = open(os.path.join(d, n), encoding='utf-8').read()
            for m in re.finditer(r'^(?!static)[^\n;{}]*?\b(virq_\w+)\s*\([^;{]*\)\s*\{'
                                 r'((?:(?!^\}).)*)^\}', s, re.S | re.M):
                if 'LIBVIRQ_ENTRY_' in m.group(2):
                    res.add(m.group(1))
    return res


def main(argv):
    top, excuses_path, sweeps = argv[1], argv[2], argv[3:]
    doc, ent = documented(top), entries(top)
    want = {(f, s) for f in ent for s in doc.get(f, ())}
    covered = set()
    for b in sweeps:
        out = subprocess.run([b, '--list'], capture_output=True, text=True, check=True).stdout
        covered |= {tuple(ln.split()[:2]) for ln in out.splitlines() if ln.startswith('virq_')}
    excused = {}
    for ln in open(excuses_path, encoding='utf-8'):
        ln = ln.split('#')[0].strip()
        if ln:
            k, why = ln.split(':', 1)
            excused[tuple(k.split())] = why.strip()
    bad = []
    for p in sorted(want - covered - set(excused)):
        bad.append('not swept: %s %s' % p)
    for p in sorted(set(excused) & covered):
        bad.append('excused but swept (drop the excuse): %s %s' % p)
    for p in sorted(set(excused) - want):
        bad.append('excused but not documented: %s %s' % p)
    for p in sorted(covered - want):
        bad.append('swept but not documented in the header: %s %s' % p)
    nodoc = sorted(f for f in ent if not doc.get(f))
    for f in nodoc:
        bad.append('public function with an entry and no documented error: %s' % f)
    for b in bad:
        print(b)
    fns = {f for f, _ in want}
    print('errors_coverage: %d functions, %d documented (function, error) pairs, %d swept, '
          '%d excused, %d problem(s)'
          % (len(fns), len(want), len(want & covered), len(want & set(excused)), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
