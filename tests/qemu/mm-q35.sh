#!/usr/bin/env bash
# mm on q35 with RAM above 4 GiB (4 GiB: 2 above; 8 GiB: 6 above): PAE
# reaches it, HighMem holds it, and every frame up there is allocated,
# mapped, written and verified by mm/buddy/all_pages.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mm-lib.bash"

mm_selftests q35-4G q35 4G
expect_zone_mib "mm/q35-4G/highmem-size" HighMem 3190 3200
expect_out "mm/q35-4G/above-4g-present" 'mm: 524288 pages above 4 GiB'
expect_out "mm/q35-4G/above-4g-verified" 'mm: verified 524288 pages above 4 GiB'

mm_selftests q35-8G q35 8G
expect_zone_mib "mm/q35-8G/highmem-size" HighMem 7290 7300
expect_out "mm/q35-8G/above-4g-present" 'mm: 1572864 pages above 4 GiB'
expect_out "mm/q35-8G/above-4g-verified" 'mm: verified 1572864 pages above 4 GiB'
