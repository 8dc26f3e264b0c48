#!/usr/bin/env bash
# tools/qemu-sample against a running guest: it stops the virtual CPU
# through QEMU's gdb stub, reads the program counter, lets the guest go on,
# and names the functions it found; the guest's run must not notice.
. "$(dirname "$0")/lib.bash"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
out=$logdir/qemu-sample.out
samples=$logdir/qemu-sample.samples
tools/run-qemu --timeout 120 --cmdline 'run="bench nullb0 randread:qd=32:bs=4K:secs=6"' \
	-- -gdb "tcp:127.0.0.1:$port" >"$out" 2>&1 &	# unbuffered: we watch it
qemu=$!
# The benchmark has started once it prints its info line (bounded wait).
for _ in $(seq 300); do
	grep -q '^BENCH info dev=nullb0' "$out" && break
	sleep 0.1
done
tools/qemu-sample "$port" 20 20 >"$samples" 2>&1
src=$?
wait "$qemu"
rc=$?

if [ $src -eq 0 ]; then ok "qemu-sample/ran"; else notok "qemu-sample/ran" "exit $src (see $samples)"; fi
if grep -q '^samples 20$' "$samples"; then ok "qemu-sample/count"; else notok "qemu-sample/count" "see $samples"; fi
# Every sample is named from the symbol table, and the block layer shows up.
if ! grep -qE '^ +[0-9.]+ +[0-9]+ +\?$' "$samples" &&
   grep -qE '^ +[0-9.]+ +[0-9]+ +(blk_|bio_|bench_|nullb_|submit_bio|elv_|__blk)' "$samples"; then
	ok "qemu-sample/functions"
else
	notok "qemu-sample/functions" "see $samples"
fi
expect_rc "qemu-sample/guest-unharmed" 0
expect_out "qemu-sample/bench-finished" '^BENCH randread qd=32 bs=4K .* engine=blk-async'
