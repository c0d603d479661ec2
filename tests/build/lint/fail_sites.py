#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""lint_fail_sites: the failure reports' rules (docs/design.md "Failures").

    fail_sites.py SRC_DIR [FILE...]

Over the library's sources (SRC_DIR/src, or the FILEs given):
  - each LIBVIRQ_FAIL_/LIBVIRQ_FAILV_ reports under `api` (the entry), its
    check is a string literal that names no function ("virq_x: ..." is
    the entry's job), has one %u/%d/%x placeholder per value and at most
    LIBVIRQ_FAIL_MAX_VALUES (4) values;
  - LIBVIRQ_ENTRY_ appears only in functions with external linkage (the
    public functions: where a call enters the library), and __func__
    nowhere else;
  - no library function calls a public function that has an entry (it
    would report under the inner name: call its internal form with `api`);
  - no site of the old macros (LIBVIRQ_FAIL/LIBVIRQ_FAILV without the
    trailing underscore, a function name typed in the message) comes back;
  - the wrapper macros (LIBVIRQ_PAGE_ALLOC_, LIBVIRQ_FAIL_DEAD_, the
    modules' *_DEAD_) report under `api` and name their table or object
    with a string literal.
Prints one line per violation and exits 1 if there is any.
"""
import os
import re
import sys

MAX_VALUES = 4
SITE = re.compile(r'\bLIBVIRQ_(FAILV?)(_?)\s*\(')
# wrapper macro -> index of its literal argument (the api is argument 0)
WRAPPERS = {'LIBVIRQ_PAGE_ALLOC_': 5, 'LIBVIRQ_FAIL_DEAD_': 2, 'LIBVIRQ_GICV4_DEAD_': 2,
            'LIBVIRQ_AVIC_VM_DEAD_': 2, 'LIBVIRQ_AVIC_VCPU_DEAD_': 2, 'LIBVIRQ_PMCV_DEAD_': 2}
WRAP = re.compile(r'\b(%s)\s*\(' % '|'.join(WRAPPERS))
PLACEHOLDER = re.compile(r'%[udx]')


def strip_comments(s):
    """Comments become spaces (newlines kept, so line numbers hold)."""
    out = []
    i = 0
    n = len(s)
    while i < n:
        if s.startswith('/*', i):
            j = s.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', s[i:j]))
            i = j
        elif s.startswith('//', i):
            j = s.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif s[i] in '"\'':
            q = s[i]
            j = i + 1
            while j < n and s[j] != q:
                j += 2 if s[j] == '\\' else 1
            out.append(s[i:j + 1])
            i = j + 1
        else:
            out.append(s[i])
            i += 1
    return ''.join(out)


def blank_directives(s):
    """Preprocessor lines (with their continuations) become spaces: a macro
    body is checked where the macro is used."""
    out = []
    cont = False
    for ln in s.split('\n'):
        if cont or ln.lstrip().startswith('#'):
            cont = ln.endswith('\\')
            out.append(' ' * len(ln))
        else:
            out.append(ln)
    return '\n'.join(out)


def split_args(s, start):
    """The arguments of the call whose '(' is just before @start, and the end."""
    args, cur, depth, i = [], [], 0, start
    while i < len(s):
        c = s[i]
        if c in '"\'':
            j = i + 1
            while s[j] != c:
                j += 2 if s[j] == '\\' else 1
            cur.append(s[i:j + 1])
            i = j + 1
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                args.append(''.join(cur).strip())
                return args, i
            depth -= 1
        elif c == ',' and depth == 0:
            args.append(''.join(cur).strip())
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    raise ValueError('unbalanced call')


FUNC_DEF = re.compile(r'^(?!static\b)(?:[A-Za-z_][\w \t\*]*?)\b([a-z_]\w*)\s*\(', re.M)
STATIC_DEF = re.compile(r'^static\b[^;{]*?\b([a-z_]\w*)\s*\(', re.M)


def functions(s):
    """(name, is_static, body_start, body_end) of every function definition:
    a declarator at column 0 and its body from a '{' at column 0 to a '}'."""
    res = []
    for m in re.finditer(r'^\{\n', s, re.M):
        head_end = m.start()
        head_start = s.rfind('\n\n', 0, head_end)
        head_start = 0 if head_start < 0 else head_start + 2
        head = s[head_start:head_end]
        # the last top-level line starting at column 0 is the declarator
        lines = [ln for ln in head.split('\n') if ln and not ln[0].isspace() and
                 not ln.startswith('#')]
        if not lines:
            continue
        decl = head[head.find(lines[-1]):]
        nm = re.search(r'\b([A-Za-z_]\w*)\s*\(', decl)
        if not nm:
            continue
        close = re.compile(r'^\}', re.M).search(s, m.end())
        end = close.start() if close else len(s)
        res.append((nm.group(1), decl.lstrip().startswith('static'), m.end(), end))
    return res


def line_of(s, pos):
    return s.count('\n', 0, pos) + 1


def literal_text(arg):
    """The text of a (possibly concatenated) string literal, or None."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    rest = re.sub(r'"((?:[^"\\]|\\.)*)"', '', arg).strip()
    if not parts or rest:
        return None
    return ''.join(parts)


def check_file(path, text, entries, bad):
    s = blank_directives(strip_comments(text))
    funcs = functions(s)

    def enclosing(pos):
        for f in funcs:
            if f[2] <= pos <= f[3]:
                return f
        return None

    for m in SITE.finditer(s):
        ln = line_of(s, m.start())
        where = '%s:%d' % (path, ln)
        pre = s[s.rfind('\n', 0, m.start()) + 1:m.start()]
        if pre.lstrip().startswith('#define'):
            continue
        if not m.group(2):
            bad.append('%s: %s() with a hand-typed name: report through LIBVIRQ_%s_(api, ...)'
                       % (where, 'LIBVIRQ_' + m.group(1), m.group(1)))
            continue
        try:
            args, _ = split_args(s, m.end())
        except ValueError:
            bad.append('%s: cannot parse the call' % where)
            continue
        if len(args) < 4:
            bad.append('%s: LIBVIRQ_%s_ needs (api, hal, status, check, ...)' % (where, m.group(1)))
            continue
        if args[0] != 'api':
            bad.append('%s: reports under "%s", not the entry `api`' % (where, args[0]))
        check = literal_text(args[3])
        nvals = len(args) - 4
        if check is None:
            bad.append('%s: the check is not a string literal' % where)
            continue
        if re.match(r'virq_\w+:', check):
            bad.append('%s: the check names a function ("%s"): the entry does' % (where, check))
        if m.group(1) == 'FAIL' and nvals:
            bad.append('%s: LIBVIRQ_FAIL_ takes no values (LIBVIRQ_FAILV_)' % where)
        if m.group(1) == 'FAILV' and not nvals:
            bad.append('%s: LIBVIRQ_FAILV_ without values (LIBVIRQ_FAIL_)' % where)
        if len(PLACEHOLDER.findall(check)) != nvals:
            bad.append('%s: %d placeholder(s) for %d value(s) in "%s"'
                       % (where, len(PLACEHOLDER.findall(check)), nvals, check))
        if nvals > MAX_VALUES:
            bad.append('%s: %d values (at most %d)' % (where, nvals, MAX_VALUES))
    for m in WRAP.finditer(s):
        pre = s[s.rfind('\n', 0, m.start()) + 1:m.start()]
        if pre.lstrip().startswith('#define'):
            continue
        where = '%s:%d' % (path, line_of(s, m.start()))
        args, _ = split_args(s, m.end())
        k = WRAPPERS[m.group(1)]
        if not args or args[0] != 'api':
            bad.append('%s: %s reports under "%s", not the entry `api`'
                       % (where, m.group(1), args[0] if args else ''))
        if len(args) <= k or literal_text(args[k]) is None:
            bad.append('%s: %s: argument %d is not a string literal' % (where, m.group(1), k + 1))
    for m in re.finditer(r'\bLIBVIRQ_ENTRY_\b', s):
        pre = s[s.rfind('\n', 0, m.start()) + 1:m.start()]
        if pre.lstrip().startswith('#'):
            continue
        f = enclosing(m.start())
        where = '%s:%d' % (path, line_of(s, m.start()))
        if not f:
            bad.append('%s: LIBVIRQ_ENTRY_ outside a function' % where)
        elif f[1]:
            bad.append('%s: LIBVIRQ_ENTRY_ in static %s(): only a public function is an entry'
                       % (where, f[0]))
        else:
            entries.setdefault(f[0], where)
    for m in re.finditer(r'\b__func__\b', s):
        bad.append('%s:%d: __func__ outside LIBVIRQ_ENTRY_' % (path, line_of(s, m.start())))
    return s, funcs


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    top = argv[1]
    files = argv[2:]
    if not files:
        for d, _, names in os.walk(os.path.join(top, 'src')):
            files += [os.path.join(d, n) for n in names if n.endswith(('.c', '.h'))]
    files.sort()
    bad, entries, parsed = [], {}, []
    for f in files:
        rel = os.path.relpath(f, top)
        with open(f, encoding='utf-8') as fh:
            s, funcs = check_file(rel, fh.read(), entries, bad)
        parsed.append((rel, re.sub(r'"(?:[^"\\\n]|\\.)*"', lambda m: '"' + ' ' * (len(m.group(0)) - 2) + '"', s), funcs))
    # no library function calls a public function that has an entry
    if entries:
        call = re.compile(r'\b(%s)\s*\(' % '|'.join(map(re.escape, sorted(entries))))
        for rel, s, funcs in parsed:
            for name, _, b0, b1 in funcs:
                for m in call.finditer(s, b0, b1):
                    if m.group(1) != name:
                        bad.append('%s:%d: %s() calls the public %s() (entry %s): call its '
                                   'internal form with `api`' % (rel, line_of(s, m.start()), name,
                                                                 m.group(1), entries[m.group(1)]))
    for b in bad:
        print(b)
    print('lint_fail_sites: %d file(s), %d entr(ies), %d violation(s)'
          % (len(files), len(entries), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
