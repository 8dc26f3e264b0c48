#!/usr/bin/env bash
# Request timeouts: a disk whose every read takes 2 s (QEMU null-co with
# latency) behind ahci.timeout_ms=500.  Each read times out, the port is
# reset and the read retried, three times, then it fails with -EIO; the
# boot goes on, and a healthy disk on the same controller keeps working.
. "$(dirname "$0")/ahci-lib.bash"

img=$imgdir/ok.raw
truncate -s 64M "$img"
boot ahci-timeout --machine q35 --timeout 120 --disk "$img" \
	--cmdline 'writable=all ahci.timeout_ms=500 run="stress sda span=4 seed=2; hexdump sdb 0 16"' -- \
	-blockdev driver=null-co,node-name=slow,size=67108864,latency-ns=2000000000,read-zeroes=on \
	-device ide-hd,drive=slow,bus=ide.1
expect_rc "ahci-timeout/hexdump-fails" 1
expect_out "ahci-timeout/timeout-reported" 'ahci0\.1: command in slot [0-9]+ timed out \(sector 0\)'
n=$(grep -c 'ahci0\.1: command in slot [0-9]* timed out (sector 0)' "$out")
# Two reads of sector 0 (partition scan, hexdump), 1 + 3 retries each.
if [ "$n" = 8 ]; then ok "ahci-timeout/bounded-retries"; else notok "ahci-timeout/bounded-retries" "$n timeouts, wanted 8"; fi
expect_out "ahci-timeout/scan-gives-up" 'sdb: cannot read the partition table'
expect_out "ahci-timeout/eio-with-sector" 'sdb: read error -5 at sector 0 '
expect_out "ahci-timeout/hexdump-eio" '^hexdump: sdb: I/O error'
expect_out "ahci-timeout/other-disk-works" 'STRESS sd[a-z] .*result=PASS$'
stamp_check "ahci-timeout/other-disk-host-verify" "$img" 2 0 4
