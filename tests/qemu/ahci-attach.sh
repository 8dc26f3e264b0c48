#!/usr/bin/env bash
# AHCI bring-up: six disks on q35's built-in ICH9 plus a second ich9-ahci
# controller, and disks on an ich9-ahci added to pc; every disk attaches
# and lsblk matches the host's view (sfdisk) of its partitions.  A CD-ROM
# on an AHCI port is named and skipped without delaying the boot, and so
# are empty ports before a lone disk on port 5.  Eighteen disks on three
# controllers get Linux's sd device numbers: sdq is 65:0, not 8:256.
. "$(dirname "$0")/ahci-lib.bash"

mk() {	# mk NAME MiB [sfdisk script]
	truncate -s "$2M" "$imgdir/$1.raw"
	[ -z "${3:-}" ] || printf "$3" | sfdisk -q "$imgdir/$1.raw"
}
mk d0 40 'label: gpt\nstart=2048, size=8MiB, type=L\ntype=L\n'
mk d1 41 'label: dos\nunit: sectors\n\nstart=2048, size=8MiB, type=83\ntype=5\nsize=8MiB, type=83\nsize=4MiB, type=83\n'
mk d2 42
mk d3 43 'label: gpt\nsize=4MiB, type=L\nsize=4MiB, type=L\ntype=L\n'
mk d4 44 'label: dos\nstart=2048, type=83\n'
mk d5 45 'label: gpt\nstart=4096, size=1MiB, type=L\n'
mk d6 46 'label: gpt\nsize=2MiB, type=L\nsize=2MiB, type=L\n'
mk d7 47 'label: dos\nstart=2048, size=16MiB, type=83\ntype=83\n'

# lsblk_matches TAG IMAGE...: each image's disk (found by its size) and its
# partitions, as sfdisk sees them, appear in the last boot's lsblk.
lsblk_matches() {
	local tag=$1 img sects disk name size type n
	shift
	for img in "$@"; do
		sects=$(( $(stat -c %s "$img") / 512 ))
		disk=$(sed -n "s/^\(sd[a-z]*\) .* $sects  *1 disk .*/\1/p" "$out")
		if [ -z "$disk" ]; then
			notok "$tag/$(basename "$img")-attached" "no disk of $sects sectors in $out"
			continue
		fi
		ok "$tag/$(basename "$img")-attached-as-$disk"
		while read -r name size type; do
			n=${name##*.raw}
			case $type in 5|f|85) continue ;; esac	# extended: a 1-sector window, as in Linux
			expect_out "$tag/$disk$n-matches-sfdisk" "^$disk$n +[0-9]+:[0-9]+ +[^ ]+ +$size +1 part"
		done < <(sfdisk -q --dump "$img" 2>/dev/null |
			 sed -n 's/^\([^ ]*\) : start= *[0-9]*, size= *\([0-9]*\), type=\([0-9a-fA-F-]*\).*/\1 \2 \3/p')
	done
}

# soon_after_hba TAG REGEX: the last boot logged REGEX (after the time stamp)
# less than half a second after ahci0's "AHCI" line.
soon_after_hba() {
	local t0 t1
	t0=$(sed -n 's/^\[ *\([0-9.]*\)\] ahci0: AHCI.*/\1/p' "$out")
	t1=$(sed -En "s/^\\[ *([0-9.]*)\\] $2.*/\\1/p" "$out")
	if [ -n "$t0" ] && [ -n "$t1" ] && awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 0.5) }'; then
		ok "$1"
	else
		notok "$1" "ahci0 at $t0, '$2' at $t1"
	fi
}

disks=()
for i in 0 1 2 3 4 5; do disks+=(--disk "$imgdir/d$i.raw"); done
boot ahci-attach-q35 --machine q35 --timeout 60 "${disks[@]}" --cmdline 'run="lsblk"' -- \
	-device ich9-ahci,id=ahci2 \
	-drive "if=none,id=x0,file=$imgdir/d6.raw,format=raw,cache=unsafe" \
	-device ide-hd,drive=x0,bus=ahci2.0
expect_rc "ahci-attach/q35-boots" 0
expect_out "ahci-attach/two-controllers" '^\[ *[0-9.]+\] ahci1: AHCI'
expect_no_out "ahci-attach/no-port-failed" 'port skipped|; skipped|does not recover'
lsblk_matches ahci-attach/q35 "$imgdir"/d[0-6].raw

boot ahci-attach-pc --machine pc --timeout 60 --disk "$imgdir/d7.raw,bus=ahci" \
	--disk "$imgdir/d4.raw,bus=ahci" --cmdline 'run="lsblk"'
expect_rc "ahci-attach/pc-boots" 0
lsblk_matches ahci-attach/pc "$imgdir/d7.raw" "$imgdir/d4.raw"

# INTx instead of MSI: the shared, level-triggered line carries the I/O.
boot ahci-attach-intx --machine q35 --timeout 60 --disk "$imgdir/d2.raw" \
	--cmdline 'writable=all ahci.msi=0 run="lspci; stress sda span=8 seed=21 qd=32; irqs"'
