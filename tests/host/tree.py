#!/usr/bin/env python3
"""The tree's own rules, read from the source (docs/DESIGN.md, issue 15).

Each rule prints one TAP line; a broken rule lists the places that break it.

  layering     includes point one way: fs -> block -> kernel, lib;
               drivers -> block, kernel, lib; block/diag -> the block core
               (and drivers, for test devices), never the reverse; kernel
               and lib include none of them
  prototypes   a function defined in one .c file is declared in a header,
               never in another .c file
  standalone   no comment cites a document outside the repository (tests
               may run the Linux peer beside it, but cite no notes)
  sizes        no kernel source file is longer than MAX_LINES
  commands     shell commands live only in files named *_cmds.c (and the
               shell's own builtins in kernel/shell.c), never in the block core
"""
import os
import re
import sys

MAX_LINES = 650  # "about 600": a file past this holds more than one idea
KERNEL_DIRS = ("boot", "kernel", "lib", "block", "drivers", "fs")
TEST_DIRS = ("tests",)

# Directories a directory may not include from.  Prefix match on paths.
FORBIDDEN = [
    ("kernel/", ("block/", "drivers/", "fs/")),
    ("lib/", ("block/", "drivers/", "fs/", "kernel/mm/")),
    ("block/", ("fs/", "drivers/")),
    ("drivers/", ("fs/",)),
]
BLOCK_CORE_EXEMPT = "block/diag/"

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function definition: a line at column 0 that names a function and
# whose body opens on the next line (the house style).
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(\w+)\([^;{]*\)\s*\n\{", re.M)
# A file-scope prototype in a .c file.
PROTOTYPE = re.compile(r"^(?!static\b|typedef\b|return\b)[A-Za-z_][\w \*]*?\b(\w+)\([^;{]*\)"
                       r"(?:\s*__\w+(?:\([^)]*\))?)*;", re.M)
OUTSIDE_NOTE = re.compile(r"HARDWARE\.md|ARCHITECTURE\.md|STYLE\.md|TESTING\.md")
# Kernel sources cite specifications, not the team's notes nor the peer.
OUTSIDE_DOC = re.compile(OUTSIDE_NOTE.pattern + r"|shared/peer")
SHELL_COMMAND = re.compile(r"^SHELL_COMMAND\(", re.M)


def sources(root, tops=KERNEL_DIRS):
    for top in tops:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".c", ".h", ".S", ".sh", ".bash", ".py")) and f != "tree.py":
                    p = os.path.relpath(os.path.join(d, f), root)
                    yield p, open(os.path.join(root, p), errors="replace").read()


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def report(name, bad):
    if bad:
        print(f"not ok - tree/{name}")
        for b in bad[:40]:
            print(f"#   {b}")
        if len(bad) > 40:
            print(f"#   ... and {len(bad) - 40} more")
    else:
        print(f"ok - tree/{name}")
    return not bad


def main(root):
    files = {p: t for p, t in sources(root) if p.endswith((".c", ".h", ".S"))}
    tests = dict(sources(root, TEST_DIRS))
    code = {p: strip_comments(t) for p, t in files.items()}
    ok = True

    bad = []
    for p, t in code.items():
        for inc in INCLUDE.findall(t):
            for where, never in FORBIDDEN:
                if p.startswith(BLOCK_CORE_EXEMPT) and where == "block/":
                    never = ("fs/",)	# diagnostics may make test devices
                if p.startswith(where) and inc.startswith(never):
                    bad.append(f"{p} includes {inc}")
            if (p.startswith("block/") and not p.startswith(BLOCK_CORE_EXEMPT)
                    and inc.startswith(BLOCK_CORE_EXEMPT)):
                bad.append(f"{p} (block core) includes {inc} (diagnostics)")
    ok &= report("layering", bad)

    defined = {}
    for p, t in code.items():
        if p.endswith(".c"):
            for name in DEFINITION.findall(t):
                defined.setdefault(name, p)
    bad = []
    for p, t in code.items():
        if not p.endswith(".c"):
            continue
        for name in PROTOTYPE.findall(t):
            home = defined.get(name)
            if home and home != p:
                bad.append(f"{p} declares {name}(), defined in {home}: declare it in a header")
    ok &= report("prototypes", bad)

    bad = [f"{p}:{t[:m.start()].count(chr(10)) + 1} cites {m.group(0)}"
           for p, t in files.items() for m in OUTSIDE_DOC.finditer(t)]
    bad += [f"{p}:{t[:m.start()].count(chr(10)) + 1} cites {m.group(0)}"
            for p, t in tests.items() for m in OUTSIDE_NOTE.finditer(t)]
    ok &= report("standalone", bad)

    bad = [f"{p}: {t.count(chr(10))} lines" for p, t in files.items()
           if t.count("\n") > MAX_LINES]
    ok &= report("sizes", bad)

    bad = []
    for p, t in code.items():
        if not SHELL_COMMAND.search(t) or p == "kernel/shell.c":
            continue
        if p.startswith("block/") and not p.startswith(BLOCK_CORE_EXEMPT):
            bad.append(f"{p}: a shell command in the block core")
        elif not p.endswith("_cmds.c"):
            bad.append(f"{p}: a shell command outside a *_cmds.c file")
    ok &= report("commands", bad)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
