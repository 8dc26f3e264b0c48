#!/usr/bin/env bash
# LBA48 on a sparse 200 GiB IDE disk: the capacity comes from IDENTIFY
# words 100-103, and stamped I/O across the 128 GiB LBA28 limit (2^28
# sectors) and near the end of the disk lands exactly there, as the host
# sees the image.  A command truncated to 28 bits would have written
# 2^28 sectors lower, into the zeros at the start of the disk.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-lba48
rm -rf "$img" && mkdir -p "$img"
truncate -s 200G "$img/big.raw"
lim=$((1 << 28))
a=$((lim - 2048)) b=$((200 * 2048 * 1024 - 3 * 4096))

boot ide-lba48 --timeout 240 --disk "$img/big.raw" --cmdline "writable=hda run=\"lsblk hda; stress hda off=${a}s span=8192s ios=600 seed=3; stress hda off=${b}s span=4096s ios=300 seed=5\""
expect_rc "ide/lba48/run" 0
expect_out "ide/lba48/capacity" 'hda: QEMU HARDDISK, 204800 MiB \(419430400 sectors\), LBA48'
expect_out "ide/lba48/lsblk" '^hda +3:0 +200G +419430400 '
expect_out "ide/lba48/across-limit" "STRESS hda .*off=$a .*seed=3 .*bad=0 .*result=PASS$"
expect_out "ide/lba48/near-end" "STRESS hda .*off=$b .*seed=5 .*bad=0 .*result=PASS$"
lba_check "ide/lba48/host-check-across-limit" "$img/big.raw" 3 $a 8192 \
	--zero $((a - 64)):64 --zero $((a + 8192)):64 --zero 0:8192
lba_check "ide/lba48/host-check-near-end" "$img/big.raw" 5 $b 4096 \
	--zero $((b - lim)):4096 --zero $((b + 4096)):64
rm -f "$img/big.raw"
