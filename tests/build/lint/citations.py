#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lint: every citation of an AMD or Arm document names the document, its
revision, and a section, table or figure that exists in that revision
(ctest lint_citations).

  citations.py SRC_DIR            the tree (include/, src/, docs/ and the AMD
                                  layout tools and data)
  citations.py SRC_DIR FILE...    only these files (lint_citations_fixture)

One revision per document (DOCS below). A citation is a document's name
followed by a section (§N.N), table, figure, appendix or chapter; a section,
table or figure belongs to the document named last before it in its
paragraph (a comment block, or a Markdown paragraph). Reported:
  - a citation without the revision, or with another revision;
  - a section, table or figure of a checked document that is not in
    citations/registry.txt (numbers and titles as in the revision cited);
  - a section, table or figure with no document named before it in its
    paragraph.
Before the tree, each line of citations/bad.txt must be reported on its own
and citations/good.txt must pass, so a broken pattern cannot pass silently.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# key: (mention pattern, required revision pattern, canonical spelling)
DOCS = {
    "APM2": (r"(?:AMD64\s+)?APM\s+Vol\.?\s*2\b", r"\s+rev\s+(\d+\.\d+)", "3.44",
             "AMD64 APM Vol 2 rev 3.44"),
    "APM3": (r"(?:AMD64\s+)?APM\s+Vol\.?\s*3\b", r"\s+rev\s+(\d+\.\d+)", "3.37",
             "AMD64 APM Vol 3 rev 3.37"),
    "IOMMU": (r"(?:AMD\s+)?(?:I/O Virtualization Technology \(IOMMU\)\s+Specification\s+|"
              r"IOMMU\s+spec(?:ification)?\s+|IOMMU\s+)?(?:\(pub\.\s*)?48882\b\)?",
              r"\s+rev\s+(\d+\.\d+)", "3.11", "AMD IOMMU specification 48882 rev 3.11"),
    "GIC": (r"(?:Arm\s+)?IHI\s*0069", r"([A-Z]?)(?:\.[a-z])?\b", "H", "Arm IHI 0069H"),
}
# Mentions that name an AMD or Arm document without saying which one.
VAGUE = [
    (r"\b(?:AMD64\s+)?APM\b(?!\s+Vol)", "the APM without its volume and revision"),
    (r"\bIOMMU\s+spec(?:ification)?\b(?!\s+(?:\(pub\.\s*)?48882)", "the IOMMU specification "
     "without its number (48882) and revision"),
    (r"\bGIC(?:v3)?\s+(?:architecture\s+)?spec(?:ification)?\b(?!\s+\(?(?:Arm\s+)?IHI)",
     "the GIC specification without its number (IHI 0069H)"),
]
# Other documents: their sections are not checked, only attributed.
OTHER = (r"\b(?:Intel\s+)?SDM\b|Devicetree\s+Specification|\bDTSpec\b|\bC(?:99|11|17)\b|"
         r"\bISO\s+C\b|\bRFC\s*\d+|\bArm\s+ARM\b|\bDDI\s*0487|\bIHI\s*0048|\bPPR\b|\bMISRA\b|"
         r"\bACPI\b|\bPCI(?:e| Express)?\b|\bSBSA\b|\bBSA\b|\bDEN\s*\d+|\bPOSIX\b|"
         r"\bRevision Guide\b|\bBKDG\b|\bDWARF\b|\bELF\b")
SECT = r"§\s?(?:[A-Z]|\d+)(?:\.\d+)*"
TABFIG = r"\b(?:Tables?|Figures?)\s+(?:\d+(?:-\d+)?|[A-Z]-\d+)\b"
APPX = r"\b(?:Appendix|App\.)\s+[A-F]\b"
CHAP = r"\bchapter\s+\d+\b"
SEP = r"(?:\s*(?:,|/|\band\b|\bor\b|\bto\b|\.\.|–|—|-(?=\d+\.))\s*)"
REF = re.compile(r"(%s|%s|%s|%s)" % (SECT, TABFIG, APPX, CHAP))
LIST_NUM = {"§": r"(?:[A-Z]|\d+)(?:\.\d+)*", "T": r"(?:\d+(?:-\d+)?|[A-Z]-\d+)"}


