#!/usr/bin/env bash
# Cross-kernel agreement on virtio-blk: sectors this kernel fills with the
# LBA pattern through its virtio driver, Debian's Linux (the peer in
# ../shared/peer, virtio_blk on a modern virtio-blk-pci) checks, and the
# reverse, on the same image; the host checks both fills as well.
# Skipped, with a visible SKIP line, where the peer is absent.
. "$(dirname "$0")/lib.bash"

peer=${PEER_DIR:-$top/../shared/peer}
if [ ! -x "$peer/run-linux.sh" ]; then
	echo "# SKIP virtio-peer/fill-check: no Linux peer at $peer"
	ok "virtio-peer/fill-check # SKIP no peer"
	exit 0
fi
if ! "$peer/setup.sh" >"$logdir/virtio-peer-setup.log" 2>&1; then
	echo "# SKIP virtio-peer/fill-check: the Linux kernel package could not be fetched (see $logdir/virtio-peer-setup.log)"
	ok "virtio-peer/fill-check # SKIP no Linux package"
	exit 0
fi

img=$logdir/virtio-peer.img
rm -f "$img"
truncate -s 256M "$img"

# This kernel fills 16 MiB at 32 MiB with seed 15; Linux checks it.
boot virtio-peer-fill-ours --machine q35 --timeout 120 --disk "$img,bus=virtio" \
	--cmdline 'writable=vda run="bench vda fill:mib=16:off=32:seed=15"'
expect_rc "virtio-peer/ours-fills" 0
lba_check "virtio-peer/host-checks-our-fill" "$img" 15 $((32 * 2048)) $((16 * 2048))
out=$logdir/virtio-peer-linux-check.out
"$peer/run-linux.sh" --virtio --timeout=240 "$img" check:mib=16:off=32:seed=15 >"$out" 2>&1
expect_out "virtio-peer/linux-checks-our-fill" '^BENCH check .*seed=15 .*bad=0 .*result=PASS'

# Linux fills 16 MiB at 96 MiB with seed 16; this kernel checks it.
out=$logdir/virtio-peer-linux-fill.out
"$peer/run-linux.sh" --virtio --timeout=240 "$img" fill:mib=16:off=96:seed=16 >"$out" 2>&1
rc=$?
expect_rc "virtio-peer/linux-fills" 0
lba_check "virtio-peer/host-checks-linux-fill" "$img" 16 $((96 * 2048)) $((16 * 2048))
boot virtio-peer-check-ours --machine q35 --timeout 120 --disk "$img,bus=virtio" \
	--cmdline 'run="bench vda check:mib=16:off=96:seed=16"'
expect_out "virtio-peer/ours-checks-linux-fill" '^BENCH check .*seed=16 .*bad=0 .*result=PASS'
