#!/usr/bin/env bash
# Multiboot 2 beside multiboot 1: both headers as GRUB checks them; GRUB
# loading the kernel through multiboot2 under 64-bit OVMF (q35), where the
# ACPI RSDP comes from the loader and the I/O APIC and MSI must work as
# under BIOS, and under SeaBIOS; multiboot 1 through -kernel unchanged.
. "$(dirname "$0")/lib.bash"

k=build/kernel.elf
if grub-file --is-x86-multiboot $k; then ok "mb2/header/multiboot1"; else notok "mb2/header/multiboot1" "grub-file says no"; fi
if grub-file --is-x86-multiboot2 $k; then ok "mb2/header/multiboot2"; else notok "mb2/header/multiboot2" "grub-file says no"; fi

img=$logdir/uefi-mb2.img
truncate -s 16M "$img"
boot uefi-mb2-ovmf --iso --mb2 --firmware uefi --machine q35 --timeout 120 \
	--disk "$img,bus=ahci" --cmdline 'run="irqs; apic"'
expect_rc "mb2/ovmf/run" 0
expect_out "mb2/ovmf/grub-quoted-run" '^run: irqs; apic$'
expect_out "mb2/ovmf/multiboot2" '\] boot: multiboot2, firmware efi64, ACPI RSDP from the loader$'
expect_out "mb2/ovmf/rsdp" '\] acpi: RSDP from the boot loader \(ACPI 2\.0\+\)$'
expect_out "mb2/ovmf/ioapic" '\] apic: local APIC 0, 1 I/O APIC\(s\), 15 ISA lines moved off the 8259'
expect_out "mb2/ovmf/timer-on-ioapic" '^  0  ioapic +[0-9]+ +timer'
expect_out "mb2/ovmf/ahci-msi" '^ *[0-9]+ +msi +[0-9]+ +ahci'
expect_out "mb2/ovmf/efi-memory-map" '\] +mem 0x0000100000-'
expect_no_out "mb2/ovmf/no-video-error" 'no suitable video mode'

boot uefi-mb2-seabios --iso --mb2 --machine pc --timeout 60 --cmdline 'run=uptime'
expect_rc "mb2/seabios/run" 0
expect_out "mb2/seabios/multiboot2" '\] boot: multiboot2, firmware bios, ACPI RSDP from the loader$'

boot uefi-mb1-kernel --machine q35 --timeout 60 --cmdline 'run=uptime'
expect_rc "mb2/mb1-kernel/run" 0
expect_out "mb2/mb1-kernel/multiboot1" '\] boot: multiboot1, firmware bios, ACPI RSDP to be searched for$'
rm -f "$img"
