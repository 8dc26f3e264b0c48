#!/usr/bin/env python3
"""Compare parttool's view of an image with the sfdisk/fdisk dump of it.

    partcmp.py NAME DIR PARTTOOL_OUTPUT_FILE

Prints one TAP line, "ok - partitions/NAME" or "not ok - ... # why".  See
tests/images/partitions.sh for the .meta keys.  Besides matching the dump
(number, start, size, type, PARTUUID, name, attributes, boot flag), every
result must be sane: inside the disk, no overlaps except logical partitions
inside their extended one.  A dos entry that runs past the end of the disk
is expected cut there, as Linux does (block/partitions/core.c).
"""
import os
import re
import sys

ATTR_BITS = {"RequiredPartition": 0, "NoBlockIOProtocol": 1, "LegacyBIOSBootable": 2}


def unescape(s):
    """sfdisk writes non-ASCII name bytes as \\xHH."""
    return re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  s.encode()).decode("utf-8", "replace")


def parse_dump(path):
    head, parts = {}, {}
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^\S*?(\d+) : (.*)$", line)
        if not m:
            if ": " in line:
                k, v = line.split(": ", 1)
                head[k.strip()] = v.strip()
            continue
        num, fields = int(m.group(1)), m.group(2)
        p = {"bootable": False, "attrs": 0, "name": "", "uuid": None}
        for f in re.finditer(r'(\w[\w-]*)(?:=\s*("(?:[^"\\]|\\.)*"|[^,]*))?(?:,\s*|$)', fields):
            k, v = f.group(1), (f.group(2) or "").strip()
            if v.startswith('"'):
                v = unescape(v[1:-1])
            if k == "bootable":
                p["bootable"] = True
            elif k in ("start", "size"):
                p[k] = int(v)
            elif k == "attrs":
                bits = 0
                for a in v.split():
                    bits |= 1 << (int(a[5:]) if a.startswith("GUID:") else ATTR_BITS[a])
                p["attrs"] = bits
            elif k in ("type", "uuid", "name"):
                p[k] = v
        parts[num] = p
    return head, parts


def parse_tool(path):
    res = {"parts": {}, "scheme": None, "id": None, "warnings": None}
    for line in open(path, encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if f[0] == "part":
            res["parts"][int(f[1])] = {
                "start": int(f[2]), "size": int(f[3]), "type": f[4], "uuid": f[5],
                "attrs": int(f[6], 16), "flags": f[7].split(","), "name": f[8]}
        elif f[0] in ("scheme", "id"):
            res[f[0]] = f[1]
        elif f[0] == "warnings":
            res["warnings"] = int(f[1])
    return res


def check(name, d, toolout):
    meta = dict(l.strip().split("=", 1) for l in open(os.path.join(d, name + ".meta")) if "=" in l)
    head, want = parse_dump(os.path.join(d, name + ".dump"))
    got = parse_tool(toolout)
    disk = os.path.getsize(os.path.join(d, name + ".raw")) // 512
    scale = int(head.get("sector-size", "512")) // 512

    if got["warnings"] is None:
        return "no output from parttool"
    if meta.get("warn") == "yes" and got["warnings"] == 0:
        return "expected a warning, got none"
    if meta.get("warn") == "no" and got["warnings"] != 0:
        return "%d unexpected warnings" % got["warnings"]
    scheme = meta.get("scheme", head.get("label"))
    if got["scheme"] != scheme:
        return "scheme %s, expected %s" % (got["scheme"], scheme)
    if "expect" in meta:
        keep = {int(x) for x in meta["expect"].split(",") if x}
        want = {n: p for n, p in want.items() if n in keep}
    if scheme == "dos":         # Linux cuts an entry at the end of the disk
        for w in want.values():
            w["size"] = min(w["size"], disk // scale - w["start"])
    if scheme == "gpt" and got["id"].upper() != head["label-id"].upper():
        return "disk GUID %s, expected %s" % (got["id"], head["label-id"])
    if scheme == "dos" and int(got["id"], 16) != int(head["label-id"], 16):
        return "disk id %s, expected %s" % (got["id"], head["label-id"])
    if sorted(got["parts"]) != sorted(want):
        return "partitions %s, expected %s" % (sorted(got["parts"]), sorted(want))
    for n, w in want.items():
        g = got["parts"][n]
        pre = "partition %d: " % n
        if g["start"] != w["start"] * scale or g["size"] != w["size"] * scale:
            return pre + "%d+%d, expected %d+%d" % (g["start"], g["size"],
                                                   w["start"] * scale, w["size"] * scale)
        same = (int(g["type"], 16) == int(w["type"], 16) if scheme == "dos"
                else g["type"].upper() == w["type"].upper())
        if not same:
            return pre + "type %s, expected %s" % (g["type"], w["type"])
        if scheme == "gpt":
            if g["uuid"].upper() != w["uuid"].upper():
                return pre + "PARTUUID %s, expected %s" % (g["uuid"], w["uuid"])
            if g["name"] != w["name"]:
                return pre + "name %r, expected %r" % (g["name"], w["name"])
            if g["attrs"] != w["attrs"]:
                return pre + "attrs %#x, expected %#x" % (g["attrs"], w["attrs"])
        else:
            if ("boot" in g["flags"]) != w["bootable"]:
                return pre + "boot flag differs"
            if g["uuid"] != "%08x-%02x" % (int(head["label-id"], 16), n):
                return pre + "PARTUUID %s" % g["uuid"]
    # sanity, whatever the oracle says
    ps = sorted(got["parts"].items())
    for n, p in ps:
        if p["size"] <= 0 or p["start"] + p["size"] > disk:
            return "partition %d outside the disk" % n
    for i, (n, p) in enumerate(ps):
        for m, q in ps[i + 1:]:
            if "ext" in p["flags"] or "ext" in q["flags"]:
                continue
            if p["start"] < q["start"] + q["size"] and q["start"] < p["start"] + p["size"]:
                return "partitions %d and %d overlap" % (n, m)
    return None


def main():
    name, d, toolout = sys.argv[1:4]
    why = check(name, d, toolout)
    if why:
        print("not ok - partitions/%s # %s" % (name, why))
    else:
        print("ok - partitions/%s" % name)


if __name__ == "__main__":
    main()
