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