expect_rc "ahci-attach/intx-run" 0
expect_out "ahci-attach/intx-bound" '^00:1f\.2 8086:2922 0106\.01 SATA controller \(AHCI\) +irq [0-9]+  ahci'
expect_out "ahci-attach/intx-io-verifies" 'STRESS sd[a-z] .*result=PASS$'
# q35's ICH9 routes the HBA's INTA# by D31IR to a PIRQ, I/O APIC input
# 16-23 (pci_irq.c's chipset route), and that IRQ carried the I/O.
expect_out "ahci-attach/intx-chipset-route" '\] pci 00:1f\.2: INTA# -> PIRQ[A-H] -> GSI (1[6-9]|2[0-3]), IRQ [0-9]+ \(chipset route, D31IR\)$'
irq=$(sed -n 's/.*\] pci 00:1f\.2: INTA# .* IRQ \([0-9]*\) (chipset route.*/\1/p' "$out")
expect_out "ahci-attach/intx-gsi-counts" "^ *${irq:-none} +ioapic +[1-9][0-9]* +ahci0\$"
stamp_check "ahci-attach/intx-host-verify" "$imgdir/d2.raw" 21 0 8

# The same on pc, whose PIIX3 has no route registers: the Interrupt Line rule.
boot ahci-attach-pc-intx --machine pc --timeout 60 --disk "$imgdir/d4.raw,bus=ahci" \
	--cmdline 'writable=all ahci.msi=0 run="stress sda span=4 seed=22 qd=32; irqs"'
expect_rc "ahci-attach/pc-intx-run" 0
expect_out "ahci-attach/pc-intx-line-rule" '\] pci 00:[0-9a-f]{2}\.0: INTA# -> IRQ 1[01] \(Interrupt Line; no Intel ICH6\+ LPC bridge at 00:1f\.0\)$'
expect_out "ahci-attach/pc-intx-io-verifies" 'STRESS sd[a-z] .*result=PASS$'
expect_out "ahci-attach/pc-intx-line-counts" '^ *1[01] +ioapic +[1-9][0-9]* +ahci0$'

# Without writable= the disk is read-only to the tools as to everyone.
boot ahci-attach-ro --machine q35 --timeout 60 --disk "$imgdir/d2.raw" \
	--cmdline 'run="stress sda span=1 op=write"'
expect_rc "ahci-attach/ro-write-refused" 1
expect_out "ahci-attach/ro-said" '^stress: read-only file system'

# The CD-ROM takes the port after the disk; it must cost no waiting.
boot ahci-attach-cdrom --machine q35 --timeout 60 --disk "$imgdir/d2.raw" --cdrom \
	--cmdline 'run="lsblk"'
expect_rc "ahci-attach/cdrom-boots" 0
expect_out "ahci-attach/cdrom-named" 'ahci0\.1: ATAPI device "QEMU DVD-ROM": not handled by this driver, left alone'
expect_no_out "ahci-attach/cdrom-not-a-disk" '^sdb '
soon_after_hba "ahci-attach/cdrom-no-delay" 'ahci0\.1: ATAPI'

# A lone disk on the last port: the five empty ports before it share one
# presence window, so the disk is up as fast as on port 0.
boot ahci-attach-port5 --machine q35 --timeout 60 --cmdline 'run="lsblk"' -- \
	-drive "if=none,id=p5,file=$imgdir/d2.raw,format=raw,cache=unsafe" \
	-device ide-hd,drive=p5,bus=ide.5
expect_rc "ahci-attach/port5-boots" 0
expect_out "ahci-attach/port5-is-sda" '\] ahci0\.5: sda: QEMU HARDDISK'
expect_no_out "ahci-attach/port5-nothing-else" 'ahci0\.[0-4]:'
soon_after_hba "ahci-attach/port5-empty-ports-cost-one-window" 'ahci0\.5: sda:'

# Eighteen disks: sda..sdp on major 8, then sdq and sdr on 65, as in Linux.
many=() qemu_many=()
for i in $(seq 0 17); do
	truncate -s "$((i + 1))M" "$imgdir/m$i.raw"
	if [ "$i" -lt 6 ]; then
		many+=(--disk "$imgdir/m$i.raw")
	else
		[ $((i % 6)) -ne 0 ] || qemu_many+=(-device "ich9-ahci,id=ahci$((i / 6))")
		qemu_many+=(-drive "if=none,id=m$i,file=$imgdir/m$i.raw,format=raw,cache=unsafe"
			    -device "ide-hd,drive=m$i,bus=ahci$((i / 6)).$((i % 6))")
	fi
done
boot ahci-attach-18 --machine q35 --timeout 60 "${many[@]}" --cmdline 'run="lsblk"' -- "${qemu_many[@]}"
expect_rc "ahci-attach/18-boots" 0
expect_out "ahci-attach/18-sdp-8:240" '^sdp +8:240 .* disk '
expect_out "ahci-attach/18-sdq-65:0" '^sdq +65:0 .* disk '
expect_out "ahci-attach/18-sdr-65:16" '^sdr +65:16 .* disk '
