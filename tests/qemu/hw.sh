#!/usr/bin/env bash
# PCI enumeration and interrupt routing on real (emulated) chipsets: the
# lspci view of QEMU's pc and q35 machines (IDs from shared/TESTING.md
# section 1), a second AHCI, a device behind a PCI-to-PCI bridge and a
# 64-bit BAR; the I/O APIC taking the ISA lines (the PIT through the
# IRQ0->GSI2 override), the 8259 fallbacks (noapic, no ACPI tables); and
# the in-kernel pci/ and kernel/apic/ self-tests on both machines.
. "$(dirname "$0")/lib.bash"

boot hw-q35 --machine q35 --timeout 60 --cmdline 'run="lspci; irqs"'
expect_rc "hw/q35/run" 0
expect_out "hw/q35/host-bridge" '^00:00\.0 8086:29c0 0600\.00 host bridge'
expect_out "hw/q35/lpc" '^00:1f\.0 8086:2918 0601\.00 ISA bridge'
expect_out "hw/q35/ahci" '^00:1f\.2 8086:2922 0106\.01 SATA controller \(AHCI\) +irq [0-9]+ '
expect_out "hw/q35/ahci-abar" '^        BAR5 mem32 0x[0-9a-f]{16} size 0x1000$'
expect_out "hw/q35/apic" '^\[[ 0-9.]+\] apic: local APIC 0, 1 I/O APIC\(s\), 15 ISA lines moved off the 8259'
expect_out "hw/q35/timer-through-ioapic" '^  0  ioapic +[1-9][0-9]* +timer'

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
expect_out "hw/pc/timer-through-ioapic" '^  0  ioapic +[1-9][0-9]* +timer'

boot hw-noapic --machine q35 --timeout 60 --cmdline 'noapic run=irqs'
expect_rc "hw/noapic/run" 0
expect_out "hw/noapic/said" 'apic: noapic: interrupts stay on the 8259 PIC'
expect_out "hw/noapic/timer-through-8259" '^  0  8259 +[1-9][0-9]* +timer'

boot hw-noacpi --machine pc --timeout 60 --cmdline 'run=irqs' -- -no-acpi
expect_rc "hw/no-acpi/run" 0
expect_out "hw/no-acpi/said" 'apic: no MADT: interrupts stay on the 8259 PIC'
expect_out "hw/no-acpi/timer-through-8259" '^  0  8259 +[1-9][0-9]* +timer'

for m in pc q35; do
	boot hw-selftest-$m --machine $m --timeout 60 --cmdline 'selftest=pci/*'
	expect_rc "hw/selftest/pci/$m" 0
	relay_tap | sed -E "s#^(ok|not ok) [0-9]+ - #\1 - $m/#"
	boot hw-selftest-apic-$m --machine $m --timeout 60 --cmdline 'selftest=kernel/apic/*'
	expect_rc "hw/selftest/apic/$m" 0
	relay_tap | sed -E "s#^(ok|not ok) [0-9]+ - #\1 - $m/#"
done
boot hw-selftest-apic-noapic --machine q35 --timeout 60 --cmdline 'noapic selftest=kernel/apic/*'
expect_rc "hw/selftest/apic/noapic" 0
relay_tap | sed -E "s#^(ok|not ok) [0-9]+ - #\1 - noapic/#"
