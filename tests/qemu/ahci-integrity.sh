#!/usr/bin/env bash
# AHCI data integrity at queue depth 32: stress stamps every sector of
# a region with shuffled, unmergeable requests of 1..128 sectors, 32 in
# flight, reads them back and checks them; then the HOST checks every
# stamped sector in the image.  Once with NCQ (the block trace must show
# several tags in flight), once with ahci.ncq=0 (READ/WRITE DMA EXT in
# several slots).  The disk's write cache is flushed at exit.  bench runs
# on the same driver.
. "$(dirname "$0")/ahci-lib.bash"

# max_in_flight: the most requests holding tags at once in the last boot's
# blktrace (T: tag given, C: completed).
max_in_flight() {
	awk '/ T +[RW]/ { n++; if (n > m) m = n } / C +[RW]/ && n > 0 { n-- } END { print m + 0 }' "$out"
}

img=$imgdir/ncq.raw
truncate -s 128M "$img"
boot ahci-integrity-ncq --machine q35 --timeout 120 --disk "$img" \
	--cmdline 'writable=all run="blktrace sda on; stress sda span=48 off=8 seed=11 qd=32; blktrace sda"'
expect_rc "ahci-integrity/ncq-run" 0
expect_out "ahci-integrity/ncq-in-use" 'ahci0\.0: sda: .* NCQ depth 32'
expect_out "ahci-integrity/ncq-guest-verify" '^STRESS sda .*result=PASS$'
expect_out "ahci-integrity/flushed-at-exit" '\] sda: write cache flushed$'
stamp_check "ahci-integrity/ncq-host-verify" "$img" 11 8 48
mt=$(out_value maxtags)
if [ "${mt:-0}" -gt 1 ]; then ok "ahci-integrity/ncq-tags-in-flight-$mt"; else notok "ahci-integrity/ncq-tags-in-flight" "maxtags=$mt"; fi
mf=$(max_in_flight)
if [ "$mf" -gt 1 ]; then ok "ahci-integrity/ncq-trace-shows-$mf-in-flight"; else notok "ahci-integrity/ncq-trace-in-flight" "max $mf"; fi
tags=$(awk '/ T +[RW]/ { print $NF }' "$out" | sort -u | wc -l)
if [ "$tags" -gt 1 ]; then ok "ahci-integrity/ncq-trace-$tags-distinct-tags"; else notok "ahci-integrity/ncq-trace-tags" "$tags"; fi

img=$imgdir/dma.raw
truncate -s 128M "$img"
boot ahci-integrity-dma --machine q35 --timeout 120 --disk "$img" \
	--cmdline 'writable=all ahci.ncq=0 run="stress sda span=48 off=8 seed=12 qd=32"'
expect_rc "ahci-integrity/noncq-run" 0
expect_out "ahci-integrity/noncq-in-use" 'ahci0\.0: sda: .* DMA depth 32'
expect_out "ahci-integrity/noncq-guest-verify" '^STRESS sda .*result=PASS$'
stamp_check "ahci-integrity/noncq-host-verify" "$img" 12 8 48

# bench: the peer's workloads and BENCH lines, on this driver; then 32
# PREFLUSH|FUA writes kept in flight, which share their cache flushes
# (one at a time they would cost one each, the FUA being native with NCQ).
img=$imgdir/bench.raw
truncate -s 64M "$img"
boot ahci-bench --machine q35 --timeout 120 --disk "$img" \
	--cmdline 'writable=all run="bench sda verify:mib=8 seqwrite:mib=16:bs=1M seqread:mib=16:bs=1M randread:qd=1:bs=4K:secs=1 randread:qd=32:bs=4K:secs=1 flush:qd=32:bs=4K:span=16:ios=2000"'
expect_rc "ahci-bench/run" 0
expect_out "ahci-bench/verify" '^(\[ *[0-9.]+\] )?BENCH verify .*result=PASS'
expect_out "ahci-bench/seqread" '^(\[ *[0-9.]+\] )?BENCH seqread bs=1M MiB=16 '
expect_out "ahci-bench/seqwrite" '^(\[ *[0-9.]+\] )?BENCH seqwrite bs=1M MiB=16 '
expect_out "ahci-bench/randread-qd32" '^(\[ *[0-9.]+\] )?BENCH randread qd=32 '
expect_out "ahci-bench/flush-shared" '^(\[ *[0-9.]+\] )?BENCH flush qd=32 bs=4K span_MiB=16 ios=2000 .* flushes=[0-9]+ flushes_per_io=0\.[0-9]+ engine=blk-async$'
expect_no_out "ahci-bench/no-error" 'BENCH error|ERROR'
