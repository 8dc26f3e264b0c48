#!/usr/bin/env bash
# PCI enumeration and interrupt routing on real (emulated) chipsets: the
# lspci view of QEMU's pc and q35 machines (the IDs QEMU 7.2 gives its
# i440FX/PIIX3 and Q35/ICH9 functions), a second AHCI, a device behind a PCI-to-PCI bridge and a
# 64-bit BAR; the I/O APIC taking the ISA lines (the PIT through the
# IRQ0->GSI2 override), the 8259 fallbacks (noapic, no ACPI tables); and
# the in-kernel pci/ and kernel/apic/ self-tests on both machines, with
# and without the APICs, including real INTx and MSI interrupts from NICs,
# INTx through the ICH9's route registers on q35 and through the firmware's
# Interrupt Line elsewhere;
# and IDENTIFY data from QEMU disks (3 TiB, 512e, CD-ROM) through the parser.
. "$(dirname "$0")/lib.bash"

boot hw-q35 --machine q35 --timeout 60 --cmdline 'run="lspci; irqs; apic"'
expect_rc "hw/q35/run" 0
expect_out "hw/q35/host-bridge" '^00:00\.0 8086:29c0 0600\.00 host bridge'
expect_out "hw/q35/lpc" '^00:1f\.0 8086:2918 0601\.00 ISA bridge'
expect_out "hw/q35/ahci" '^00:1f\.2 8086:2922 0106\.01 SATA controller \(AHCI\) +irq [0-9]+ '
expect_out "hw/q35/ahci-abar" '^        BAR5 mem32 0x[0-9a-f]{16} size 0x1000$'
expect_out "hw/q35/apic" '^\[[ 0-9.]+\] apic: local APIC 0, 1 I/O APIC\(s\), 15 ISA lines moved off the 8259'
expect_out "hw/q35/timer-on-ioapic" '^  0  ioapic +[0-9]+ +timer'
expect_out "hw/q35/apic/pit-on-gsi2" '^  0    2      32  edge     high      no    apic 0$'
expect_out "hw/q35/apic/pci-line-level" '^ 10   10      42  level    high      (yes|no) +apic [0-9]+$'
expect_no_out "hw/q35/apic/no-cascade" '^  2  '

boot hw-pc --machine pc --timeout 60 --cmdline 'run="lspci; irqs"' -- \
	-device ich9-ahci,addr=4 \
	-device pci-bridge,id=br1,chassis_nr=1,addr=5 -device e1000,bus=br1,addr=3 \
	-device nvme,serial=hwtest,addr=6
expect_rc "hw/pc/run" 0
expect_out "hw/pc/piix-ide" '^00:01\.1 8086:7010 0101\.80 IDE controller'
expect_out "hw/pc/piix-bmide" '^        BAR4 io    0x[0-9a-f]{16} size 0x10$'
expect_out "hw/pc/ich9-ahci" '^00:04\.0 8086:2922 0106\.01 SATA controller \(AHCI\)'
expect_out "hw/pc/bridge" '^00:05\.0 1b36:0001 0604\.00 PCI bridge'
expect_out "hw/pc/behind-bridge" '^01:03\.0 8086:100e 0200\.00 Ethernet controller'
expect_out "hw/pc/nvme-64bit-bar" '^        BAR0 mem64 0x[0-9a-f]{16} size 0x4000$'
expect_out "hw/pc/timer-on-ioapic" '^  0  ioapic +[0-9]+ +timer'

boot hw-noapic --machine q35 --timeout 60 --cmdline 'noapic run="irqs; apic"'
expect_rc "hw/noapic/run" 0
expect_out "hw/noapic/said" 'apic: noapic: interrupts stay on the 8259 PIC'
expect_out "hw/noapic/timer-on-8259" '^  0  8259 +[0-9]+ +timer'
expect_out "hw/noapic/apic-command" '^no local APIC in use'

# No ACPI tables at all: the 8259 keeps the lines, and the tick (checked
# over 20 ms by the self-test, not by a count taken right after boot) flows.
boot hw-noacpi --machine pc --timeout 60 --cmdline 'selftest=kernel/apic/*' -- -no-acpi
expect_rc "hw/no-acpi/selftest" 0
expect_out "hw/no-acpi/said" 'apic: no MADT: interrupts stay on the 8259 PIC'
expect_out "hw/no-acpi/timer-through-8259" '^ok [0-9]+ - kernel/apic/timer_through_chip'

