#!/usr/bin/env bash
# Several CPUs: every processor QEMU gives is started and every self-test
# passes with 1, 2, 4 and 8 of them (TCG runs each on a host thread);
# nosmp and maxcpus= limit the count; the same on UEFI firmware (OVMF's
# MADT, and a trampoline page below 1 MiB taken from OVMF's memory map).
. "$(dirname "$0")/lib.bash"

for n in 1 2 4 8; do
	boot smp-$n --machine q35 --mem 512M --timeout 300 --cmdline 'selftest=*' -- -smp $n
	expect_rc "smp/$n/selftests" 0
	expect_out "smp/$n/summary" '^selftest: [1-9][0-9]* passed, 0 failed'
	expect_out "smp/$n/timers" "^smp: $n CPUs online, every other CPU's timer ticks"
	expect_no_out "smp/$n/no-failed-cpu" 'did not start|not delivered|took a call'
	[ $n -gt 1 ] && expect_out "smp/$n/online" "smp: $n of $n CPUs online"
done

boot smp-pc --machine pc --timeout 120 --cmdline 'run="cpus"' -- -smp 2
expect_rc "smp/pc/cpus" 0
expect_out "smp/pc/ap-online" '^  1     1  online '
expect_out "smp/pc/count" '^2 online$'

boot smp-nosmp --machine q35 --timeout 120 --cmdline 'nosmp run="cpus"' -- -smp 4
expect_rc "smp/nosmp/cpus" 0
expect_out "smp/nosmp/said" 'smp: 4 CPUs listed; nosmp: running on the boot CPU only'
expect_out "smp/nosmp/count" '^1 online$'

boot smp-maxcpus --machine q35 --timeout 120 --cmdline 'maxcpus=3 run="cpus"' -- -smp 4
expect_rc "smp/maxcpus/cpus" 0
expect_out "smp/maxcpus/said" 'smp: 3 of 4 CPUs online'
expect_out "smp/maxcpus/left-out" 'maxcpus=3: APIC 3 and later left out'
expect_out "smp/maxcpus/count" '^3 online$'

boot smp-uefi --iso --mb2 --firmware uefi --machine q35 --timeout 300 \
	--cmdline 'selftest=kernel/smp/*' -- -smp 2
expect_rc "smp/uefi/selftests" 0
expect_out "smp/uefi/online" 'smp: 2 of 2 CPUs online'
