#!/usr/bin/env bash
# The block layer in the running kernel: its self-tests on the memory
# disks (LBA-stamped stress under each elevator, plugging off, tiny
# limits, bounce; trace-based merge/order/flush checks), the bounce path
# at 8 GiB with pages above 4 GiB, and the shell's bench, iostat,
# blktrace and elevator commands.
. "$(dirname "$0")/lib.bash"

boot block-selftest --mem 512M --timeout 240 --cmdline 'selftest=block/*'
relay_tap
expect_rc "block/selftest-verdict" 0

boot block-bounce-8g --mem 8G --timeout 120 --cmdline 'selftest=block/stress/bounce_4g'
relay_tap
expect_rc "block/bounce-8g-verdict" 0

# Printing the ring while tracing is off shows it empty with a note; it
# is not an error (the run's verdict stays 0).
boot block-trace-off --mem 128M --timeout 60 --cmdline 'run="blktrace nullb0; blktrace nullb0 on; blktrace nullb0 off; blktrace nullb0"'
expect_rc "block/blktrace-off-rc" 0
expect_out "block/blktrace-off-note" '^(\[[ 0-9.]+\] )?blktrace: nullb0: tracing is off'

boot block-shell --mem 512M --timeout 120 --cmdline 'ram.count=1 ram.bounce=16M writable=ram0 run="blktrace ram0 on; bench ram0 verify:mib=8:bs=1M; blktrace ram0; bench ram0 randwrite:qd=32:bs=4K:span=1:ios=4000; bench nullb0 randread:qd=1:bs=4K:ios=20000 randread:qd=32:bs=4K:ios=20000; iostat; elevator ram0 noop"'
expect_rc "block/shell-run" 0
expect_out "block/bench-verify-pass" '^(\[[ 0-9.]+\] )?BENCH verify bs=1M MiB=8 seed=1 sectors=16384 bad=0 .*result=PASS'
expect_out "block/bench-nullb-qd1" 'BENCH randread qd=1 bs=4K span_MiB=1024 ios=20000 '
expect_out "block/bench-nullb-qd32" 'BENCH randread qd=32 bs=4K span_MiB=1024 ios=20000 .*engine=blk-async$'
expect_out "block/elevator-switch" 'ram0: deadline kyber \[noop\]'
expect_out "block/blktrace-split" ' X +W [0-9]+ \+ [0-9]+ \[[0-9]+\]$'
expect_out "block/blktrace-bounce" ' B +W '
# iostat columns: name rd_ios rd_merges rd_sectors rd_ms wr_ios wr_merges
# wr_sectors wr_ms in_flight busy_ms splits bounces requeues timeouts
# errors flushes tags
stat() { sed -E 's/^\[[ 0-9.]+\] //' "$out" | awk -v d="$1" -v c="$2" '$1 == d { print $c }' | tail -1; }
check_gt0() {
	local v
	v=$(stat "$2" "$3")
	if [ -n "$v" ] && [ "$v" -gt 0 ]; then ok "$1"; else notok "$1" "iostat $2 column $3 is '${v}'"; fi
}
check_gt0 "block/iostat-ram0-merges" ram0 7
check_gt0 "block/iostat-ram0-splits" ram0 12
check_gt0 "block/iostat-ram0-bounces" ram0 13
check_gt0 "block/iostat-nullb0-tags" nullb0 18
v=$(stat ram0 10)
if [ "$v" = 0 ]; then ok "block/iostat-ram0-idle"; else notok "block/iostat-ram0-idle" "in_flight '$v'"; fi