# The self-tests, with NICs whose interrupts can be raised on demand
# (pci/irq_intx, pci/irq_msi) and an AHCI for pci/map_bar on both machines.
# On q35 two more NICs take the chipset route of pci_irq.c in APIC mode:
# one in slot 25 (D25IR), one in slot 3 behind a PCI bridge behind the
# root port 00:1c.0, whose INTA# arrives as the root port's INTD# (D28IR);
# QEMU's ICH9 raises GSI 16 + PIRQ for both, so the interrupts only come
# if the registers were read and the swizzle done right.
nics=(-device e1000e,addr=7 -device e1000,addr=8 -device ich9-ahci,addr=9)
q35_nics=(-device e1000,addr=0x19 -device pcie-root-port,id=rp1,chassis=1,addr=0x1c
	  -device pcie-pci-bridge,id=pb1,bus=rp1 -device e1000,bus=pb1,addr=3)
for m in pc q35; do
	for mode in apic noapic; do
		opt=""
		[ $mode = noapic ] && opt=noapic
		extra=()
		[ $m = q35 ] && extra=("${q35_nics[@]}")
		for t in pci:6 kernel/apic:2; do
			pat=${t%:*} n=${t#*:}
			boot hw-selftest-$m-$mode-${pat//\//-} --machine $m --timeout 60 \
				--cmdline "$opt selftest=$pat/*" -- "${nics[@]}" "${extra[@]}"
			expect_rc "hw/selftest/$m/$mode/$pat" 0
			expect_out "hw/selftest/$m/$mode/$pat/all-ran" "^selftest: $n passed, 0 failed"
			[ $pat = pci ] || continue
			case $m/$mode in
			q35/apic)
				expect_out "hw/intx/q35/d25ir" '\] pci 00:19\.0: INTA# -> PIRQ[A-H] -> GSI (1[6-9]|2[0-3]), IRQ [0-9]+ \(chipset route, D25IR\)$'
				expect_out "hw/intx/q35/swizzled-d28ir" '\] pci 02:03\.0: INTA# -> 00:1c\.0 INTD# -> PIRQ[A-H] -> GSI (1[6-9]|2[0-3]), IRQ [0-9]+ \(chipset route, D28IR\)$'
				expect_out "hw/intx/q35/uncovered-slot-keeps-line" '\] pci 00:08\.0: INTA# -> IRQ 1[01] \(Interrupt Line; no route register for its bus-0 device\)$' ;;
			q35/noapic)
				expect_out "hw/intx/q35/8259-keeps-line" '\] pci 00:19\.0: INTA# -> IRQ [0-9]+ \(Interrupt Line; 8259 mode\)$' ;;
			pc/apic)
				expect_out "hw/intx/pc/piix-keeps-line" '\] pci 00:08\.0: INTA# -> IRQ [0-9]+ \(Interrupt Line; no Intel ICH6\+ LPC bridge at 00:1f\.0\)$' ;;
			esac
			relay_tap | sed -E "s#^(ok|not ok) [0-9]+ - #\1 - $m/$mode/#"
		done
	done
done

# IDENTIFY from real QEMU disks through ata_id_parse (ata/identify_legacy_ide;
# ide.off keeps the IDE driver away, which would otherwise own the ports):
# the sector count must be the image size the host sees, beyond 2 TiB too.
img=$logdir/hw-3t.raw
rm -f "$img" && truncate -s 3T "$img"
want=$(( $(stat -c %s "$img") / 512 ))
boot hw-ata-3t --machine pc --timeout 60 --cmdline 'ide.off selftest=ata/*' --disk "$img,bus=ide"
expect_rc "hw/ata/3t/selftest" 0
expect_out "hw/ata/3t/capacity-from-words-100-103" \
	"ata-selftest: 0x1f0 master: QEMU HARDDISK, $want sectors of 512 bytes, physical 512, lba48 1, flush-ext 1"
rm -f "$img"

img=$logdir/hw-512e.raw
rm -f "$img" && truncate -s 64M "$img"
boot hw-ata-512e --machine pc --timeout 60 --cmdline 'ide.off selftest=ata/*' -- \
	-drive if=none,id=e0,file="$img",format=raw,cache=unsafe \
	-device ide-hd,drive=e0,bus=ide.0,unit=0,physical_block_size=4096
expect_rc "hw/ata/512e/selftest" 0
expect_out "hw/ata/512e/physical-4096" 'ata-selftest: .*, 131072 sectors of 512 bytes, physical 4096,'

# A CD-ROM on the primary master, and a lone slave: aborted IDENTIFY, no hang, no line.
boot hw-ata-cd --machine pc --timeout 60 --cmdline 'ide.off selftest=ata/*' -- \
	-drive if=none,id=cd,media=cdrom -device ide-cd,drive=cd,bus=ide.0,unit=0
expect_rc "hw/ata/cdrom/selftest" 0
expect_no_out "hw/ata/cdrom/not-a-disk" 'ata-selftest: 0x1f0'
boot hw-ata-slave --machine pc --timeout 60 --cmdline 'ide.off selftest=ata/*' -- \
	-drive if=none,id=s1,file="$img",format=raw,cache=unsafe \
	-device ide-hd,drive=s1,bus=ide.0,unit=1
expect_rc "hw/ata/lone-slave/selftest" 0
rm -f "$img"