def registry():
    reg = {}
    with open(os.path.join(HERE, "citations", "registry.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            doc, ref = line.split()[:2]
            if ref in ("Table", "Figure", "Appendix"):
                ref = " ".join(line.split()[1:3])
            reg.setdefault(doc, set()).add(ref)
    return reg


def paragraphs(path, text):
    """(first line, text) of each scope a document name covers: a comment
    block of a C source, a section (heading to heading) of Markdown, a
    blank-line separated paragraph of other text; fenced code is skipped."""
    if path.endswith((".c", ".h", ".cpp", ".hpp")):
        return c_paragraphs(text)
    out, cur, start, fence = [], [], 0, False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        if line.startswith("#") and not path.endswith(".txt") or \
                (path.endswith(".txt") and line.strip() == ""):
            if cur:
                out.append((start, " ".join(cur)))
            cur = []
            if line.strip() == "":
                continue
        if not cur:
            start = n
        cur.append(line.strip().lstrip("#").strip())
    if cur:
        out.append((start, " ".join(cur)))
    return out


def c_paragraphs(text):
    out, cur, start, last = [], [], 0, -2
    last_str, last_end = False, 0
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", text, re.S):
        tok = m.group(0)
        line = text.count("\n", 0, m.start()) + 1
        if tok.startswith('"'):
            body = [tok[1:-1].replace("\\n", " ")]
        elif tok.startswith("//"):
            body = [tok.lstrip("/").lstrip("<").strip()]
        else:
            body = [re.sub(r"^\s*(?:/\*+!?<?|\*+/?|\*)?", "", l).rstrip("*/ ").strip()
                    for l in tok.split("\n")]
        joined = tok.startswith('"') and last_str and text[last_end:m.start()].strip() == ""
        gap = (line - last > 1 or tok.startswith('"') or last_str) and not joined
        if gap and cur:
            out.append((start, " ".join(cur)))
            cur = []
        for i, b in enumerate(body):
            if b == "":
                continue
            if not cur:
                start = line + i
            cur.append(b)
        last = line + len(body) - 1
        last_str, last_end = tok.startswith('"'), m.end()
    if cur:
        out.append((start, " ".join(cur)))
    return out


def refs_at(text, pos):
    """The refs of the list starting at pos: [(canonical ref)], end."""
    m = REF.match(text, pos)
    tok = m.group(0)
    if tok.startswith("§"):
        kind, first, num = "§", tok[1:].strip(), LIST_NUM["§"]
    elif tok.lower().startswith("chapter"):
        return ["§" + tok.split()[1]], m.end()
    elif tok.startswith(("Appendix", "App.")):
        return ["Appendix " + tok.split()[1]], m.end()
    else:
        word, first = tok.split()
        kind, num = ("Table" if word.startswith("Table") else "Figure"), LIST_NUM["T"]
    out, end = [first], m.end()
    while True:
        lead = r"(?:§\s?)?" if kind == "§" else ""
        m2 = re.compile(SEP + lead + r"(" + num + r")\b(?![.-]\d)").match(text, end)
        if not m2:
            break
        out.append(m2.group(1))
        end = m2.end()
    if kind == "§":
        return ["§" + r for r in out], end
    return [kind + " " + r for r in out], end


def check_paragraph(path, line, text, reg):
    errs = []
    events = []  # (pos, kind, data)
    for key, (pat, revpat, want, canon) in DOCS.items():
        for m in re.finditer(r"\b" + pat, text):
            events.append((m.start(), "doc", (key, m.end())))
    for pat, what in VAGUE:
        for m in re.finditer(pat, text):
            if not any(e[0] <= m.start() < e[2][1] for e in events if e[1] == "doc"):
                events.append((m.start(), "vague", (what, m.end())))
    for m in re.finditer(OTHER, text):
        events.append((m.start(), "other", None))
    events.sort(key=lambda e: e[0])
    # Drop mentions inside a longer document mention (e.g. "APM" of "APM Vol 2").
    docs = [e for e in events if e[1] == "doc"]
    events = [e for e in events
              if e[1] == "doc" or not any(d[0] <= e[0] < d[2][1] for d in docs)]
    current = None
    pos = 0
    ev = 0
    while True:
        m = REF.search(text, pos)
        limit = m.start() if m else len(text)
        while ev < len(events) and events[ev][0] < limit:
            p, kind, data = events[ev]
            ev += 1
            if kind == "doc":
                key, end = data
                revpat, want, canon = DOCS[key][1:]
                r = re.match(revpat, text[end:])
                got = r.group(1) if r else ""
                cited = REF.match(text, end + (r.end() if r else 0) +
                                  len(re.match(r"[\s,:(]*", text[end + (r.end() if r else 0):]).group(0)))
                if got and got != want:
                    errs.append("%s:%d: %s: revision %s, the tree cites %s" %
                                (path, line, canon.rsplit(" ", 1)[0], got, canon))
                elif not got and (cited or key == "GIC"):
                    errs.append("%s:%d: '%s' without its revision (cite %s)" %
                                (path, line, text[p:end].strip(), canon))
                current = key
            elif kind == "vague":
                what, end = data
                after = text[end:end + 12]
                if re.match(r"[\s,:(]*(?:§|Table|Figure|Appendix|App\.)", after):
                    errs.append("%s:%d: cites %s: '%s'" % (path, line, what,
                                                           text[p:end + 12].strip()))
                current = "vague"
            else:
                current = "other"
        if not m:
            break
        refs, pos = refs_at(text, m.start())
        owner = current
        if owner is None:  # named after it in the same scope ("... (Source: APM ...)")
            nxt = next((e for e in events if e[0] > m.start()), None)
            if nxt:
                owner = nxt[2][0] if nxt[1] == "doc" else nxt[1]
        if owner is None:
            errs.append("%s:%d: '%s' names no document" % (path, line, m.group(0)))
        elif owner in reg:
            for r in refs:
                if r not in reg[owner]:
                    errs.append("%s:%d: %s has no %s (citations/registry.txt)" %
                                (path, line, DOCS[owner][3], r))
    return errs


def check(files, reg):
    errs = []
    for f in files:
        try:
            text = open(f, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for line, para in paragraphs(f, text):
            errs += check_paragraph(f, line, para, reg)
    return errs


def tree_files(src):
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=src, capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for d, _, fs in os.walk(src):
            if "/build" in d or "/.git" in d:
                continue
            out += [os.path.relpath(os.path.join(d, x), src) for x in fs]
    keep = []
    for f in sorted(set(out)):
        if f.startswith(("include/", "src/", "docs/")) and f.endswith((".c", ".h", ".md")):
            keep.append(f)
        elif f in ("tools/virqtool/avic.c", "tools/virqtool/pmc.c", "tools/virqtool/layout.c",
                   "tests/data/amd_layouts.txt", "CHANGELOG.md"):
            keep.append(f)
    return [f for f in keep if os.path.isfile(os.path.join(src, f))]


def selftest(reg):
    n = 0
    tmp = os.path.join(HERE, "citations")
    with open(os.path.join(tmp, "bad.txt"), encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if not raw or raw.startswith("#"):
                continue
            n += 1
            if not check_paragraph("bad.txt", n, raw, reg):
                print("FAIL: self-test: not reported: " + raw)
                sys.exit(1)
    good = check([os.path.join(tmp, "good.txt")], reg)
    if good:
        print("\n".join(good))
        print("FAIL: self-test: good.txt reported")
        sys.exit(1)
    print("self-test ok (%d wrong citations reported)" % n)


def main():
    src = sys.argv[1]
    os.chdir(src)
    reg = registry()
    selftest(reg)
    files = sys.argv[2:] or tree_files(".")
    errs = check(files, reg)
    if errs:
        print("\n".join(errs))
        print("%d citation(s) to fix (%d files checked)" % (len(errs), len(files)))
        sys.exit(1)
    print("citations: %d files clean" % len(files))


if __name__ == "__main__":
    main()
