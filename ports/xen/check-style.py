#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a Xen patch series against the parts of Xen's CODING_STYLE and of
its commit message conventions (docs/process/sending-patches.pandoc) that a
script can check.

    usage: ports/xen/check-style.py PATCH...

Per patch (git format-patch output):
  message  the subject is "<area>: <summary>" with a subsystem prefix
           ("xen/arm:", "xen/common:", optionally a second one such as
           "gicv4:"), at most 72 characters without the "[PATCH n/m]" tag;
           the body explains why before what (it does not open with the
           change itself: "Add", "This patch", ...), lines of at most 72
           characters (URLs and quoted output excepted), and ends with a
           Signed-off-by: line;
  code     in the C files the patch adds or changes (not the imported
           library, xen/common/libvirq/), every added line: no tab (4-space
           indentation), no trailing white space, at most 80 columns unless
           the rest is a user-visible string (CODING_STYLE: such strings are
           not split), a space inside the parentheses of if/for/while/
           switch ("if ( x )"), braces on their own line (no "if ( x ) {",
           "} else"; "do {" is Xen's exception), no "//" comment,
           multi-line comments opened by a lone "/*", every printk() with a
           XENLOG_ level, and in the glue (xen/arch/arm/gicv4/) no read of a
           libvirq object's member (the accessors of libvirq/gicv4/info.h);
  files    a new C file starts with an SPDX-License-Identifier line.
Prints each violation as FILE:LINE: message and a summary line; exits 1 on
any violation.
"""
import re
import sys

PREFIX = re.compile(r'^(xen|tools|docs|config|automation|scripts)(/[A-Za-z0-9_.-]+)*:'
                    r'( [A-Za-z0-9_./-]+:)? [^ ]')
OPENERS = ('add ', 'adds ', 'added ', 'introduce', 'implement', 'this patch', 'this commit',
           'create ', 'make ', 'use ')
CONTROL = re.compile(r'\b(if|while|for|switch)\s*\(')
# A libvirq object's member read by the series' glue (xen/arch/arm/gicv4/):
# its objects are embedded (gv->vpe, gd->dev, gd->vm, the GIC), so a member
# access is "<object>.<member>"; libvirq/gicv4/info.h has the accessors.
LIBVIRQ_MEMBER = re.compile(r'\b(vpe|vm|dev|its|gic|gicv4_gic)\.[a-z_]+\b')
BAD_CONTROL = re.compile(r'\b(if|while|for|switch)\s*\((?!\s)|\b(if|while|for|switch)\s+\(.*[^ \(]\)\s*$')


def strip_strings(line):
    """The line with string and character literals blanked."""
    return re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', lambda m: '"' + ' ' * (len(m.group(0)) - 2) + '"', line)


def check_message(name, lines, errs):
    subj = ''
    body = []
    i = 0
    while i < len(lines) and not lines[i].startswith('Subject:'):
        i += 1
    if i == len(lines):
        errs.append(f'{name}: no Subject line')
        return
    subj = lines[i][len('Subject:'):].strip()
    i += 1
    while i < len(lines) and lines[i].startswith(' '):      # folded subject
        subj += ' ' + lines[i].strip()
        i += 1
    while i < len(lines) and lines[i].strip() != '':       # other headers
        i += 1
    while i < len(lines) and lines[i] != '---':
        body.append(lines[i])
        i += 1
    subj = re.sub(r'^\[PATCH[^\]]*\]\s*', '', subj)
    if not PREFIX.match(subj):
        errs.append(f'{name}: subject "{subj}" has no subsystem prefix ("xen/arm: ...")')
    if len(subj) > 72:
        errs.append(f'{name}: subject is {len(subj)} characters (at most 72)')
    text = [l for l in body if l.strip()]
    if not text:
        errs.append(f'{name}: empty commit message body')
        return
    first = text[0].strip().lower()
    if first.startswith(OPENERS):
        errs.append(f'{name}: the message opens with the change ("{text[0].strip()[:40]}..."), '
                    'not with why it is needed')
    if not any(l.startswith('Signed-off-by: ') for l in body):
        errs.append(f'{name}: no Signed-off-by: line')
    for n, l in enumerate(body, 1):
        if len(l) > 72 and '://' not in l and not l.startswith(('    ', '(XEN)')):
            errs.append(f'{name}: message line {n} is {len(l)} characters (at most 72)')


def check_code(name, lines, errs):
    path = None
    new_file = False
    lineno = 0
    first_added = None
    in_comment = False
    for raw in lines:
        if raw.startswith('diff --git '):
            path = raw.split(' b/', 1)[1]
            new_file = False
            first_added = None
            in_comment = False
            continue
        if raw.startswith('new file mode'):
            new_file = True
            continue
        if raw.startswith('@@'):
            m = re.search(r'\+(\d+)', raw)
            lineno = int(m.group(1)) - 1 if m else 0
            continue
        if path is None or raw.startswith(('+++', '---')):
            continue
        if not (path.endswith('.c') or path.endswith('.h')) or path.startswith('xen/common/libvirq/'):
            continue
        if raw.startswith('-'):
            continue
        lineno += 1
        if not raw.startswith('+'):
            in_comment = _comment_state(raw[1:], in_comment)
            continue
        line = raw[1:]
        where = f'{name}: {path}:{lineno}'
        if new_file and first_added is None:
            first_added = line
            if 'SPDX-License-Identifier:' not in line:
                errs.append(f'{where}: a new file starts with an SPDX-License-Identifier line')
        if '\t' in line:
            errs.append(f'{where}: tab (Xen indents with 4 spaces)')
        if line != line.rstrip():
            errs.append(f'{where}: trailing white space')
        code = strip_strings(line)
        if len(line) > 80 and (code[:80].count('"') == 0 or '"' not in line):
            errs.append(f'{where}: {len(line)} columns (at most 80, except a user-visible string)')
        was_comment = in_comment
        in_comment = _comment_state(line, in_comment)
        if was_comment:
            continue
        stripped = code.strip()
        if '//' in code and '://' not in code:
            errs.append(f'{where}: C++ comment (use /* */)')
        if stripped.startswith('/*') and not stripped.endswith('*/') and stripped != '/*':
            errs.append(f'{where}: a multi-line comment opens with a lone "/*"')
        if CONTROL.search(code) and BAD_CONTROL.search(code) and not stripped.startswith(('*', '/*')):
            errs.append(f'{where}: "if ( x )" style: spaces inside the parentheses')
        if re.search(r'\b(if|for|while|switch|else)\b.*\{\s*$', code) and not stripped.startswith('do'):
            errs.append(f'{where}: the brace goes on its own line')
        if re.match(r'\s*\}\s*else', code):
            errs.append(f'{where}: "else" goes on its own line')
        if re.search(r'\bprintk\s*\(', code) and not re.search(r'\bprintk\s*\(\s*XENLOG_', line):
            errs.append(f'{where}: printk() without a XENLOG_ level')
        if (path.startswith('xen/arch/arm/gicv4/') and not stripped.startswith('#include') and
                LIBVIRQ_MEMBER.search(code)):
            errs.append(f'{where}: reads a libvirq object\'s member '
                        f'("{LIBVIRQ_MEMBER.search(code).group(0)}"): use libvirq/gicv4/info.h')


def _comment_state(line, in_comment):
    """Whether a block comment is open after @line."""
    code = strip_strings(line)
    i = 0
    while i < len(code):
        if in_comment:
            j = code.find('*/', i)
            if j < 0:
                return True
            in_comment = False
            i = j + 2
        else:
            j = code.find('/*', i)
            if j < 0:
                return False
            in_comment = True
            i = j + 2
    return in_comment


def main(argv):
    if len(argv) < 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    errs = []
    for p in argv[1:]:
        with open(p, encoding='utf-8') as f:
            lines = f.read().split('\n')
        name = p.rsplit('/', 1)[-1]
        before = len(errs)
        check_message(name, lines, errs)
        check_code(name, lines, errs)
        if len(errs) == before:
            print(f'ok   {name}')
    for e in errs:
        print(f'FAIL {e}')
    print(f'{len(argv) - 1} patches checked against Xen\'s CODING_STYLE and commit message form: '
          f'{len(errs)} violation(s)')
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
