#!/usr/bin/env bash
# The NVMe driver on QEMU's controller (q35): bring-up and names, the
# LBA-stamped stress at queue depth 64 checked from the host, a
# controller with two namespaces (512- and 4096-byte blocks), a small
# MDTS (transfers split to 16 KiB), a namespace with metadata skipped,
# and each interrupt mode QEMU offers: MSI-X (a vector per queue), INTx
# and polling.  Data pointers: SGLs for requests whose segments average
# 32 KiB or more (the default), PRPs for the rest; PRPs only with two
# namespaces (nvme.sgl_kb=0: the copy buffer takes the odd shapes), SGLs
# for nearly all with the small MDTS (nvme.sgl_kb=1: lists of several
# descriptors).  The shadow doorbell buffer is used with one CPU (where
# QEMU's TCG elides fence instructions and device_mb stands in) and with
# two (QEMU's own trace sees it handed over), and not with nvme.dbbuf=0.
# The shutdown notification (CC.SHN) is seen at poweroff.
. "$(dirname "$0")/nvme-lib.bash"

# One namespace, MSI-X, queue depth 64.
img=$imgdir/one.raw
truncate -s 96M "$img"
boot nvme-one --machine q35 --timeout 180 --disk "$img,bus=nvme" \
	--cmdline 'writable=all run="lsblk; diskinfo nvme0n1; stress nvme0n1 span=48 off=8 seed=21 qd=64"'
expect_rc "nvme/one/run" 0
expect_out "nvme/one/version" '\] nvme0: NVMe 1\.[0-9]+\.[0-9]+, CAP [0-9a-f]{16}: [0-9]+ entries per queue'
expect_out "nvme/one/identify" '\] nvme0: QEMU NVMe Ctrl, serial nvme0, firmware [^ ]+; namespace IDs up to [0-9]+, max transfer 512 KiB, write cache, deallocate, write zeroes, SGLs$'
expect_out "nvme/one/disk" '\] nvme0n1: QEMU NVMe Ctrl, 196608 sectors \(96 MiB\), 512-byte blocks'
expect_out "nvme/one/lsblk" '^nvme0n1 +[0-9]+:0 +96M +196608 '
expect_out "nvme/one/diskinfo-model" '^ *model QEMU NVMe Ctrl$'
expect_out "nvme/one/diskinfo-serial" '^ *serial nvme0$'
expect_out "nvme/one/diskinfo-msix" '^ *queues 1 depth [0-9]+, msi-x$'
expect_out "nvme/one/diskinfo-shadow" '^ *doorbells shadow$'
expect_out "nvme/one/diskinfo-sgl" '^ *max transfer 512 KiB, data pointers SGL and PRP$'
expect_out "nvme/one/stress" '^STRESS nvme0n1 .*result=PASS$'
expect_out "nvme/one/shutdown" '\] nvme0: shutdown complete$'
expect_no_out "nvme/one/no-errors" 'nvme0n1: (READ|WRITE|FLUSH)|timed out|resetting'
stamp_check "nvme/one/host-verify" "$img" 21 8 48

# Two usable namespaces on one controller, 512- and 4096-byte blocks, and
# a third whose blocks carry 8 bytes of metadata (skipped, with a reason).
a=$imgdir/ns512.raw b=$imgdir/ns4k.raw m=$imgdir/meta.raw
truncate -s 64M "$a" "$b" "$m"
mapfile -t dev < <(nvme_ns_args nvc "" "$a:512" "$b:4096" "$m:512:ms=8")
boot nvme-two-ns --machine q35 --timeout 240 \
	--cmdline 'writable=all nvme.sgl_kb=0 run="lsblk; stress nvme0n1 span=16 off=4 seed=22 qd=64; stress nvme0n2 span=16 off=4 seed=23 qd=64"' \
	-- ${dev[@]}
expect_rc "nvme/two-ns/run" 0
expect_out "nvme/two-ns/ns1" '\] nvme0n1: .* 131072 sectors \(64 MiB\), 512-byte blocks'
expect_out "nvme/two-ns/ns2" '\] nvme0n2: .* 131072 sectors \(64 MiB\), 4096-byte blocks'
expect_out "nvme/two-ns/metadata-skipped" '\] nvme0: namespace 3 skipped: LBA format [0-9]+ \(512-byte blocks, 8 metadata bytes\) not supported$'
expect_no_out "nvme/two-ns/no-ns3-disk" '^nvme0n3 '
expect_out "nvme/two-ns/lsblk-ns2" '^nvme0n2 +[0-9]+:16 +64M '
expect_out "nvme/two-ns/stress-512" '^STRESS nvme0n1 .*result=PASS$'
expect_out "nvme/two-ns/stress-4096" '^STRESS nvme0n2 .*result=PASS$'
stamp_check "nvme/two-ns/host-verify-512" "$a" 22 4 16
stamp_check "nvme/two-ns/host-verify-4096" "$b" 23 4 16

# A small MDTS: 2^2 pages = 16 KiB per command; stress's large I/Os split;
# nearly every request an SGL.
img=$imgdir/mdts.raw
truncate -s 64M "$img"
boot nvme-mdts --machine q35 --timeout 180 --disk "$img,bus=nvme,dev.mdts=2" \
	--cmdline 'writable=all nvme.sgl_kb=1 run="diskinfo nvme0n1; stress nvme0n1 span=16 off=8 seed=24 qd=64"'
