#!/usr/bin/env bash
# Time without the legacy timer: on a machine whose PIT does not count
# (QEMU -machine pit=off) and with `nopit', the TSC is calibrated from
# the ACPI PM timer (or the HPET) and the local APIC timer gives the tick;
# every kernel self-test (timers, completions, APIC) passes so; and the
# TSC rate measured through the PM timer and the HPET agrees with the
# PIT's within 1% (selftests kernel/time/pmtmr_vs_pit, hpet_vs_pit).
. "$(dirname "$0")/lib.bash"

for m in q35 pc; do
	boot time-nopit-$m --machine $m --timeout 240 --cmdline 'nopit selftest=kernel/*'
	expect_rc "nopit/$m/selftests" 0
	expect_out "nopit/$m/tsc-from-pmtmr" '\] time: TSC [0-9]+\.[0-9]{3} MHz \(from the ACPI PM timer\), tick 1000 Hz from the local APIC timer$'
	expect_out "nopit/$m/lapic-tick" '\] lapic: timer [0-9]+ kHz \(bus clock / 16, measured against the TSC\), tick 1000 Hz$'
	expect_out "nopit/$m/pmtmr-within-1%" '^ok [0-9]+ - kernel/time/pmtmr_vs_pit'
	expect_out "nopit/$m/hpet-within-1%" '^time: TSC [0-9]+ kHz against the PIT, [0-9]+ kHz against the HPET'
	expect_out "nopit/$m/tick" '^ok [0-9]+ - kernel/time/tick'
done

# No PIT at all: found out, the kernel calibrates from ACPI and ticks
# from the local APIC; the self-tests that compare with the PIT or watch
# its IRQ 0 say there is nothing to compare instead of failing.
boot time-pit-off --machine q35 --timeout 240 --cmdline 'selftest=kernel/*' -- -machine pit=off
expect_rc "pit-off/selftests" 0
expect_out "pit-off/noticed" '\] time: the PIT does not count; calibrating from ACPI instead$'
expect_out "pit-off/tsc-from-pmtmr" '\] time: TSC [0-9]+\.[0-9]{3} MHz \(from the ACPI PM timer\), tick 1000 Hz from the local APIC timer$'
expect_out "pit-off/tick" '^ok [0-9]+ - kernel/time/tick'

boot time-nopit-irqs --machine q35 --timeout 60 --cmdline 'nopit run=irqs'
expect_rc "nopit/irqs/run" 0
expect_out "nopit/irqs/lapic-timer" '^ *[0-9]+ +lapic +[0-9]+ +timer'
expect_no_out "nopit/irqs/no-pit-irq" '^ *0 +(ioapic|8259) +[0-9]+ +timer'
