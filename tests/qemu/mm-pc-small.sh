#!/usr/bin/env bash
# mm on small pc machines (32 MiB, 128 MiB): every page of every zone
# allocated, written and verified, protection faults, kmap from an
# interrupt; mem= shrinks a big machine; meminfo agrees with the boot report.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mm-lib.bash"

mm_selftests pc-32M pc 32M
expect_zone_mib "mm/pc-32M/normal-size" Normal 14 16
expect_zone_mib "mm/pc-32M/no-highmem" HighMem 0 0

mm_selftests pc-128M pc 128M
expect_zone_mib "mm/pc-128M/normal-size" Normal 105 112
expect_zone_mib "mm/pc-128M/no-highmem" HighMem 0 0

# mem=48M on a 1 GiB machine: no highmem, and the tests still pass.
boot mm-mem-limit --machine pc --mem 1G --timeout 120 --cmdline 'mem=48M selftest=mm/buddy/*'
expect_rc "mm/mem-limit/verdict" 0
expect_out "mm/mem-limit/warned" 'mm: memory map: RAM limited by mem='
expect_out "mm/mem-limit/ram" 'mm: RAM 4[78] MiB'
expect_zone_mib "mm/mem-limit/normal" Normal 28 32
expect_zone_mib "mm/mem-limit/no-highmem" HighMem 0 0

# meminfo's totals are the boot report's, zone by zone, and nothing is in use.
boot mm-meminfo --machine pc --mem 128M --timeout 60 --cmdline 'run=meminfo'
expect_rc "mm/meminfo/verdict" 0
for z in DMA Normal HighMem; do
	boot_n=$(sed -nE "s/.*mm: zone $z +([0-9]+) pages.*/\1/p" "$out" | head -1)
	info_n=$(sed -nE "s/^(\[[ 0-9.]+\] )?$z +([0-9]+) +[0-9]+ +[0-9]+ .*/\2/p" "$out" | head -1)
	if [ -n "$boot_n" ] && [ "$boot_n" = "$info_n" ]; then
		ok "mm/meminfo/$z-total-matches-boot"
	else
		notok "mm/meminfo/$z-total-matches-boot" "boot said '$boot_n', meminfo '$info_n'"
	fi
done
expect_out "mm/meminfo/orders" '^(\[[ 0-9.]+\] )?Zone +0 +1 +2 .* 10$'
expect_out "mm/meminfo/slab" 'kmalloc-131072 +131072'
expect_out "mm/meminfo/kmap" 'kmap: 0 of 512 slots in use, atomic depth 0'
