#!/usr/bin/env bash
# mm on pc machines with highmem (1 GiB, 3 GiB): the zones split at
# 896 MiB, every highmem page is reachable through kmap/kmap_atomic.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mm-lib.bash"

mm_selftests pc-1G pc 1G
expect_zone_mib "mm/pc-1G/normal-size" Normal 850 882
expect_zone_mib "mm/pc-1G/highmem-size" HighMem 127 127
expect_out "mm/pc-1G/highmem-verified" 'mm: zone HighMem: 32736 pages allocated, written and verified'

mm_selftests pc-3G pc 3G
expect_zone_mib "mm/pc-3G/highmem-size" HighMem 2175 2175
expect_out "mm/pc-3G/highmem-verified" 'mm: zone HighMem: 557024 pages allocated, written and verified'

# meminfo agrees with what mm/buddy/all_pages measured: the free count of
# every zone before the test, the pages it allocated and verified, and
# the free count after it are one number; the free lists are unchanged.
boot mm-meminfo-vs-test --machine pc --mem 1G --timeout 120 \
	--cmdline 'run="meminfo; selftest mm/buddy/all_pages; meminfo"'
expect_rc "mm/meminfo-vs-test/verdict" 0
for z in DMA Normal HighMem; do
	frees=$(sed -nE "s/^$z +[0-9]+ +([0-9]+) +[0-9]+ +0x.*/\1/p" "$out" | tr '\n' ' ')
	tested=$(sed -nE "s/.*mm: zone $z: ([0-9]+) pages allocated, written and verified.*/\1/p" "$out")
	orders=$(grep -cE "^$z( +[0-9]+){11}$" "$out")
	set -- $frees
	if [ $# -eq 2 ] && [ "$1" = "$2" ] && [ "$1" = "$tested" ]; then
		ok "mm/meminfo-vs-test/$z-free-equals-tested"
	else
		notok "mm/meminfo-vs-test/$z-free-equals-tested" "meminfo free '$frees', test '$tested'"
	fi
	if [ "$orders" -eq 2 ] && [ "$(grep -E "^$z( +[0-9]+){11}$" "$out" | sort -u | wc -l)" -eq 1 ]; then
		ok "mm/meminfo-vs-test/$z-free-lists-unchanged"
	else
		notok "mm/meminfo-vs-test/$z-free-lists-unchanged" "free blocks by order differ (see $out)"
	fi
done
