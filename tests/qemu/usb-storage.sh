#!/usr/bin/env bash
# USB sticks (qemu-xhci + usb-storage on q35, Bulk-Only Transport) as sd
# disks, each checked against a host tool:
#  - an MBR stick (sfdisk) and a GPT stick (sgdisk) side by side: "part
#    sdX" matches sfdisk's dump for every partition, the names run on from
#    the SATA disk (sda on AHCI, the sticks sdb and sdc), and lsblk shows
#    the vendor and model from INQUIRY;
#  - files on an ext2 partition of the MBR stick (mke2fs -d on the host):
#    the kernel's sha256sum of each matches the host's;
#  - the LBA-stamped stress on a writable stick, checked from the host;
#    the other stick, not named in writable=, refuses writes;
#  - a 3 TiB sparse stick: READ CAPACITY (16), the last MiB written
#    through READ/WRITE (16) and checked from the host;
#  - the ISO booted as a USB stick: the kernel lists the stick it booted
#    from, found through its USB transport.
. "$(dirname "$0")/lib.bash"

img=$logdir/usb-storage
rm -rf "$img" && mkdir -p "$img"
{
	truncate -s 64M "$img/mbr.raw"
	printf 'label: dos\nlabel-id: 0x5ca1ab1e\n\nstart=2048, size=24MiB, type=83\n'`
		`'type=5\nsize=8MiB, type=83\nsize=4MiB, type=c\n' | sfdisk -q "$img/mbr.raw"
	sfdisk --dump "$img/mbr.raw" >"$img/mbr.dump"
	mkdir -p "$img/files/sub"
	head -c 1000000 /dev/urandom >"$img/files/big"
	head -c 4097 /dev/urandom >"$img/files/odd"
	echo "hello from the host" >"$img/files/sub/note"
	(cd "$img/files" && sha256sum big odd sub/note) >"$img/files.sums"
	PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext2 -b 1024 -d "$img/files" \
		-E offset=$((2048 * 512)) "$img/mbr.raw" 24M

	truncate -s 48M "$img/gpt.raw"
	args=(-o -U 5ca1ab1e-2222-3333-4444-555555555555)
	for i in 1 2 3 4 5; do
		args+=(-n "$i:0:+4M" -t "$i:8300" -c "$i:stick $i")
	done
	sgdisk "${args[@]}" -t 2:ef00 "$img/gpt.raw" >/dev/null
	sfdisk --dump "$img/gpt.raw" >"$img/gpt.dump"

	truncate -s 64M "$img/sata.raw"
	truncate -s 3T "$img/3t.raw"
} >"$img/make.log" 2>&1 || { notok "usb-storage/images" "image build failed (see $img/make.log)"; exit 0; }

# part_match NAME DISK DUMP: "part DISK" in the last boot equals sfdisk's dump.
part_match() {
	local why
	why=$(python3 - "$out" "$2" "$3" <<'PY'
import re, sys
out, disk, dump = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
m = re.search(r"^%s: scheme (\w+).*?\n(.*?)(?=^\w+: scheme |^run: |\Z)" % disk, out, re.M | re.S)
if not m:
    print("no 'part %s' output" % disk); sys.exit()
head = dict(l.split(": ", 1) for l in open(dump).read().splitlines() if ": " in l and " : " not in l)
got, want = {}, {}
for l in m.group(2).splitlines():
    f = re.match(r'^ *(\d+) +(\d+) +(\d+) +(\d+) +(\S+) \(.*?\)(?: [^"\s]\S*)?(?: "(.*)")?$', l)
    if f:
        got[int(f.group(1))] = (int(f.group(2)), int(f.group(3)), int(f.group(4)),
                                f.group(5).upper(), f.group(6) or "")
for l in open(dump):
    f = re.match(r'^\S*?(\d+) : start=\s*(\d+), size=\s*(\d+), type=(\w[\w-]*)(?:.*name="([^"]*)")?', l)
    if f:
        s, z = int(f.group(2)), int(f.group(3))
        t = f.group(4).upper()
        if len(t) <= 2:
            t = "%02X" % int(t, 16)
        want[int(f.group(1))] = (s, s + z - 1, z, t, f.group(5) or "")
if m.group(1) != head.get("label"):
    print("scheme %s, sfdisk %s" % (m.group(1), head.get("label")))
elif got != want:
    print("kernel and sfdisk differ: %s" % sorted(set(got.items()) ^ set(want.items()))[:2])
PY
)
	if [ -z "$why" ]; then ok "$1"; else notok "$1" "$why"; fi
}

