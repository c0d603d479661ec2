#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CET-IBT check of x86_64 objects built with -fcf-protection=branch -mmanual-endbr
(Xen's CONFIG_XEN_IBT): every function whose address is taken -- referenced by
a relocation other than a direct call or jump (PLT32) -- must start with
ENDBR64, or an indirect call to it faults (#CP) on CET hardware.

usage: ibt-check.py [--objdump OBJDUMP] [--readelf READELF] OBJECT...
Prints one line per address-taken function; exits 1 if any lacks ENDBR64.
"""
import re
import subprocess
import sys

ENDBR64 = "f3 0f 1e fa"


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def check(obj, objdump, readelf):
    # Sections by index, and FUNC symbols by (section index, value).
    sections = {}
    for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)", run(readelf, "-SW", obj), re.M):
        sections[m.group(2)] = int(m.group(1))
    funcs = {}
    names = set()
    for line in run(readelf, "-sW", obj).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[6].isdigit():
            funcs[(int(f[6]), int(f[1], 16))] = f[7]
            names.add(f[7])
    def resolve(sym, addend, rtype):
        if sym in names:
            return sym
        if sym in sections:
            # A section symbol (-ffunction-sections: .text.<fn>): the target is
            # the function at the addend (PC-relative: the addend is off - 4).
            off = addend + 4 if rtype in ("R_X86_64_PC32", "R_X86_64_GOTPCREL") else addend
            return funcs.get((sections[sym], off))
        return None

    def reloc(line):
        m = re.search(r"(R_X86_64_\w+)\s+(\S+?)(?:([+-])0x([0-9a-f]+))?$", line.strip())
        if not m:
            return None
        addend = int(m.group(4), 16) * (1 if m.group(3) == "+" else -1) if m.group(4) else 0
        return m.group(1), m.group(2), addend

    taken = set()
    # Code: a relocation belongs to the instruction above it; direct calls
    # and jumps (call, jmp, jcc) do not take an address.
    insn = ""
    for line in run(objdump, "-dr", "-w", obj).splitlines():
        m = re.match(r"^\s*[0-9a-f]+:\t(?:[0-9a-f]{2} )+\s*\t(\S+)", line)
        if m:
            insn = m.group(1)
            continue
        r = reloc(line) if "R_X86_64_" in line else None
        if not r or r[0] == "R_X86_64_NONE":
            continue
        if re.fullmatch(r"(call|jmp|j[a-z]{1,3})[lq]?", insn):
            continue
        fn = resolve(r[1], r[2], r[0])
        if fn:
            taken.add(fn)
    # Data (function-pointer tables, ops structures): every reference counts.
    cur = None
    for line in run(readelf, "-rW", obj).splitlines():
        m = re.match(r"Relocation section '\.rela(\S+)'", line)
        if m:
            cur = m.group(1)
            continue
        if cur is None or cur.startswith((".text", ".debug", ".eh_frame")):
            continue
        f = line.split()
        if len(f) < 5 or not re.fullmatch(r"[0-9a-f]+", f[0]) or not f[2].startswith("R_X86_64_"):
            continue
        m = re.search(r"(\S+)\s*([+-])\s*([0-9a-f]+)$", line)
        if m:
            fn = resolve(m.group(1), int(m.group(3), 16) * (1 if m.group(2) == "+" else -1), f[2])
            if fn:
                taken.add(fn)
    bad = 0
    dis = run(objdump, "-d", obj)
    for fn in sorted(taken):
        m = re.search(r"^[0-9a-f]+ <" + re.escape(fn) + r">:\n\s*[0-9a-f]+:\s+((?:[0-9a-f]{2} )+)", dis, re.M)
        first = m.group(1).strip() if m else "?"
        ok = first.startswith(ENDBR64)
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {obj.rsplit('/', 1)[-1]}: {fn} is address-taken, "
              f"{'starts with endbr64' if ok else 'does not start with endbr64 (' + first + ')'}")
    return bad, len(taken)


def main(argv):
    objdump, readelf, objs = "objdump", "readelf", []
    it = iter(argv)
    for a in it:
        if a == "--objdump":
            objdump = next(it)
        elif a == "--readelf":
            readelf = next(it)
        else:
            objs.append(a)
    bad = total = 0
    for o in objs:
        b, n = check(o, objdump, readelf)
        bad, total = bad + b, total + n
    print(f"CET-IBT: {total} address-taken functions in {len(objs)} objects, {bad} without endbr64")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
