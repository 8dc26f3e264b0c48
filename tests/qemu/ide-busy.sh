#!/usr/bin/env bash
# A drive that is busy, or wants data, when the driver has a command for
# it (drivers/ide/ide_selftest.c makes it so behind the driver's back).
# The busy drive is waited for: no channel reset, and the write and its
# read-back complete with the right data; DRQ before a command still
# resets the channel, and the I/O completes after it.  The disk's writes
# are throttled (past QEMU's burst, one every 200 ms), so the drive stays
# BSY that long on the injected write.  Everything is checked from the
# host as well: the stamped sectors, the injected one among them, and the
# sector whose data never came still zero.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-busy
seed=0x1de0b5		# IDE_ST_SEED
rm -rf "$img" && mkdir -p "$img"
truncate -s 16M "$img/disk.raw"

boot ide-busy --timeout 60 --disk "$img/disk.raw,throttling.iops-write=5" \
	--cmdline 'writable=hda selftest=ide/*'
relay_tap
expect_rc "ide/busy/verdict" 0
expect_out "ide/busy/both-ran" '^selftest: 2 passed, 0 failed'
expect_out "ide/busy/drq-resets" 'hda: DRQ set before a command \(status 0x58\): resetting the channel$'
n=$(grep -c 'resetting the channel' "$out")
if [ "$n" = 1 ]; then
	ok "ide/busy/no-reset-for-busy"
else
	notok "ide/busy/no-reset-for-busy" "$n channel resets, wanted only the DRQ one (see $out)"
fi
lba_check "ide/busy/host-check" "$img/disk.raw" $seed 1000 13
lba_check "ide/busy/drq-host-check" "$img/disk.raw" $seed 2001 8 --zero 2000:1
