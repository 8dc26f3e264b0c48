#!/usr/bin/env bash
# Cross-kernel agreement: sectors this kernel fills with the LBA pattern,
# Debian's Linux (the peer in ../shared/peer) checks, and the reverse, on
# the same AHCI disk image; the host checks both fills as well.  Skipped,
# with a visible SKIP line, where the Linux kernel package cannot be had.
. "$(dirname "$0")/lib.bash"

peer=${PEER_DIR:-$top/../shared/peer}
if [ ! -x "$peer/run-linux.sh" ]; then
	echo "# SKIP peer/fill-check: no Linux peer at $peer"
	ok "peer/fill-check # SKIP no peer"
	exit 0
fi
if ! "$peer/setup.sh" >"$logdir/peer-setup.log" 2>&1; then
	echo "# SKIP peer/fill-check: the Linux kernel package could not be fetched (see $logdir/peer-setup.log)"
	ok "peer/fill-check # SKIP no Linux package"
	exit 0
fi

img=$logdir/peer-fillcheck.img
rm -f "$img"
truncate -s 256M "$img"

# This kernel fills 16 MiB at 32 MiB with seed 5; Linux checks it.
boot fill-ours --machine q35 --timeout 120 --disk "$img,bus=ahci" \
	--cmdline 'writable=sda run="bench sda fill:mib=16:off=32:seed=5"'
expect_rc "peer/ours-fills" 0
if tools/lbapattern check "$img" --seed 5 --lba $((32 * 2048)) --sectors $((16 * 2048)) >"$logdir/lba-ours.txt"; then
	ok "peer/host-checks-our-fill"
else
	notok "peer/host-checks-our-fill" "$(cat "$logdir/lba-ours.txt")"
fi
out=$logdir/linux-check.out
"$peer/run-linux.sh" --ahci --timeout=240 "$img" check:mib=16:off=32:seed=5 >"$out" 2>&1
rc=$?
expect_out "peer/linux-checks-our-fill" '^BENCH check .*seed=5 .*bad=0 .*result=PASS'

# Linux fills 16 MiB at 96 MiB with seed 6; this kernel checks it.
out=$logdir/linux-fill.out
"$peer/run-linux.sh" --ahci --timeout=240 "$img" fill:mib=16:off=96:seed=6 >"$out" 2>&1
rc=$?
expect_rc "peer/linux-fills" 0
if tools/lbapattern check "$img" --seed 6 --lba $((96 * 2048)) --sectors $((16 * 2048)) >"$logdir/lba-linux.txt"; then
	ok "peer/host-checks-linux-fill"
else
	notok "peer/host-checks-linux-fill" "$(cat "$logdir/lba-linux.txt")"
fi
boot check-ours --machine q35 --timeout 120 --disk "$img,bus=ahci" \
	--cmdline 'run="bench sda check:mib=16:off=96:seed=6"'
expect_out "peer/ours-checks-linux-fill" '^BENCH check .*seed=6 .*bad=0 .*result=PASS'