# One SATA disk, then the two sticks: sda, sdb, sdc.
# The kernel mounts sdb1 at /sdb1 itself, read-only.
cmds="lsblk; part sdb; part sdc"
for f in big odd sub/note; do cmds="$cmds; sha256sum /sdb1/$f"; done
cmds="$cmds; stress sdc span=8 seed=21; diskinfo sdc; dd if=sdc of=sdb count=1"
boot usb-storage --machine q35 --timeout 240 --disk "$img/sata.raw,bus=ahci" \
	--disk "$img/mbr.raw,bus=usb" --disk "$img/gpt.raw,bus=usb" \
	--cmdline "writable=sdc run=\"$cmds\""
expect_rc "usb-storage/run" 1	# the write to the read-only stick fails the run
expect_out "usb-storage/sata-first" '^sda +8:0 +64M .* disk'
expect_out "usb-storage/mbr-stick-sdb" '^sdb +8:16 +64M +131072 +1 disk QEMU QEMU HARDDISK$'
expect_out "usb-storage/gpt-stick-sdc" '^sdc +8:32 +48M +98304 +0 disk QEMU QEMU HARDDISK$'
part_match "usb-storage/mbr-partitions" sdb "$img/mbr.dump"
part_match "usb-storage/gpt-partitions" sdc "$img/gpt.dump"
grep -E '^[0-9a-f]{64}  /sdb1/' "$out" | sed 's|  /sdb1/|  |' >"$img/kernel.sums"
if cmp -s "$img/kernel.sums" "$img/files.sums"; then ok "usb-storage/ext2-files-sha256"; else
	notok "usb-storage/ext2-files-sha256" "kernel's sums differ from the host's (see $img/kernel.sums)"; fi
expect_out "usb-storage/stress-pass" 'STRESS sdc .*result=PASS$'
lba_check "usb-storage/stress-host-verify" "$img/gpt.raw" 21 0 $((8 * 2048))
expect_out "usb-storage/readonly-stick-refuses" "^dd: sdb: read-only file system"
expect_out "usb-storage/diskinfo-transport" '^transport usb-storage bulk-only$'
expect_no_out "usb-storage/no-resets" 'reset recovery'

# 3 TiB: READ CAPACITY (10) says "too big", (16) the size; the last MiB by (16) CDBs.
last_mib=$(( (3 << 20) - 1 ))
boot usb-storage-3t --machine q35 --timeout 180 --disk "$img/3t.raw,bus=usb" \
	--cmdline "writable=all run=\"lsblk sda; diskinfo sda; stress sda span=1 off=$last_mib seed=33\""
expect_rc "usb-storage/3t/run" 0
expect_out "usb-storage/3t/capacity" '^sda +8:0 +3T +6442450944 +0 disk'
expect_out "usb-storage/3t/cdb16" '^block 512 bytes, 6442450944 blocks, cdb 16$'
expect_out "usb-storage/3t/stress" 'STRESS sda .*result=PASS$'
lba_check "usb-storage/3t/host-verify-last-mib" "$img/3t.raw" 33 $((last_mib * 2048)) 2048
rm -f "$img/3t.raw"

# The ISO as a stick (run-qemu makes it with GRUB, this command line in its menu).
boot usb-storage-iso --usb --iso --machine q35 --timeout 180 --cmdline 'run="lsblk; diskinfo sda"'
expect_rc "usb-storage/iso/run" 0
expect_out "usb-storage/iso/boot-stick-listed" '^sda +8:0 +[0-9.]+[KMG] +[0-9]+ +[01] disk QEMU QEMU HARDDISK$'
expect_out "usb-storage/iso/via-usb" '^transport usb-storage bulk-only$'
