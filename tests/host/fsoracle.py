#!/usr/bin/env python3
"""Oracles for the host ext2 tests (used by tests/host/ext2_*.sh).

  fsoracle.py tree IMAGE[?offset=N] SRCDIR     compare the image, as fscli
        reads it, with SRCDIR (sha256 of every file, symlink targets, sizes)
        and with debugfs 'ls -l' of every directory (inode, mode, uid, gid,
        size, name, in order).  Prints one line per mismatch; exit 1 if any.
  fsoracle.py dump IMAGE[?offset=N] OUTDIR     debugfs rdump of / into OUTDIR.
"""
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FSCLI = os.path.join(ROOT, "build", "host", "fscli")


def split_image(spec):
    m = re.match(r"(.*)\?offset=(\d+)$", spec)
    return (m.group(1), int(m.group(2))) if m else (spec, 0)


def fscli(spec, script, ro=True):
    img, off = split_image(spec)
    args = [FSCLI] + (["-r"] if ro else []) + ["-o", str(off), img]
    p = subprocess.run(args, input=script.encode(), capture_output=True)
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        raise SystemExit("fscli failed (%d): %s %s" % (p.returncode, out[-500:],
                                                     p.stderr.decode()[-2000:]))
    # Split into per-command outputs on the "= RC" lines.
    res, cur = [], []
    for line in out.splitlines()[1:]:
        m = re.match(r"^= (-?\d+)$", line)
        if m:
            res.append((int(m.group(1)), cur))
            cur = []
        else:
            cur.append(line)
    return res


def debugfs_ls(spec, path):
    p = subprocess.run(["debugfs", "-R", "ls -l %s" % path, spec], capture_output=True)
    rows = []
    for line in p.stdout.decode(errors="replace").splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].isdigit() or f[0] == "0":
            continue    # debugfs shows an unused first entry of a block as inode 0
        # ino mode (ft) uid gid size date time name
        rows.append((int(f[0]), f[1], int(f[3]), int(f[4]), int(f[5]), " ".join(f[8:])))
    return rows


def tree(spec, src):
    bad = []
    dirs, files, links = [], [], []
    for d, dn, fn in os.walk(src):
        rel = os.path.relpath(d, src)
        rel = "" if rel == "." else "/" + rel
        dirs.append(rel)
        for n in dn + fn:
            p = os.path.join(d, n)
            if os.path.islink(p):
                links.append((rel + "/" + n, os.readlink(p)))
            elif os.path.isfile(p):
                files.append((rel + "/" + n, p))
    script = "".join("ls /d%s\n" % d for d in dirs)
    script += "".join("sha /d%s\n" % f for f, _ in files)
    script += "".join("readlink /d%s\n" % l for l, _ in links)
    res = fscli(spec, script)
    i = 0
    for d in dirs:
        rc, lines = res[i]
        i += 1
        if rc:
            bad.append("ls %s: %d" % (d, rc))
            continue
        ours = []
        for line in lines:
            f = line.split(" ")
            if len(f) == 2:
                ours.append((int(f[0]), None, None, None, None, f[1]))
            else:
                ours.append((int(f[0]), f[1], int(f[3]), int(f[4]), int(f[5]), " ".join(f[6:])))
        theirs = debugfs_ls(spec, d or "/")
        if len(ours) != len(theirs):
            bad.append("ls %s: %d entries, debugfs %d" % (d, len(ours), len(theirs)))
            continue
        for a, b in zip(ours, theirs):
            if a[1] is None:
                a = (a[0],) + b[1:5] + (a[5],)
            if a != b:
                bad.append("ls %s: %s vs debugfs %s" % (d, a, b))
    for f, p in files:
        rc, lines = res[i]
        i += 1
        want = hashlib.sha256(open(p, "rb").read()).hexdigest()
        got = lines[0].split()[0] if rc == 0 and lines else "rc=%d" % rc
        if got != want:
            bad.append("sha %s: %s, host %s" % (f, got, want))
    for l, target in links:
        rc, lines = res[i]
        i += 1
        if rc or lines != [target]:
            bad.append("readlink %s: %d %s, host %s" % (l, rc, lines, target))
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "tree":
        sys.exit(tree(sys.argv[2], sys.argv[3]))
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
