#!/usr/bin/env bash
# FAT in the kernel, through AHCI, the block layer and the buffer cache.
# Disks: sda FAT12 and sdc FAT32 (writable=), sdb FAT16 (read-only), sdd
# an MBR disk whose second partition is FAT16, sde the hybrid image
# build/kernel.iso (its GPT's EFI system partition is FAT12).  All were
# made on the host by mkfs.fat and filled by mcopy: odd sizes, long
# names, a deep tree, 300 long-named entries, a 3 MiB file.
#  - every one is automounted with type vfat; blkid shows TYPE, UUID, LABEL;
#  - sha256sum of every file equals the host's;
#  - the kernel's writes (fill, write, mkdir, mv across directories, rm,
#    rmdir) on sda and sdc leave fsck.fat -n clean and mtools reading the
#    same bytes and names, FAT[1] marked clean after the shutdown unmount;
#  - in a second boot, every write to a read-only FAT is refused
#    ("read-only file system") and its image stays byte-identical.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin MTOOLS_SKIP_CHECK=1 TZ=UTC

dir=$logdir/fat
rm -rf "$dir" && mkdir -p "$dir/src/Deep/er/and/deeper/still/bottom" "$dir/src/many"
src=$dir/src
{
	for n in 0 1 511 512 513 4097 70000; do python3 tools/fillgen.py $n $n >"$src/size$n.dat"; done
	python3 tools/fillgen.py 3145728 42 >"$src/Big-multi-MiB-file-with-a-long-name.bin"
	echo deep >"$src/Deep/er/and/deeper/still/bottom/A-file-at-the-bottom.txt"
	for i in $(seq 1 300); do echo "$i" >"$src/many/entry-number-$i-with-a-long-name.txt"; done
	mkimg() {	# mkimg IMG TYPE SIZE SPC LABEL
		rm -f "$1" && truncate -s "$3" "$1"
		mkfs.fat -F "$2" -s "$4" -n "$5" -i 1234ABCD "$1" && mcopy -s -i "$1" "$src"/* ::/
	}
	mkimg "$dir/fat12.img" 12 8M 4 SMALL12 &&
	mkimg "$dir/fat16.img" 16 24M 1 FAT16VOL &&
	mkimg "$dir/fat32.img" 32 48M 1 BIG32 &&
	truncate -s 64M "$dir/mbr.img" &&
	printf 'label: dos\nunit: sectors\n\nstart=2048, size=8MiB, type=83\nsize=40MiB, type=e\n' |
		sfdisk -q "$dir/mbr.img" &&
	mkfs.fat -F 16 -s 2 -n INPART --offset 18432 "$dir/mbr.img" $((40 * 1024)) &&
	echo "in a partition" >"$dir/inpart.txt" &&
	mcopy -i "$dir/mbr.img@@$((18432 * 512))" "$dir/inpart.txt" "::/Inside-the-partition.txt"
} >"$dir/make.log" 2>&1 || { notok "fat/images" "mkfs.fat/mcopy failed (see $dir/make.log)"; exit 0; }
iso=build/kernel.iso
[ -f $iso ] || { notok "fat/iso" "$iso missing: run make"; exit 0; }
esp=$(sfdisk -J $iso | python3 -c 'import json,sys
p=json.load(sys.stdin)["partitiontable"]["partitions"]
print([i+1 for i,x in enumerate(p) if x["type"].upper() in ("C12A7328-F81F-11D2-BA4B-00A0C93EC93B","EF")][0])')

files=$(cd "$src" && find . -type f ! -path './many/*' | sed 's|^\./||' | sort)
cmds="mount; blkid sdb; blkid sdd2; blkid sde$esp; ls /sdb/many; ls /sdd2; ls /sde$esp/efi/boot"
for f in $files; do cmds="$cmds; sha256sum /sdb/$f; sha256sum /sdc/$f"; done
cmds="$cmds; sha256sum /sda/Big-multi-MiB-file-with-a-long-name.bin; sha256sum /sdd2/Inside-the-partition.txt"
for d in sda sdc; do
	cmds="$cmds; fill /$d/Written-by-the-kernel.bin 200000 5; mkdir /$d/New-Directory-Long-Name"
	cmds="$cmds; mv /$d/size513.dat /$d/New-Directory-Long-Name/moved-and-renamed.dat"
	cmds="$cmds; mv /$d/Deep/er /$d/New-Directory-Long-Name/er-moved; rm /$d/size1.dat"
	cmds="$cmds; write /$d/size511.dat overwritten; mkdir /$d/gone; rmdir /$d/gone"
	cmds="$cmds; write /$d/many/one-more-entry-in-the-big-directory.txt hello"
done
boot fat --timeout 240 --mem 256M --disk "$dir/fat12.img,bus=ahci" --disk "$dir/fat16.img,bus=ahci" \
	--disk "$dir/fat32.img,bus=ahci" --disk "$dir/mbr.img,bus=ahci" --disk "$iso,bus=ahci,ro" \
	--cmdline "writable=sda,sdc run=\"$cmds\""
expect_rc "fat/verdict" 0
expect_out "fat/fat12_mounted_rw" "^sda on /sda type vfat \(rw\)"
expect_out "fat/fat16_mounted_ro" "^sdb on /sdb type vfat \(ro\)"
expect_out "fat/fat32_mounted_rw" "^sdc on /sdc type vfat \(rw\)"
expect_out "fat/partition_mounted" "^sdd2 on /sdd2 type vfat"
expect_out "fat/iso_esp_mounted" "^sde$esp on /sde$esp type vfat \(ro\)"
expect_out "fat/blkid_fat16" 'TYPE="vfat".*UUID="1234-ABCD".*LABEL="FAT16VOL"|TYPE="vfat".*LABEL="FAT16VOL".*UUID="1234-ABCD"'
expect_out "fat/blkid_partition" '^sdd2:.*TYPE="vfat".*INPART'
expect_out "fat/blkid_iso_esp" "^sde$esp:.*TYPE=\"vfat\""
expect_out "fat/iso_esp_lists_bootx64" '^bootx64\.efi$'
expect_out "fat/partition_lists_file" '^Inside-the-partition\.txt$'
n=$(grep -cE '^entry-number-[0-9]+-with-a-long-name\.txt$' "$out")
if [ "$n" -eq 300 ]; then ok "fat/big_dir_300_entries"; else notok "fat/big_dir_300_entries" "listed $n"; fi
for f in $files; do
	sum=$(sha256sum <"$src/$f" | cut -c1-64)
	expect_out "fat/sha256_fat16/$f" "^$sum  /sdb/$f\$"
	expect_out "fat/sha256_fat32/$f" "^$sum  /sdc/$f\$"
done
expect_out "fat/sha256_fat12_big" "^$(sha256sum <"$src/Big-multi-MiB-file-with-a-long-name.bin" | cut -c1-64)  /sda/"
expect_out "fat/sha256_partition" "^$(sha256sum <"$dir/inpart.txt" | cut -c1-64)  /sdd2/"
expect_no_out "fat/no_fat_errors" "vfat \(.*\): error"

# The host's view of what the kernel wrote.
fill=$(python3 tools/fillgen.py 200000 5 | sha256sum | cut -c1-64)
for d in sda:fat12 sdc:fat32; do
	img=$dir/${d#*:}.img t=${d#*:}
	if fsck.fat -n "$img" >"$dir/fsck-$t.log" 2>&1; then ok "fat/$t/fsck_fat_clean"
	else notok "fat/$t/fsck_fat_clean" "$(tail -3 "$dir/fsck-$t.log" | tr '\n' ' ')"; fi
	got=$(mtype -i "$img" ::/Written-by-the-kernel.bin | sha256sum | cut -c1-64)
	if [ "$got" = "$fill" ]; then ok "fat/$t/mtools_reads_written_file"
	else notok "fat/$t/mtools_reads_written_file" "sha $got"; fi
	if mtype -i "$img" ::/New-Directory-Long-Name/moved-and-renamed.dat | cmp -s - "$src/size513.dat" &&
	   mtype -i "$img" "::/New-Directory-Long-Name/er-moved/and/deeper/still/bottom/A-file-at-the-bottom.txt" |
		cmp -s - "$src/Deep/er/and/deeper/still/bottom/A-file-at-the-bottom.txt"; then
		ok "fat/$t/mtools_reads_renamed"
	else
		notok "fat/$t/mtools_reads_renamed" "content differs"
	fi
	if [ "$(mtype -i "$img" ::/size511.dat)" = overwritten ] &&
	   ! mdir -i "$img" ::/size1.dat >/dev/null 2>&1 && ! mdir -i "$img" ::/gone >/dev/null 2>&1 &&
	   [ "$(mtype -i "$img" ::/many/one-more-entry-in-the-big-directory.txt)" = hello ]; then
		ok "fat/$t/mtools_sees_write_rm_rmdir"
	else
		notok "fat/$t/mtools_sees_write_rm_rmdir" "mtools disagrees"
	fi
done
v=$(python3 tests/images/fatpatch.py "$dir/fat32.img" getfat 1)
if [ $((v & 0x08000000)) -ne 0 ]; then ok "fat/fat32/clean_after_shutdown"
else notok "fat/fat32/clean_after_shutdown" "FAT[1] = $v"; fi

# Read-only: every change refused, the image untouched.
cp "$dir/fat16.img" "$dir/fat16.orig"
boot fat_ro --timeout 120 --mem 256M --disk "$dir/fat16.img,bus=ahci" \
	--cmdline 'run="write /sda/x y; mkdir /sda/d2; rm /sda/size0.dat; mv /sda/size1.dat /sda/s2"'
for c in write mkdir rm mv; do
	expect_out "fat/readonly_$c" "^$c: /sda/[^ ]+( -> [^ ]+)?: read-only file system"
done
if cmp -s "$dir/fat16.img" "$dir/fat16.orig"; then ok "fat/readonly_image_untouched"
else notok "fat/readonly_image_untouched" "the image changed"; fi
