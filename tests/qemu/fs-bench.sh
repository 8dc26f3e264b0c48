#!/usr/bin/env bash
# fsbench's file lines: the write with its sync, then the read after a
# fresh mount (cache=cold) checked against what was written
# (verify=PASS), on AHCI with 4 KiB blocks and IDE with 1 KiB blocks; the
# filesystem is mounted again read-write afterwards, holds no leftover,
# and the host's e2fsck finds it clean.  With another filesystem mounted
# inside it, it cannot be unmounted: the read says cache=warm instead.
. "$(dirname "$0")/lib.bash"

# check_img NAME IMAGE: e2fsck clean, and fsbench left nothing behind.
check_img() {
	local f=$logdir/${1//\//-}.e2fsck
	if e2fsck -fn "$2" >"$f" 2>&1; then ok "$1/e2fsck-clean"; else
		notok "$1/e2fsck-clean" "$(tail -3 "$f" | tr '\n' ' ')"; fi
	if debugfs -R 'ls -l /' "$2" 2>/dev/null | grep -q fsbench; then
		notok "$1/cleaned-up" "fsbench.dat or fsbench.d left in /"
	else
		ok "$1/cleaned-up"
	fi
}

img=$logdir/fs-bench-ahci.img
rm -f "$img"
truncate -s 96M "$img"
mkfs.ext2 -F -q -b 4096 "$img"
boot fs-bench-ahci --machine q35 --timeout 300 --disk "$img,bus=ahci" \
	--cmdline 'writable=sda run="fsbench /sda 24; mount; write /sda/after.txt still-writable"'
expect_rc "fs-bench/ahci/run" 0
expect_out "fs-bench/ahci/fswrite" '^BENCH fswrite bs=1M MiB=24 secs=[0-9.]+ MiBps=[0-9.]+$'
expect_out "fs-bench/ahci/fsread-cold-verified" \
	'^BENCH fsread bs=1M MiB=24 secs=[0-9.]+ MiBps=[0-9.]+ cache=cold verify=PASS$'
expect_out "fs-bench/ahci/fscreate" '^BENCH fscreate files=1000 '
expect_out "fs-bench/ahci/mounted-again-rw" '^sda on /sda type ext2 \(rw\)$'
check_img fs-bench/ahci "$img"
[ "$(debugfs -R 'cat /after.txt' "$img" 2>/dev/null)" = still-writable ] &&
	ok "fs-bench/ahci/writable-after" || notok "fs-bench/ahci/writable-after" "after.txt"

# IDE, 1 KiB blocks (a 1 MiB call spans many indirect blocks); first with
# the second disk mounted inside the first (busy: warm), then without.
img=$logdir/fs-bench-ide.img
img2=$logdir/fs-bench-ide2.img
rm -f "$img" "$img2"
truncate -s 64M "$img"
truncate -s 8M "$img2"
mkfs.ext2 -F -q -b 1024 "$img"
mkfs.ext2 -F -q -b 1024 "$img2"
boot fs-bench-ide --machine pc --timeout 300 --disk "$img,bus=ide" --disk "$img2,bus=ide" \
	--cmdline 'writable=hda run="mkdir /hda/sub; umount /hdb; mount hdb /hda/sub ro; fsbench /hda 8; umount /hda/sub; fsbench /hda 12"'
expect_rc "fs-bench/ide/run" 0
expect_out "fs-bench/ide/busy-reads-warm" \
	'^BENCH fsread bs=1M MiB=8 secs=[0-9.]+ MiBps=[0-9.]+ cache=warm verify=PASS$'
expect_out "fs-bench/ide/fsread-cold-verified" \
	'^BENCH fsread bs=1M MiB=12 secs=[0-9.]+ MiBps=[0-9.]+ cache=cold verify=PASS$'
expect_no_out "fs-bench/ide/no-errors" '^fsbench: |error'
check_img fs-bench/ide "$img"
