#!/usr/bin/env bash
# Cross-kernel agreement on NVMe: sectors this kernel fills with the LBA pattern,
# Debian's Linux (the peer in ../shared/peer) checks, and the reverse, on
# the same NVMe namespace image; the host checks both fills as well.  Skipped,
# with a visible SKIP line, where the Linux kernel package cannot be had.
. "$(dirname "$0")/lib.bash"

peer=${PEER_DIR:-$top/../shared/peer}
if [ ! -x "$peer/run-linux.sh" ]; then
	echo "# SKIP nvme-peer/fill-check: no Linux peer at $peer"
	ok "nvme-peer/fill-check # SKIP no peer"
	exit 0
fi
if ! "$peer/setup.sh" >"$logdir/nvme-peer-setup.log" 2>&1; then
	echo "# SKIP nvme-peer/fill-check: the Linux kernel package could not be fetched (see $logdir/nvme-peer-setup.log)"
	ok "nvme-peer/fill-check # SKIP no Linux package"
	exit 0
fi

img=$logdir/nvme-peer.img
rm -f "$img"
truncate -s 256M "$img"

# This kernel fills 16 MiB at 32 MiB with seed 5; Linux checks it.
boot nvme-fill-ours --machine q35 --timeout 120 --disk "$img,bus=nvme" \
	--cmdline 'writable=nvme0n1 run="bench nvme0n1 fill:mib=16:off=32:seed=5"'
expect_rc "nvme-peer/ours-fills" 0
if tools/lbapattern check "$img" --seed 5 --lba $((32 * 2048)) --sectors $((16 * 2048)) >"$logdir/nvme-lba-ours.txt"; then
	ok "nvme-peer/host-checks-our-fill"
else
	notok "nvme-peer/host-checks-our-fill" "$(cat "$logdir/nvme-lba-ours.txt")"
fi
out=$logdir/nvme-linux-check.out
"$peer/run-linux.sh" --nvme --timeout=240 "$img" check:mib=16:off=32:seed=5 >"$out" 2>&1
rc=$?
expect_out "nvme-peer/linux-checks-our-fill" '^BENCH check .*seed=5 .*bad=0 .*result=PASS'

# Linux fills 16 MiB at 96 MiB with seed 6; this kernel checks it.
out=$logdir/nvme-linux-fill.out
"$peer/run-linux.sh" --nvme --timeout=240 "$img" fill:mib=16:off=96:seed=6 >"$out" 2>&1
rc=$?
expect_rc "nvme-peer/linux-fills" 0
if tools/lbapattern check "$img" --seed 6 --lba $((96 * 2048)) --sectors $((16 * 2048)) >"$logdir/nvme-lba-linux.txt"; then
	ok "nvme-peer/host-checks-linux-fill"
else
	notok "nvme-peer/host-checks-linux-fill" "$(cat "$logdir/nvme-lba-linux.txt")"
fi
boot nvme-check-ours --machine q35 --timeout 120 --disk "$img,bus=nvme" \
	--cmdline 'run="bench nvme0n1 check:mib=16:off=96:seed=6"'
expect_out "nvme-peer/ours-checks-linux-fill" '^BENCH check .*seed=6 .*bad=0 .*result=PASS'
