#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs_file_refs: no page links to the wrong one of two headers of the same
name (libvirq/hal.h and libvirq/sim/hal.h, gicv4/gic.h and sim/gic.h, ...).

    check_file_refs.py HTML_DIR

A library page (any page but the simulator's) that links a simulator header's
page, or a simulator page that links a library header's page, must show the
header's path ("libvirq/sim/hal.h", "libvirq/hal.h"): a bare "hal.h", or
other text, is a reference Doxygen resolved by name alone. Directory and
file lists are exempt (they list every file of their directory).
"""
import os
import re
import sys


def is_sim_page(name):
    return name.startswith(('sim_2', 'group__virq__sim', 'structvirq__sim', 'md_docs_sim',
                            'unionvirq__sim'))


def main(argv):
    top = argv[1]
    bad = []
    link = re.compile(r'<a [^>]*href="((?:sim_2|include_2)[^"#]*_8h\.html)"[^>]*>(.*?)</a>')
    for name in sorted(os.listdir(top)):
        if not name.endswith('.html') or name.startswith(('dir_', 'files', 'globals')):
            continue
        text = open(os.path.join(top, name), encoding='utf-8', errors='replace').read()
        for m in link.finditer(text):
            target, shown = m.group(1), re.sub('<[^>]+>', '', m.group(2))
            if target == name or target.startswith('sim_2') == is_sim_page(name):
                continue
            if 'libvirq/' not in shown:
                bad.append('%s links %s as "%s"' % (name, target, shown))
    for b in bad:
        print(b)
    print('docs_file_refs: %d ambiguous reference(s)' % len(bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
