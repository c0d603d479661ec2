#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""misra: the MISRA C:2012 rules Xen accepts, over libvirq's sources.

    misra.py SRC_DIR RULES [FILE...]

RULES is docs/misra/rules.rst of a Xen source tree (the hypervisor's list of
accepted guidelines: a table of "Dir N.M" and "Rule N.M" rows), or the
download cache of the host checks ($LIBVIRQ_DOWNLOAD_CACHE overrides it),
where Debian's xen source package is unpacked under xen/src/. The
check runs cppcheck's MISRA addon over SRC_DIR/src/**/*.c (or the FILEs
given) and fails on every violation of an accepted rule that
SRC_DIR/docs/misra.md does not record as a deviation. Directives are not
checked by the addon; docs/misra.md says how each accepted one is met.
Also fails when the rules file lists no rule (a wrong path must not pass),
or when a recorded deviation no longer matches any violation (the list only
shrinks). Prints one line per violation and a summary.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

RULE_ROW = re.compile(r'`(Rule|Dir) (\d+\.\d+)\b')
# docs/misra.md deviation rows: "| Rule N.M | path | reason |"
DEV_ROW = re.compile(r"^\|\s*Rule (\d+\.\d+)\s*\|\s*`?([^|`]+?)`?\s*\|")
VIOLATION = re.compile(r'^(?P<file>[^:]+):(?P<line>\d+): \[misra-c2012-(?P<rule>\d+\.\d+)\]')


def accepted(rules_rst):
    rules, dirs = set(), set()
    with open(rules_rst, encoding='utf-8') as f:
        for kind, num in RULE_ROW.findall(f.read()):
            (rules if kind == 'Rule' else dirs).add(num)
    return rules, dirs


def deviations(src):
    path = os.path.join(src, 'docs', 'misra.md')
    out = []
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = DEV_ROW.match(line)
                if m:
                    out.append((m.group(1), m.group(2).strip()))
    return out


GUARD = re.compile(r'^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+)', re.M)


def unguarded(src):
    """Dir 4.10: headers whose first directives are not #ifndef G / #define G."""
    bad = []
    for h in sorted(glob.glob(os.path.join(src, 'include', '**', '*.h'), recursive=True) +
                    glob.glob(os.path.join(src, 'src', '**', '*.h'), recursive=True)):
        with open(h, encoding='utf-8') as f:
            text = f.read()
        first = re.search(r'^\s*#\s*\w+', text, re.M)
        m = GUARD.search(text)
        if not m or m.group(1) != m.group(2) or not first or m.start() > first.start() + 1:
            bad.append(os.path.relpath(h, src))
    return bad


def run_cppcheck(src, files):
    cmd = ['cppcheck', '--quiet', '--std=c11', '--addon=misra', '-I' + os.path.join(src, 'include'),
           '-I' + os.path.join(src, 'src'), '-D__GNUC__', '-D__x86_64__',
           '--suppress=missingIncludeSystem',
           '--template={file}:{line}: [{id}] {message}'] + files
    # The addon's dump and ctu-info files go to a private directory, not next
    # to the sources (lints running beside this test scan the tree).
    with tempfile.TemporaryDirectory(prefix='virq-misra-') as build:
        p = subprocess.run(cmd[:1] + ['--cppcheck-build-dir=' + build] + cmd[1:], cwd=src,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           check=False)
    return p.returncode, p.stdout


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    src, rules_rst = argv[1], argv[2]
    if os.path.isdir(rules_rst) or not os.path.exists(rules_rst):
        cache = os.environ.get('LIBVIRQ_DOWNLOAD_CACHE') or rules_rst
        found = sorted(glob.glob(os.path.join(cache, 'xen', 'src', '*', 'docs', 'misra',
                                              'rules.rst')))
        if not found:
            print('misra: no xen/src/*/docs/misra/rules.rst under %s (ctest '
                  'hosts_fetch_xen_source fetches it)' % cache)
            return 1
        rules_rst = found[-1]
    rules, dirs = accepted(rules_rst)
    if not rules:
        print('misra: no "Rule N.M" row in %s' % rules_rst)
        return 1
    files = argv[3:] or sorted(os.path.relpath(p, src) for p in glob.glob(
        os.path.join(src, 'src', '**', '*.c'), recursive=True))
    rc, out = run_cppcheck(src, files)
    hits, other = [], 0
    for line in out.splitlines():
        m = VIOLATION.match(line)
        if not m:
            if line.strip() and 'misra' not in line and 'Checking' not in line:
                print('cppcheck: ' + line)
            continue
        if m.group('rule') in rules:
            path = m.group('file')  # relative to src (cppcheck's cwd) or absolute
            path = os.path.relpath(os.path.join(src, path), src)
            hits.append((m.group('rule'), path, line))
        else:
            other += 1
    guards = unguarded(src) if len(argv) == 3 else []
    for h in guards:
        print('%s: Dir 4.10: no include guard (#ifndef NAME / #define NAME first)' % h)
    devs = deviations(src)
    used = set()
    bad = 0
    for rule, path, line in hits:
        dev = next((d for d in devs if d[0] == rule and (path == d[1] or path.startswith(
            d[1].rstrip('*')) and d[1].endswith('*'))), None)
        if dev:
            used.add(dev)
            continue
        print(line)
        bad += 1
    if len(argv) == 3:
        for d in devs:
            if d not in used:
                print('docs/misra.md: deviation Rule %s for %s matches no violation: remove it' % d)
                bad += 1
    print('misra: %d file(s), %d accepted rule(s) and %d directive(s) from %s, %d violation(s) '
          'of accepted rules (%d recorded as deviations), %d of other rules not checked'
          % (len(files), len(rules), len(dirs), os.path.basename(os.path.dirname(
              os.path.dirname(os.path.dirname(rules_rst)))) or rules_rst, bad, len(used), other))
    if rc not in (0, 1):
        print('misra: cppcheck exited with %d' % rc)
        return 1
    return 1 if bad or guards else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
