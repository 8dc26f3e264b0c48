#!/usr/bin/env bash
# IDE discovery on the pc machine (PIIX3): four disks of different sizes on
# both channels, master and slave, partitioned with MBR (with logicals)
# and GPT; the kernel's lsblk and part must match the host's sfdisk view
# of every image.  Then an ATAPI CD-ROM beside a disk is recognised and
# left alone, and a machine with no IDE devices boots at once.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-disks
rm -rf "$img" && mkdir -p "$img"
{
	truncate -s 64M "$img/d0.raw"
	printf 'label: dos\nlabel-id: 0x1de0d0d0\nunit: sectors\n\n'`
		`'start=2048, size=16MiB, type=83, bootable\nstart=34816, size=8MiB, type=83\n'`
		`'type=5\nsize=12MiB, type=83\nsize=6MiB, type=82\ntype=83\n' | sfdisk -q "$img/d0.raw"
	truncate -s 96M "$img/d1.raw"
	printf 'label: gpt\nlabel-id: 11111111-2222-3333-4444-555555555555\nfirst-lba: 2048\n\n'`
		`'start=2048, size=20MiB, type=L, name="one"\ntype=L, size=30MiB, name="two"\n'`
		`'type=L, name="three"\n' | sfdisk -q "$img/d1.raw"
	truncate -s 40M "$img/d2.raw"
	printf 'label: dos\nunit: sectors\n\nstart=63, size=40000, type=c\nstart=40063, type=83\n' |
		sfdisk -q "$img/d2.raw"
	truncate -s 130M "$img/d3.raw"
	printf 'label: gpt\n\nsize=1MiB, type=L, name="tiny"\ntype=L, name="rest"\n' |
		sfdisk -q "$img/d3.raw"
	for i in 0 1 2 3; do sfdisk --json "$img/d$i.raw" >"$img/d$i.json"; done
} >"$img/make.log" 2>&1 || { notok "ide/disks/images" "image build failed (see $img/make.log)"; exit 0; }

boot ide-disks --timeout 60 --disk "$img/d0.raw" --disk "$img/d1.raw" --disk "$img/d2.raw" \
	--disk "$img/d3.raw" --cmdline 'run="lsblk; part hda; part hdb; part hdc; part hdd; lspci; irqs"'
expect_rc "ide/disks/boot" 0
expect_out "ide/disks/controller" '^\[ *[0-9.]+\] pciide0: 8086:7010 prog-if 80, legacy/legacy, bus master on'
expect_out "ide/disks/bound" '^00:01\.1 8086:7010 .* ide$'
expect_out "ide/disks/irq14" '^ *14 .* ide0$'
expect_out "ide/disks/irq15" '^ *15 .* ide1$'
for d in hda hdb hdc hdd; do
	expect_out "ide/disks/$d/dma" "^\[ *[0-9.]+\] $d: QEMU HARDDISK, .*UDMA/[0-9]"
done

# Every disk and partition as sfdisk sees it: names, sizes, device numbers
# and model in lsblk; starts and ends in part.
why=$(python3 - "$out" "$img" <<'PY'
import json, os, re, sys
out, img = open(sys.argv[1]).read(), sys.argv[2]
lsblk = {}
for l in out.splitlines():
    f = l.split()
    if len(f) >= 6 and re.match(r"^hd[a-d]\d*$", f[0]) and re.match(r"^\d+:\d+$", f[1]):
        lsblk[f[0]] = (f[1], int(f[3]), f[5], " ".join(f[6:]))
probs = []
for i, d in enumerate("abcd"):
    name = "hd" + d
    sectors = os.path.getsize("%s/d%d.raw" % (img, i)) // 512
    t = json.load(open("%s/d%d.json" % (img, i)))["partitiontable"]
    want = {name: (sectors, "disk")}
    for p in t["partitions"]:
        n = int(re.search(r"(\d+)$", p["node"]).group(1))
        # An extended container is a one-block device, as in Linux.
        ext = p["type"].lower() in ("5", "f", "85")
        want["%s%d" % (name, n)] = (1 if ext else p["size"], "part")
    got = {k: (v[1], v[2]) for k, v in lsblk.items() if re.match(name + r"\d*$", k)}
    if got != want:
        probs.append("%s: lsblk %s, sfdisk %s" % (name, sorted(got.items()), sorted(want.items())))
    major = "3" if i < 2 else "22"
    minor = 64 * (i % 2)
    if lsblk.get(name, ("",))[0] != "%s:%d" % (major, minor):
        probs.append("%s: dev %s" % (name, lsblk.get(name, ("?",))[0]))
    if not lsblk.get(name, ("", 0, "", ""))[3].startswith("QEMU HARDDISK"):
        probs.append("%s: model missing" % name)
    m = re.search(r"^%s: scheme (\w+).*?\n(.*?)(?=^\S|\Z)" % name, out, re.M | re.S)
    if not m or m.group(1) != t["label"]:
        probs.append("%s: part scheme %s, sfdisk %s" % (name, m and m.group(1), t["label"]))
        continue
    rows = {}
    for l in m.group(2).splitlines():
        f = re.match(r"^ *(\d+) +(\d+) +(\d+) +(\d+) ", l)
        if f:
            rows[int(f.group(1))] = (int(f.group(2)), int(f.group(3)))
    for p in t["partitions"]:
        n = int(re.search(r"(\d+)$", p["node"]).group(1))
        if rows.get(n) != (p["start"], p["start"] + p["size"] - 1):
            probs.append("%s%d: part %s, sfdisk start %d size %d" % (name, n, rows.get(n), p["start"], p["size"]))
print("; ".join(probs[:3]))
PY
)
if [ -z "$why" ]; then ok "ide/disks/lsblk-matches-sfdisk"; else notok "ide/disks/lsblk-matches-sfdisk" "$why"; fi

# A CD-ROM on the secondary master: named, left alone, no disk for it.
boot ide-atapi --timeout 60 --disk "$img/d0.raw" --cmdline 'run="lsblk; ide"' -- \
	-drive if=none,id=cdx,media=cdrom -device ide-cd,drive=cdx,bus=ide.1,unit=0
expect_rc "ide/atapi/boot" 0
expect_out "ide/atapi/recognised" 'hdc: ATAPI device "QEMU DVD-ROM": not handled by this driver, left alone'
expect_no_out "ide/atapi/no-disk" '^hdc '
expect_out "ide/atapi/disk-beside-it" '^hda +3:0 '
expect_out "ide/atapi/ide-command" '^    hdc: ATAPI$'

# No IDE device at all: empty channels cost nothing and hang nothing.
boot ide-none --timeout 30 --cmdline 'run="lsblk"'
expect_rc "ide/none/boot" 0
expect_no_out "ide/none/no-disks" '^hd[a-d] '
