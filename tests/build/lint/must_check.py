#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""lint_must_check: every public teardown is LIBVIRQ_MUST_CHECK.

    must_check.py INCLUDE_DIR

A public function (include/libvirq/**.h) whose name ends in _destroy or
_fini and that returns virq_status must be declared LIBVIRQ_MUST_CHECK
(docs/misra.md, Dir 4.7): its refusal (EBUSY: nothing freed) must not be
ignorable. Prints one line per violation and exits 1 if there is any.
"""
import os
import re
import sys

DECL = re.compile(r'(?m)^((?:[A-Za-z_]\w*[ \t]+)*)virq_status\s+(virq_\w+_(?:destroy|fini))\s*\(')


def main():
    root = sys.argv[1]
    bad = checked = 0
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith('.h'):
                continue
            p = os.path.join(d, f)
            text = open(p, encoding='utf-8').read()
            for m in DECL.finditer(text):
                checked += 1
                if 'LIBVIRQ_MUST_CHECK' not in m.group(1):
                    line = text.count('\n', 0, m.start()) + 1
                    print('%s:%d: %s is not LIBVIRQ_MUST_CHECK' % (p, line, m.group(2)))
                    bad += 1
    print('lint_must_check: %d teardown function(s), %d violation(s)' % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == '__main__':
    sys.exit(main())