expect_rc "nvme/mdts/run" 0
expect_out "nvme/mdts/limit" '^ *max transfer 16 KiB, data pointers SGL and PRP$'
expect_out "nvme/mdts/stress" '^STRESS nvme0n1 .*result=PASS$'
stamp_check "nvme/mdts/host-verify" "$img" 24 8 16

# Two CPUs: shadow doorbells, seen by QEMU (a page-aligned Doorbell
# Buffer Config in its trace), or the registers alone with nvme.dbbuf=0;
# either way stamped data moves.
for db in shadow registers; do
	opt=
	[ $db = registers ] && opt=nvme.dbbuf=0
	img=$imgdir/db-$db.raw
	truncate -s 32M "$img"
	qlog=$logdir/nvme-db-$db.qemu.log
	rm -f "$qlog"
	boot nvme-db-$db --machine q35 --timeout 180 --disk "$img,bus=nvme" \
		--cmdline "writable=all $opt run=\"diskinfo nvme0n1; stress nvme0n1 span=8 off=4 seed=26 qd=64\"" \
		-- -smp 2 -D "$qlog" -trace pci_nvme_dbbuf_config
	expect_rc "nvme/db-$db/run" 0
	expect_out "nvme/db-$db/diskinfo" "^ *doorbells $db\$"
	expect_out "nvme/db-$db/stress" '^STRESS nvme0n1 .*result=PASS$'
	n=$(grep -cE 'pci_nvme_dbbuf_config dbs_addr=0x[0-9a-f]*000 eis_addr=0x[0-9a-f]*000$' "$qlog")
	if [ "$n" = "$([ $db = shadow ] && echo 1 || echo 0)" ]; then ok "nvme/db-$db/qemu-configs"; else
		notok "nvme/db-$db/qemu-configs" "$n page-aligned Doorbell Buffer Configs in $qlog"; fi
	stamp_check "nvme/db-$db/host-verify" "$img" 26 4 8
done

# The interrupt fallbacks and polling: each still moves stamped data.
# (QEMU's controller has MSI-X but no MSI capability: nvme.msix=0 is INTx.)
for mode in intx poll; do
	case $mode in
	intx) opt='nvme.msix=0' want=intx ;;
	poll) opt='nvme.poll=1' want=polled ;;
	esac
	img=$imgdir/$mode.raw
	truncate -s 32M "$img"
	boot nvme-$mode --machine q35 --timeout 180 --disk "$img,bus=nvme" \
		--cmdline "writable=all $opt run=\"diskinfo nvme0n1; stress nvme0n1 span=8 off=4 seed=25 qd=64; diskinfo nvme0n1; bench nvme0n1 randread:qd=1:bs=4K:secs=1; diskinfo nvme0n1\""
	expect_rc "nvme/$mode/run" 0
	expect_out "nvme/$mode/mode" "^ *queues 1 depth [0-9]+, $want\$"
	expect_out "nvme/$mode/stress" '^STRESS nvme0n1 .*result=PASS$'
	if [ $mode = poll ]; then
		# A waiter at depth 1 spins in blk_poll(): the tick (1 ms apart)
		# finds only what lands while its own handler runs (3% of a
		# quiet host's completions); without it every I/O waits for the
		# tick.  Half leaves room for a slow host.  (Stress keeps the
		# CPU busy: the tick reaps most of its.)  The counts before and
		# after the bench are the last two reports.
		read -r t0 a0 t1 a1 < <(sed -n 's/^ *poll tick reaped \([0-9]*\) of \([0-9]*\).*/\1 \2/p' "$out" |
			tail -2 | tr '\n' ' ')
		tick=$((${t1:-0} - ${t0:-0})) all=$((${a1:-0} - ${a0:-0}))
		if [ "$all" -gt 0 ] && [ "$((tick * 2))" -lt "$all" ]; then
			ok "nvme/poll/waiters-poll"
		else
			notok "nvme/poll/waiters-poll" "the tick reaped $tick of bench's $all completions"
		fi
	fi
	stamp_check "nvme/$mode/host-verify" "$img" 25 4 8
done

# Highmem: with 8 GiB of RAM stress's buffers are pages above 4 GiB; the
# controller reaches them straight from the PRPs (zero bounces).
img=$imgdir/high.raw
truncate -s 32M "$img"
boot nvme-highmem --machine q35 --mem 8G --timeout 180 --disk "$img,bus=nvme" \
	--cmdline 'writable=all run="stress nvme0n1 span=16 seed=27 qd=64 high=1"'
expect_rc "nvme/highmem/run" 0
expect_out "nvme/highmem/stress" '^STRESS nvme0n1 .*result=PASS$'
hp=$(grep -o 'STRESS .*\babove4g=[0-9]*' "$out" | tail -1 | sed 's/.*above4g=//')
if [ "${hp:-0}" -gt 0 ]; then ok "nvme/highmem/$hp-pages-above-4g"; else notok "nvme/highmem/pages-above-4g" "above4g=$hp"; fi
b=$(grep -o 'STRESS .*\bbounces=[0-9]*' "$out" | tail -1 | sed 's/.*bounces=//')
if [ "$b" = 0 ]; then ok "nvme/highmem/zero-bounces"; else notok "nvme/highmem/zero-bounces" "bounces=$b"; fi
stamp_check "nvme/highmem/host-verify" "$img" 27 0 16
