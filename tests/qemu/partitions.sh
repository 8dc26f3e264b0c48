#!/usr/bin/env bash
# Partition tables as the kernel sees them, against sfdisk: small images
# made at test time (dos with logicals, GPT with named partitions, a hybrid
# MBR, a GPT on 4096-byte sectors) are loaded as multiboot modules, which
# the kernel makes RAM disks ram0..ram3; "part ramN" must match the tool's
# dump for every partition: number, start, end, size, type and name.
# Then a disk image cut short inside a logical partition holding an ext2:
# as in Linux, the partitions across the end are kept, cut at the end of
# the disk; reads stop there, and the filesystem, now larger than its
# partition, is refused.
. "$(dirname "$0")/lib.bash"

img=$logdir/partitions
rm -rf "$img" && mkdir -p "$img"
guid() { printf 'AAAAAAAA-0000-4000-8000-%012d' "$1"; }
{
	truncate -s 16M "$img/mbr.raw"
	printf 'label: dos\nlabel-id: 0x0badcafe\n\nstart=2048, size=4MiB, type=83, bootable\n'`
		`'type=5\nsize=2MiB, type=83\nsize=3MiB, type=82\ntype=7\n' | sfdisk -q "$img/mbr.raw"
	sfdisk --dump "$img/mbr.raw" >"$img/mbr.dump"

	truncate -s 16M "$img/gpt.raw"
	args=(-o -U 66666666-2222-3333-4444-555555555555)
	for i in $(seq 1 10); do
		args+=(-n "$i:0:+1M" -t "$i:8300" -u "$i:$(guid "$i")" -c "$i:vol $i")
	done
	sgdisk "${args[@]}" -t 2:ef00 -c 3:données "$img/gpt.raw" >/dev/null
	sfdisk --dump "$img/gpt.raw" >"$img/gpt.dump"

	cp "$img/gpt.raw" "$img/hybrid.raw"
	cp "$img/gpt.dump" "$img/hybrid.dump"
	sgdisk -h 1:2 "$img/hybrid.raw" >/dev/null

	truncate -s 16M "$img/gpt4k.raw"
	printf 'label: gpt\nlabel-id: 77777777-2222-3333-4444-555555555555\nfirst-lba: 256\n\n'`
		`'start=256, size=512, type=L, name="a4k", uuid=%s\ntype=L, name="b4k", uuid=%s\n' \
		"$(guid 1)" "$(guid 2)" >"$img/gpt4k.in"
	printf 'I\n%s\nw\n' "$img/gpt4k.in" | fdisk -b 4096 "$img/gpt4k.raw"
	printf 'O\n%s\nq\n' "$img/gpt4k.dump" | fdisk -b 4096 "$img/gpt4k.raw"

	# 64 MiB of table and filesystem on a 48 MiB disk
	truncate -s 64M "$img/cut.raw"
	printf 'label: dos\nunit: sectors\n\nstart=2048, size=32768, type=83\n'`
		`'start=34816, type=5\nstart=36864, type=83\n' | sfdisk -q "$img/cut.raw"
	PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext2 -b 1024 -E offset=$((36864 * 512)) \
		"$img/cut.raw" $(((131072 - 36864) / 2))k
	truncate -s 48M "$img/cut.raw"
	printf 'LAST OF sda5' | dd of="$img/cut.raw" bs=512 seek=$((98304 - 1)) conv=notrunc
	printf '<<EOD5>>' | dd of="$img/cut.raw" bs=1 seek=$((98304 * 512 - 8)) conv=notrunc
} >"$img/make.log" 2>&1 || { notok "partitions/images" "image build failed (see $img/make.log)"; exit 0; }

names=(mbr gpt hybrid gpt4k)
boot partitions --timeout 60 --mem 256M --cmdline 'run="part ram0; part ram1; part ram2; part ram3"' \
	--module "$img/mbr.raw" --module "$img/gpt.raw" --module "$img/hybrid.raw" \
	--module "$img/gpt4k.raw bs=4096"
