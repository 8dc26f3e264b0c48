#!/usr/bin/env bash
# Block devices from the shell: a partitioned image given as a boot module
# becomes a RAM disk whose partitions match the host's sfdisk view; dd and
# hexdump move and show its bytes; writable= keeps other disks read-only.
. "$(dirname "$0")/lib.bash"

img=$logdir/blockdev-mod.img
rm -f "$img"
truncate -s 8M "$img"
printf 'label: dos\nlabel-id: 0x12345678\nstart=2048, size=4096, type=83\nstart=6144, size=8192, type=c\n' |
	sfdisk -q "$img"
printf 'HELLO-FROM-PARTITION-ONE' | dd of="$img" bs=512 seek=2048 conv=notrunc status=none

boot blockdev --timeout 60 --module "$img" --cmdline \
	'ram.count=1 writable=ram0 run="lsblk; hexdump ram1 0x1fe 2; hexdump ram1p1 0 24; dd if=ram1p1 of=ram0 bs=1K count=4; hexdump ram0 0 24; dd if=ram0 of=ram1 count=1"'
# The last dd must fail (ram1 is not writable), so the run fails.
expect_rc "blockdev/run-fails-on-readonly-write" 1
# lsblk against the host's own view of the partitions.
while read -r name start size; do
	n=${name##*img}
	expect_out "blockdev/lsblk-ram1p$n-matches-sfdisk" "^ram1p$n +[0-9]+:[0-9]+ +[^ ]+ +$size +1 part"
done < <(sfdisk -q --dump "$img" | sed -n 's/^\([^ ]*\) : start= *\([0-9]*\), size= *\([0-9]*\).*/\1 \2 \3/p')
expect_out "blockdev/hexdump-signature" '^000001fe  55 aa'
expect_out "blockdev/hexdump-partition" '^00000000  48 45 4c 4c 4f 2d 46 52  4f 4d 2d 50 41 52 54 49  \|HELLO-FROM-PARTI\|'
expect_out "blockdev/dd-copied" '^4096 bytes copied'
expect_out "blockdev/dd-landed" '^00000000  48 45 4c 4c 4f .*\|HELLO-FROM-PARTI\|'
expect_out "blockdev/readonly-refused" '^dd: ram1: read-only file system'

boot blockdev-nodev --timeout 60 --cmdline 'run="hexdump nosuchdisk"'
expect_rc "blockdev/missing-device-fails" 1
expect_out "blockdev/missing-device-said" '^hexdump: nosuchdisk: no such device'

# An offset past the end is an error, not an empty dump (nullb0 is 1 GiB).
boot blockdev-past-end --timeout 60 --cmdline 'run="hexdump nullb0 0x40000000 16"'
expect_rc "blockdev/past-end-fails" 1
expect_out "blockdev/past-end-said" '^hexdump: nullb0: offset 1073741824 is at or past the end$'

# The sector pattern: written on the host by tools/lbapattern, checked by
# the kernel's bench check workload (the same bytes as the Linux peer's).
pat=$logdir/blockdev-pattern.img
rm -f "$pat"
truncate -s 4M "$pat"
tools/lbapattern write "$pat" --seed 42 --lba 0 --sectors 8192 >/dev/null
boot pattern --timeout 60 --module "$pat" --cmdline 'run="bench ram0 check:mib=4:seed=42; bench ram0 check:mib=4:seed=43"'
expect_out "blockdev/host-pattern-checks" 'BENCH check bs=1M MiB=4 seed=42 sectors=8192 bad=0 .*result=PASS'
expect_out "blockdev/wrong-seed-fails" 'BENCH check .* seed=43 sectors=8192 bad=8192 first_bad_lba=0 got_lba=0 got_seed=42 .*result=FAIL'
expect_rc "blockdev/failed-check-fails-the-command" 1

boot iostat --timeout 60 --cmdline 'ram.count=1 writable=all run="bench ram0 verify:mib=4; iostat ram0; iostat -x ram0 1 2; iostat nosuch"'
expect_out "iostat/raw-counters" '^ram0 +[1-9][0-9]* 0 8[0-9]{3} '
expect_out "iostat/extended-header" '^device +r/s +w/s +rkB/s +wkB/s +rrqm/s +wrqm/s +r_await +w_await +%util$'
expect_out "iostat/extended-rates" '^ram0 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[1-9][0-9]*\.[0-9] '
expect_out "iostat/unknown-device" 'nosuch'
expect_rc "iostat/unknown-device-fails" 1

# diskinfo: the block layer's view of a disk and its driver's report, on
# an AHCI and an IDE disk of the pc machine, a partition and a memory disk.
info=$logdir/blockdev-info.img
rm -f "$info"
truncate -s 64M "$info"
printf 'label: dos\nstart=2048, size=8192, type=83\n' | sfdisk -q "$info"
cp "$info" "$info.ide"
boot blockdev-diskinfo --machine pc --timeout 60 --disk "$info,bus=ahci" --disk "$info.ide" \
	--cmdline 'run="diskinfo sda; diskinfo sda1; diskinfo hda; diskinfo nullb0"'
expect_rc "blockdev/diskinfo-run" 0
expect_out "blockdev/diskinfo-size" '^size 64M sectors 131072$'
expect_out "blockdev/diskinfo-part" '^disk sda partition 1 start 2048$'
expect_out "blockdev/diskinfo-geometry" '^geometry [0-9]+/[0-9]+/[0-9]+ \(C/H/S\)$'
expect_out "blockdev/diskinfo-ahci-port" '^controller ahci0 port 0$'
expect_out "blockdev/diskinfo-ahci-queue" '^queue ncq depth 32$'
expect_out "blockdev/diskinfo-ide-channel" '^channel ide0 \(primary\)$'
expect_out "blockdev/diskinfo-ide-transfer" '^transfer dma$'
expect_out "blockdev/diskinfo-memory" '^driver report: none \(memory disk\)$'
