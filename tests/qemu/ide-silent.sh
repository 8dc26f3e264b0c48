#!/usr/bin/env bash
# Devices that do not answer in time never hang the boot.  A disk whose
# every read takes 3 s (QEMU's null-co driver with latency) under a 1 s
# command timeout: each read times out, the channel is soft-reset, the
# request is retried a bounded number of times and then fails with -EIO;
# boot goes on, and a disk on the other channel works meanwhile.  A slave
# without a master is found without waiting on the missing device.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-silent
rm -rf "$img" && mkdir -p "$img"
truncate -s 32M "$img/other.raw"

boot ide-silent --timeout 120 --disk "$img/other.raw" \
	--cmdline 'ide.timeout_ms=1000 writable=hda run="lsblk; stress hda span=8192s ios=300 seed=6; iostat hdc; ide; uptime"' -- \
	-blockdev driver=null-co,node-name=slow,size=67108864,latency-ns=3000000000,read-zeroes=on \
	-device ide-hd,drive=slow,bus=ide.1,unit=0
# run-qemu puts the image on ide.0 as hda; the slow disk is hdc.
expect_rc "ide/silent/boot-completes" 0
expect_out "ide/silent/timeout-reset" 'hdc: READ DMA timed out at sector 0\+1 .*try 1\): resetting the channel'
expect_out "ide/silent/bounded-retries" 'hdc: READ DMA timed out at sector 0\+1 .*try 3\): resetting the channel'
expect_no_out "ide/silent/no-fourth-try" 'try 4\)'
expect_out "ide/silent/request-fails-eio" 'hdc: cannot read the partition table: I/O error'
expect_out "ide/silent/disk-listed" '^hdc +22:0 +64M '
expect_out "ide/silent/other-channel-works" 'STRESS hda .*seed=6 .*bad=0 .*result=PASS$'
expect_out "ide/silent/reached-shell" '^run: done'
# Every read of the scan failed after three tries, each try a reset.
expect_out "ide/silent/counted" '^    hdc: ATA .* errors [1-9][0-9]* timeouts [1-9][0-9]*$'
expect_out "ide/silent/channel-back" '^  ide1: legacy .* state idle .* resets [1-9][0-9]*$'
expect_out "ide/silent/other-channel-clean" '^  ide0: legacy .* resets 0$'
lba_check "ide/silent/other-channel-host-check" "$img/other.raw" 6 0 8192

truncate -s 16M "$img/slave.raw"
boot ide-slave-only --timeout 60 --cmdline 'run="lsblk"' -- \
	-drive "if=none,id=s0,file=$img/slave.raw,format=raw" -device ide-hd,drive=s0,bus=ide.1,unit=1
expect_rc "ide/slave-only/boot" 0
expect_out "ide/slave-only/found" '^hdd +22:64 +16M '
expect_no_out "ide/slave-only/no-phantom-master" '^hdc '
