#!/usr/bin/env bash
# 64-bit DMA: with 8 GiB of RAM, stress's buffers are all pages above
# 4 GiB; the HBA reaches them directly (CAP.S64A: zero bounces), and with
# ahci.dma64=0 the block layer bounces them below 4 GiB -- both verify, in
# the guest and from the host.
. "$(dirname "$0")/ahci-lib.bash"

img=$imgdir/dma64.raw
truncate -s 64M "$img"
boot ahci-highmem-dma64 --machine q35 --mem 8G --timeout 180 --disk "$img" \
	--cmdline 'writable=all run="stress sda span=16 seed=3 qd=32 high=1"'
expect_rc "ahci-highmem/dma64-run" 0
expect_out "ahci-highmem/dma64-on" 'ahci0: AHCI .*, 64-bit'
expect_out "ahci-highmem/dma64-verify" 'STRESS sd[a-z] .*result=PASS$'
hp=$(out_value above4g)
if [ "${hp:-0}" -gt 0 ]; then ok "ahci-highmem/dma64-$hp-pages-above-4g"; else notok "ahci-highmem/dma64-pages-above-4g" "above4g=$hp"; fi
b=$(out_value bounces)
if [ "$b" = 0 ]; then ok "ahci-highmem/dma64-zero-bounces"; else notok "ahci-highmem/dma64-zero-bounces" "bounces=$b"; fi
stamp_check "ahci-highmem/dma64-host-verify" "$img" 3 0 16

img=$imgdir/dma32.raw
truncate -s 64M "$img"
boot ahci-highmem-dma32 --machine q35 --mem 8G --timeout 180 --disk "$img" \
	--cmdline 'writable=all ahci.dma64=0 run="stress sda span=16 seed=4 qd=32 high=1"'
expect_rc "ahci-highmem/dma32-run" 0
expect_no_out "ahci-highmem/dma32-forced-off" 'ahci0: AHCI .*, 64-bit'
expect_out "ahci-highmem/dma32-verify" 'STRESS sd[a-z] .*result=PASS$'
b=$(out_value bounces)
if [ "${b:-0}" -gt 0 ]; then ok "ahci-highmem/dma32-$b-bounces"; else notok "ahci-highmem/dma32-bounces" "bounces=$b"; fi
stamp_check "ahci-highmem/dma32-host-verify" "$img" 4 0 16
