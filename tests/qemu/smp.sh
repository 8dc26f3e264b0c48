#!/usr/bin/env bash
# Several CPUs: every processor QEMU gives is started and every self-test
# passes with 1, 2, 4 and 8 of them (TCG runs each on a host thread),
# among them the TLB shootdown and the per-CPU kmap_atomic slots;
# nosmp and maxcpus= limit the count; the same on UEFI firmware (OVMF's
# MADT, and a trampoline page below 1 MiB taken from OVMF's memory map).
. "$(dirname "$0")/lib.bash"

for n in 1 2 4 8; do
	# 1280M: highmem, so kmap_atomic and the kmap slots map pages for real.
	boot smp-$n --machine q35 --mem 1280M --timeout 300 --cmdline 'selftest=*' -- -smp $n
	expect_rc "smp/$n/selftests" 0
	expect_out "smp/$n/summary" '^selftest: [1-9][0-9]* passed, 0 failed'
	expect_out "smp/$n/timers" "^smp: $n CPUs online, every other CPU's timer ticks"
	expect_out "smp/$n/watchdog" "$([ $n -gt 1 ] && echo "watchdog: CPU 1 stuck with interrupts off" || echo "one CPU: nobody to watch")"
	expect_no_out "smp/$n/no-failed-cpu" 'did not start|not delivered|took a call'
	expect_out "smp/$n/tlb-shootdown" "^tlb: $n CPUs read 0x[0-9a-f]+ through its new mapping"
	expect_out "smp/$n/kmap-atomic-per-cpu" "^kmap_atomic: $n CPUs, [0-9]+ rounds each, every one in its own slots"
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

# A panic stops every other CPU, each saying where it was.
boot smp-panic --machine q35 --timeout 120 --cmdline 'run="crash panic"' -- -smp 4
expect_rc "smp/panic/fails-run" 1
expect_out "smp/panic/reported" 'Kernel panic: crash command \(CPU 0\)'
for c in 1 2 3; do
	expect_out "smp/panic/cpu$c-stopped" "\] CPU $c stopped at c[0-9a-f]+"
done
expect_out "smp/panic/ap-backtrace" '\[<c[0-9a-f]+>\] ap_main\+0x'

# The lock-order checker on every self-test with four CPUs: the one
# deliberate inversion is reported with both call sites, and no other.
boot smp-lockdep --machine q35 --mem 512M --timeout 300 --cmdline 'lockdep=1 selftest=*' -- -smp 4
expect_rc "smp/lockdep/selftests" 0
expect_out "smp/lockdep/caught" 'lockdep: lock order inversion on CPU [0-9]+: lockdep_test_b \(taken at kernel/smp_selftest.c:[0-9]+\) then lockdep_test_a'
expect_out "smp/lockdep/other-site" 'lockdep:   but earlier lockdep_test_a \(taken at kernel/smp_selftest.c:[0-9]+\) then lockdep_test_b'
n=$(grep -c 'lock order inversion' "$out")
if [ "$n" = 1 ]; then ok "smp/lockdep/only-the-deliberate-one"; else notok "smp/lockdep/only-the-deliberate-one" "$n inversions reported (see $out)"; fi

# lockstat after the torture: the torture lock was found busy.
boot smp-lockstat --machine q35 --timeout 120 --cmdline 'run="selftest kernel/smp/lock_torture; lockstat"' -- -smp 4
expect_rc "smp/lockstat/runs" 0
expect_out "smp/lockstat/header" '^LOCK +CONTENDED +WAIT-US +MAX-US$'
expect_out "smp/lockstat/torture-row" '^torture +[1-9][0-9]* '
