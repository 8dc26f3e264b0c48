#!/usr/bin/env python3
"""Mirror a script of fscli operations on a host directory (the model),
run it through fscli on an ext2 image, and compare.

  fsmodel.py random SEED COUNT > SCRIPT        a seeded random workload
  fsmodel.py run IMAGE[?offset=N] SCRIPT       apply SCRIPT to a fresh model
        and to the image (read-write); every command's result must equal the
        model's errno (and what "sha" prints, the model's bytes there); then
        e2fsck -fn must pass and the image, read back by debugfs (rdump,
        and ls for inode numbers), must equal the model: names, types,
        contents, symlink targets and hard-link groups.

Paths in scripts start with /d (the mount point); the model maps /d to
its directory.  The image must start empty (only lost+found).
"""
import errno
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import fillgen  # noqa: E402
from fsoracle import fscli, split_image  # noqa: E402


class Model:
    def __init__(self, root):
        self.root = root
        self.out = None     # what the last command must print, if it prints

    def p(self, path):
        assert path == "/d" or path.startswith("/d/"), path
        return self.root + path[2:]

    def apply(self, words):
        """Run one command on the model; return 0 or -errno."""
        c, a = words[0], words[1:]
        self.out = None
        try:
            if c == "write":
                with open(self.p(a[0]), "wb") as f:
                    f.write(a[1].encode())
            elif c == "append":
                with open(self.p(a[0]), "ab") as f:
                    f.write(a[1].encode())
            elif c == "pwrite":
                self.pwrite(a[0], int(a[1], 0), a[2].encode())
            elif c == "fill":
                off = int(a[3], 0) if len(a) == 4 else 0
                self.pwrite(a[0], off, fillgen.fill(int(a[1], 0), int(a[2], 0), off))
            elif c == "truncate":
                os.truncate(self.p(a[0]), int(a[1], 0))
            elif c == "mkdir":
                os.mkdir(self.p(a[0]))
            elif c == "rmdir":
                os.rmdir(self.p(a[0]))
            elif c == "rm":
                os.unlink(self.p(a[0]))
            elif c == "mv":
                os.rename(self.p(a[0]), self.p(a[1]))
            elif c == "ln":
                os.link(self.p(a[0]), self.p(a[1]), follow_symlinks=False)
            elif c == "symlink":
                os.symlink(a[0], self.p(a[1]))
            elif c == "sha":
                with open(self.p(a[0]), "rb") as f:
                    f.seek(int(a[1], 0) if len(a) == 3 else 0)
                    data = f.read(int(a[2], 0) if len(a) == 3 else -1)
                self.out = ["%s  %s" % (hashlib.sha256(data).hexdigest(), a[0])]
            elif c in ("sync", "remount"):
                pass
            else:
                raise SystemExit("model: unknown command " + c)
        except OSError as e:
            return -e.errno
        return 0

    def pwrite(self, path, off, data):
        p = self.p(path)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, data, off)
        finally:
            os.close(fd)


def random_script(seed, count):
    rnd = random.Random(seed)
    m = Model(tempfile.mkdtemp(prefix="fsmodel."))
    out = []
    total = [0]

    snap = {}

    def scan():
        """One walk of the model per operation: its files and directories."""
        files, dirs = [], ["/d"]
        for d, dn, fn in os.walk(m.root):
            rel = "/d" + d[len(m.root):]
            dirs += [rel + "/" + n for n in dn if n != "lost+found"]
            files += [rel + "/" + n for n in fn if not os.path.islink(os.path.join(d, n))]
        snap["files"], snap["dirs"] = sorted(files), sorted(dirs)
        snap["all"] = sorted(files + dirs[1:])

    def dirs():
        return snap["dirs"]

    def newname():
        return rnd.choice(dirs()) + "/" + rnd.choice(["a", "b", "c", "file", "x" * 40, "n"]) + str(rnd.randrange(40))

    def anypath():
        e = snap["all"]
        return rnd.choice(e) if e and rnd.random() < 0.85 else newname()

    os.mkdir(m.p("/d/lost+found"))
    for _ in range(count):
        r = rnd.random()
        scan()
        files = snap["files"]
        if r < 0.18 or not files:
            size = rnd.choice([0, 1, 100, 1024, 4096, 5000, 13 * 1024, 70000, 300000])
            if total[0] > 24 << 20:
                size = 10
            total[0] += size
            cmd = ["fill", newname(), str(size), str(rnd.randrange(1 << 32))]
        elif r < 0.30:
            f = rnd.choice(files)
            off = rnd.choice([0, rnd.randrange(300000), rnd.randrange(5 << 20)])
            size = rnd.choice([1, 7, 1000, 4096, 20000])
            total[0] += size
            cmd = ["fill", f, str(size), str(rnd.randrange(1 << 32)), str(off)]
        elif r < 0.36:
            cmd = ["append", rnd.choice(files), "more%d" % rnd.randrange(1000)]
        elif r < 0.44:
            cmd = ["truncate", rnd.choice(files), str(rnd.choice([0, 1, 1000, 4097, 12 * 1024, rnd.randrange(400000)]))]
        elif r < 0.54:
            cmd = ["mkdir", newname()]
        elif r < 0.60:
            cmd = ["rmdir", rnd.choice(dirs()[1:] or ["/d/none"])]
        elif r < 0.70:
            cmd = ["rm", anypath()]
        elif r < 0.82:
            cmd = ["mv", anypath(), rnd.choice([newname(), anypath()])]
        elif r < 0.88:
            cmd = ["ln", rnd.choice(files), newname()]
        elif r < 0.94:
            target = rnd.choice(["f", "../up", "x" * rnd.randrange(1, 300)])
            cmd = ["symlink", target, newname()]
        elif r < 0.97:
            cmd = ["sync"]
        else:
            cmd = ["remount"]
        if any("lost+found" in w for w in cmd[1:]):
            continue
        m.apply(cmd)
        out.append(" ".join(cmd))
    shutil.rmtree(m.root)
    return "\n".join(out) + "\n"