expect_rc "partitions/verdict" 0

for i in "${!names[@]}"; do
	n=${names[$i]}
	why=$(python3 - "$out" "$i" "$img/$n.dump" <<'PY'
import re, sys
out, idx, dump = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
m = re.search(r"^ram%s: scheme (\w+).*?\n(.*?)(?=^\w+: scheme |^run: |\Z)" % idx, out, re.M | re.S)
if not m:
    print("no 'part ram%s' output" % idx); sys.exit()
head = dict(l.split(": ", 1) for l in open(dump).read().splitlines() if ": " in l and " : " not in l)
scale = int(head.get("sector-size", "512")) // 512
got = {}
for l in m.group(2).splitlines():
    f = re.match(r'^ *(\d+) +(\d+) +(\d+) +(\d+) +(\S+) \(.*?\)(?: [^"\s]\S*)?(?: "(.*)")?$', l)
    if f:
        got[int(f.group(1))] = (int(f.group(2)), int(f.group(3)), int(f.group(4)),
                                f.group(5).upper(), f.group(6) or "")
want = {}
for l in open(dump):
    f = re.match(r'^\S*?(\d+) : start=\s*(\d+), size=\s*(\d+), type=(\w[\w-]*)(?:.*name="([^"]*)")?', l)
    if f:
        s, z = int(f.group(2)) * scale, int(f.group(3)) * scale
        t = f.group(4).upper()
        if len(t) <= 2:
            t = "%02X" % int(t, 16)
        name = re.sub(r"\\x([0-9a-fA-F]{2})", lambda x: chr(int(x.group(1), 16)), f.group(5) or "")
        want[int(f.group(1))] = (s, s + z - 1, z, t, name.encode("latin-1").decode("utf-8"))
if m.group(1) != head.get("label"):
    print("scheme %s, sfdisk %s" % (m.group(1), head.get("label")))
elif got != want:
    diff = sorted(set(got.items()) ^ set(want.items()))
    print("kernel and sfdisk differ: %s" % diff[:2])
PY
)
	if [ -z "$why" ]; then ok "partitions/$n"; else notok "partitions/$n" "$why"; fi
done

# sda5 starts at 36864 on a disk of 98304 sectors: 61440 are left of it.
boot partitions-cut --machine q35 --timeout 60 --disk "$img/cut.raw" \
	--cmdline 'run="lsblk; hexdump sda5 31456768 16; hexdump sda5 31457272 16; mount sda5 /mnt"'
expect_rc "partitions/cut/mount-fails" 1
expect_out "partitions/cut/p5-warned" \
	'\] sda: partition 5 \(blocks 36864\+94208\) runs past the end of the disk, truncated to 61440 blocks$'
expect_out "partitions/cut/p2-warned" '\] sda: partition 2 .* truncated to 63488 blocks$'
expect_out "partitions/cut/p1-whole" '^sda1 +8:1 +16M +32768 +1 part'
expect_out "partitions/cut/p5-size" "^sda5 +8:5 +30M +$((98304 - 36864)) +1 part"
expect_out "partitions/cut/last-sector" '^01dffe00  4c 41 53 54 20 4f 46 20  73 64 61 35 00 00 00 00  \|LAST OF sda5'
if grep -A1 '^01dffff8 ' "$out" | tr '\n' ' ' |
   grep -qE '^01dffff8  3c 3c 45 4f 44 35 3e 3e +\|<<EOD5>>\| 01e00000 $'; then
	ok "partitions/cut/reads-stop-at-the-end"
else
	notok "partitions/cut/reads-stop-at-the-end" "no 8-byte read up to 0x01e00000 in $out"
fi
expect_out "partitions/cut/ext2-refused" \
	'\] ext2 \(sda5\): the filesystem \(48234496 bytes\) is larger than the device \(31457280 bytes\)$'
expect_out "partitions/cut/mount-said" '^mount: sda5: not mounted'
