#!/usr/bin/env bash
# Data integrity on a real IDE disk: the LBA-stamped random stress
# (stress: random sizes, offsets, memory zones and misalignments, then
# a stamped sweep, a cache flush and a full read-back) with bus-master DMA
# and again with ide.nodma (PIO through kmap_atomic).  After each run the
# host reads the image: every stamped sector must hold its own LBA and the
# run's seed, and the sectors around the range must still be zero.  The
# bench command's peer workloads run on the same disk.  Master and slave
# are stressed together too.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-integrity
rm -rf "$img" && mkdir -p "$img"

# run NAME MODE-OPTIONS SEED: stress [2048, 2048+40960) on a fresh 64 MiB image.
run() {
	local name=$1 opts=$2 seed=$3 why
	truncate -s 64M "$img/$name.raw"
	boot ide-integrity-$name --timeout 240 --disk "$img/$name.raw" \
		--cmdline "writable=hda $opts run=\"stress hda off=2048s span=40960s ios=1500 seed=$seed; iostat hda\""
	expect_rc "ide/integrity/$name/run" 0
	expect_out "ide/integrity/$name/pass" "STRESS hda .* seed=$seed .*bad=0 .*result=PASS$"
	expect_no_out "ide/integrity/$name/no-errors" 'hda: .*(failed|timed out|refusing)'
	expect_out "ide/integrity/$name/flushed-at-exit" 'hda: write cache flushed'
	lba_check "ide/integrity/$name/host-check" "$img/$name.raw" "$seed" 2048 40960 --zero 0:2048 --zero 43008:2048
}

run dma "" 7
expect_out "ide/integrity/dma/mode" 'hda: QEMU HARDDISK, .*UDMA/[0-9]'
run pio "ide.nodma" 11
expect_out "ide/integrity/pio/mode" 'hda: QEMU HARDDISK, .*, PIO'

# Master and slave of one channel at once: every round keeps bios in
# flight on both, so the channel serialises them under its lock.
truncate -s 64M "$img/master.raw"
truncate -s 48M "$img/slave.raw"
boot ide-integrity-pair --timeout 240 --disk "$img/master.raw" --disk "$img/slave.raw" \
	--cmdline 'writable=hda,hdb run="stress hda,hdb span=32768s ios=1500 seed=21; iostat"'
expect_rc "ide/integrity/pair/run" 0
for d in hda hdb; do
	expect_out "ide/integrity/pair/$d-pass" "STRESS $d .*seed=21 .*bad=0 .*result=PASS$"
done
for f in master slave; do
	lba_check "ide/integrity/pair/$f-host-check" "$img/$f.raw" 21 0 32768 --zero 32768:2048
done

# The peer's workloads: a verify pass and the throughput lines; then 32
# PREFLUSH|FUA writes kept in flight, which share their cache flushes (one
# at a time they would cost two each: IDE has no FUA, so it is emulated).
truncate -s 128M "$img/bench.raw"
boot ide-integrity-bench --timeout 240 --disk "$img/bench.raw" \
	--cmdline 'writable=hda run="bench hda verify:mib=16:off=64 seqwrite:mib=32:bs=1M seqread:mib=32:bs=1M randread:qd=1:bs=4K:secs=1 randread:qd=32:bs=4K:secs=1 flush:qd=32:bs=4K:span=16:ios=2000"'
expect_rc "ide/bench/run" 0
expect_out "ide/bench/verify" 'BENCH verify .*bad=0 .*result=PASS'
for w in seqwrite:bs=1M seqread:bs=1M randread:qd=1 randread:qd=32; do
	expect_out "ide/bench/$w" "BENCH ${w%%:*} ${w#*:} .*(MiBps|iops)="
done
expect_out "ide/bench/flush-shared" 'BENCH flush qd=32 bs=4K span_MiB=16 ios=2000 .* flushes=[0-9]+ flushes_per_io=0\.[0-9]+ engine=blk-async$'
# verify wrote 16 MiB at 64 MiB with seed 1; the other workloads stayed below.
lba_check "ide/bench/verify-host-check" "$img/bench.raw" 1 131072 32768
