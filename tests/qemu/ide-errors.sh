#!/usr/bin/env bash
# Device errors through QEMU's blkdebug: a read of sector 1000 and a write
# of sector 3000 always fail (the device reports ERR/ABRT).  Each failing
# request ends with -EIO, the driver names the sector from the taskfile,
# the neighbouring sectors still read and write, and afterwards a stamped
# stress elsewhere on the disk passes, in the guest and from the host: the
# channel carries on.  With DMA and with ide.nodma.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-errors
rm -rf "$img" && mkdir -p "$img"
printf '[inject-error]\nevent = "read_aio"\niotype = "read"\nerrno = "5"\nsector = "1000"\nonce = "off"\n\n'`
	`'[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\nsector = "3000"\nonce = "off"\n' \
	>"$img/errors.cfg"

cmds="hexdump hda 511488 16; hexdump hda 512000 16; hexdump hda 512512 16"
cmds+="; dd if=hda of=hda bs=512 count=1 skip=10 seek=3000; dd if=hda of=hda bs=512 count=1 skip=10 seek=3001"
cmds+="; stress hda off=8192s span=4096s ios=300 seed=4; iostat hda; ide"

for mode in dma pio; do
	opts="" rd="READ DMA" wr="WRITE DMA"
	[ $mode = pio ] && opts="ide.nodma" rd="READ SECTORS" wr="WRITE SECTORS"
	truncate -s 16M "$img/$mode.raw"
	boot ide-errors-$mode --timeout 120 --cmdline "writable=hda $opts run=\"$cmds\"" -- \
		-drive "if=none,id=bd0,file=blkdebug:$img/errors.cfg:$img/$mode.raw,format=raw,werror=report,rerror=report" \
		-device ide-hd,drive=bd0,bus=ide.0,unit=0
	expect_rc "ide/errors/$mode/run-reports-failure" 1
	expect_out "ide/errors/$mode/read-names-sector" "hda: $rd(| EXT) failed at sector 1000 .*status 0x[0-9a-f]+ <.*ERR> error 0x04 <ABRT>"
	expect_out "ide/errors/$mode/read-eio" '^hexdump: hda: I/O error'
	expect_out "ide/errors/$mode/read-before" '^0007ce00 '
	expect_out "ide/errors/$mode/read-after" '^0007d200 '
	expect_out "ide/errors/$mode/write-names-sector" "hda: $wr(| EXT) failed at sector 3000 "
	expect_out "ide/errors/$mode/write-eio" '^dd: writing hda: I/O error'
	expect_out "ide/errors/$mode/write-after" '^1\+0 records out'
	expect_out "ide/errors/$mode/disk-still-works" 'STRESS hda .*seed=4 .*bad=0 .*result=PASS$'
	expect_no_out "ide/errors/$mode/no-reset" 'resetting the channel|timed out'
	expect_out "ide/errors/$mode/counted" '^    hda: ATA "QEMU HARDDISK" 32768 sectors .* errors 2 timeouts 0$'
	expect_out "ide/errors/$mode/channel-idle" '^  ide0: legacy .* state idle .* resets 0$'
	lba_check "ide/errors/$mode/host-check" "$img/$mode.raw" 4 8192 4096
done