def debugfs(spec, cmds):
    p = subprocess.run(["debugfs", "-f", "-", spec], input=cmds.encode(), capture_output=True)
    return p.stdout.decode(errors="replace")


def compare(spec, model_root):
    """Compare the image (through debugfs) with the model; list of mismatches."""
    bad = []
    tmp = tempfile.mkdtemp(prefix="fsdump.")
    try:
        debugfs(spec, "rdump / %s\n" % tmp)
        got = os.path.join(tmp, os.listdir(tmp)[0]) if len(os.listdir(tmp)) == 1 else tmp
        want_names, got_names = {}, {}
        for base, names in ((model_root, want_names), (got, got_names)):
            for d, dn, fn in os.walk(base):
                for n in dn + fn:
                    full = os.path.join(d, n)
                    rel = os.path.relpath(full, base)
                    if os.path.islink(full):
                        names[rel] = ("l", os.readlink(full))
                    elif os.path.isdir(full):
                        names[rel] = ("d", None)
                    else:
                        names[rel] = ("f", hashlib.sha256(open(full, "rb").read()).hexdigest())
        for k in sorted(set(want_names) | set(got_names)):
            if want_names.get(k) != got_names.get(k):
                bad.append("%s: model %s, image %s" % (k, want_names.get(k), got_names.get(k)))
        # Hard-link groups: names sharing an inode in the model must share one in the image.
        dirs = [""] + [k for k, v in want_names.items() if v[0] == "d"]
        out = debugfs(spec, "".join("ls -l /%s\n" % d for d in dirs))
        ino_of, cur = {}, None
        for line in out.splitlines():
            if line.startswith("debugfs: ls -l "):
                cur = line[len("debugfs: ls -l /"):]
                continue
            f = line.split()
            if (cur is not None and len(f) >= 9 and f[0].isdigit() and f[0] != "0" and
                    f[8] not in (".", "..")):
                ino_of[os.path.join(cur, " ".join(f[8:]))] = int(f[0])
        groups_m, groups_i = {}, {}
        for k, v in want_names.items():
            if v[0] == "f":
                groups_m.setdefault(os.lstat(os.path.join(model_root, k)).st_ino, set()).add(k)
                groups_i.setdefault(ino_of.get(k), set()).add(k)
        if sorted(map(sorted, groups_m.values())) != sorted(map(sorted, groups_i.values())):
            bad.append("hard-link groups differ")
    finally:
        shutil.rmtree(tmp)
    return bad


def run(spec, script_path):
    script = open(script_path).read()
    root = tempfile.mkdtemp(prefix="fsmodel.")
    try:
        m = Model(root)
        os.mkdir(m.p("/d/lost+found"))
        cmds = [l.split() for l in script.splitlines() if l.strip() and not l.startswith("#")]
        expect = [(m.apply(c), m.out) for c in cmds]
        res = fscli(spec, script, ro=False)
        bad = []
        if len(res) != len(cmds):
            bad.append("fscli ran %d commands of %d" % (len(res), len(cmds)))
        for c, (e, eout), (rc, out) in zip(cmds, expect, res):
            if rc != e:
                bad.append("%s: %d, model %d" % (" ".join(c)[:100], rc, e))
            elif e == 0 and eout is not None and out != eout:
                bad.append("%s: printed %s, model %s" % (" ".join(c)[:100], out, eout))
        img, off = split_image(spec)
        p = subprocess.run(["e2fsck", "-fn", spec], capture_output=True)
        if p.returncode != 0:
            bad.append("e2fsck -fn: %d: %s" % (p.returncode, p.stdout.decode()[-1500:]))
        bad += compare(spec, root)
        for b in bad[:25]:
            print(b)
        return 1 if bad else 0
    finally:
        shutil.rmtree(root)


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "random":
        sys.stdout.write(random_script(int(a[1]), int(a[2])))
    elif len(a) == 3 and a[0] == "run":
        sys.exit(run(a[1], a[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
