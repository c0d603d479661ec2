#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""lint_func_length: no function body longer than 60 lines.

    func_length.py SRC_DIR [FILE...]

Over every C source and header of SRC_DIR/src and SRC_DIR/sim/src (or the
FILEs given): a function definition is a body opened by '{' and closed by
'}' at column 0 (the house format puts them there); its length is the lines
between them. Prints one line per function over the limit and exits 1 if
there is any.
"""
import glob
import os
import re
import sys

LIMIT = 60
NAME = re.compile(r'([A-Za-z_]\w*)\s*\(')


def long_functions(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out, start = [], None
    for i, ln in enumerate(lines):
        if ln == '{':
            start = i
        elif ln == '}' and start is not None:
            n = i - start - 1
            j = start - 1
            while j > 0 and '(' not in lines[j]:
                j -= 1
            m = NAME.search(lines[j])
            if n > LIMIT:
                out.append((j + 1, m.group(1) if m else '?', n))
            start = None
    return out


def main(argv):
    src = argv[1]
    files = argv[2:] or sorted(
        p for d in ('src', os.path.join('sim', 'src')) for ext in ('c', 'h')
        for p in glob.glob(os.path.join(src, d, '**', '*.' + ext), recursive=True))
    bad = 0
    for f in files:
        for line, name, n in long_functions(f):
            print('%s:%d: %s() has %d lines (at most %d)' % (os.path.relpath(f, src), line, name,
                                                           n, LIMIT))
            bad += 1
    print('lint_func_length: %d file(s), %d function(s) over %d lines' % (len(files), bad, LIMIT))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
