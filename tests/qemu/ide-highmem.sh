#!/usr/bin/env bash
# 8 GiB of RAM on pc: 5 GiB of it above 4 GiB.  The stress takes part of
# its memory from highmem, so some pages lie above 4 GiB, where a PRD's
# 32-bit address cannot reach: with DMA the block layer must bounce them
# (the queue's bounce limit), and the data must still verify, in the guest
# and from the host.  With ide.nodma the PIO path maps those same pages
# with kmap_atomic and nothing is bounced.
. "$(dirname "$0")/lib.bash"

img=$logdir/ide-highmem
rm -rf "$img" && mkdir -p "$img"

# bounces NAME: the bounces column of hda's iostat line in the last boot.
bounces() {
	sed -E 's/^\[ *[0-9.]+\] //' "$out" | awk '$1 == "hda" && $2 ~ /^[0-9]+$/ { print $13 }' | tail -1
}

for mode in dma pio; do
	opts="" sectors=32768 ios=1500
	[ $mode = pio ] && opts="ide.nodma" sectors=16384 ios=800
	truncate -s 64M "$img/$mode.raw"
	boot ide-highmem-$mode --timeout 240 --mem 8G --disk "$img/$mode.raw" \
		--cmdline "writable=hda $opts run=\"stress hda span=${sectors}s ios=$ios seed=9; iostat hda\""
	expect_rc "ide/highmem/$mode/run" 0
	expect_out "ide/highmem/$mode/pass" 'STRESS hda .*bad=0 .*result=PASS$'
	expect_out "ide/highmem/$mode/above-4g-used" 'STRESS hda .*above4g=[1-9][0-9]* '
	n=$(bounces)
	if [ $mode = dma ]; then
		if [ "${n:-0}" -gt 0 ]; then ok "ide/highmem/dma/bounced"; else notok "ide/highmem/dma/bounced" "bounces=${n:-none}"; fi
	else
		if [ "${n:-x}" = 0 ]; then ok "ide/highmem/pio/not-bounced"; else notok "ide/highmem/pio/not-bounced" "bounces=${n:-none}"; fi
	fi
	lba_check "ide/highmem/$mode/host-check" "$img/$mode.raw" 9 0 $sectors --zero $sectors:2048
done
