#!/usr/bin/env bash
# ext2 file data in runs through the kernel's own buffer cache and AHCI:
# the coherence of direct_rw_blocks with cached blocks, judged by the
# host.  On a 1 KiB-block ext2 (sda) and a 4 KiB one (sdb) the kernel
# writes a large file across the indirect boundaries (triple indirect on
# 1 KiB) with a hole in the middle, reads it back before any sync, leaves
# small writes dirty in the cache and overwrites them with large ones,
# writes into a block written directly, and copies at offsets that are not
# block-aligned.  Every sha256sum the kernel prints, before and after a
# remount, must equal the same operations done with dd on the host; after
# poweroff e2fsck -fn must find both clean and debugfs must dump the same
# bytes.  Last, a direct write that fails (blkdebug) must end the file
# where the last good write ended, clean.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

dir=$logdir/fs-extent
rm -rf "$dir" && mkdir -p "$dir/src" "$dir/model"
python3 tools/fillgen.py 300000 5 >"$dir/src/seed"
{
	mke2fs -q -F -t ext2 -b 1024 -d "$dir/src" "$dir/a.img" 96M
	mke2fs -q -F -t ext2 -b 4096 -d "$dir/src" "$dir/b.img" 96M
} >"$dir/make.log" 2>&1 || { notok "fs-extent/images" "mke2fs failed (see $dir/make.log)"; exit 0; }

# The operations, one per line: "fill FILE BYTES SEED", "dd ARGS" or "sum FILE"
# (files relative to the filesystem's root).
ops='fill big 9000001 7
dd if=seed of=big bs=65536 seek=1100 count=2
sum big
dd if=seed of=big bs=100 seek=50 count=30
dd if=seed of=big bs=65536 skip=1 count=3
sum big
dd if=seed of=big bs=10 seek=410 count=1
sum big
dd if=big of=odd bs=65537 skip=1 count=20
sum odd'

# The model: the same operations on host files, and the sums they give.
# (ARGS are split into words on purpose, here and below.)
m=$dir/model
cp "$dir/src/seed" "$m/seed"
# shellcheck disable=SC2086
while read -r op args; do
	case $op in
	fill) set -- $args; python3 tools/fillgen.py "$2" "$3" >"$m/$1" ;;
	dd) (cd "$m" && dd $args conv=notrunc status=none) ;;
	sum) echo "$(sha256sum <"$m/$args" | cut -c1-64) $args" ;;
	esac
done <<<"$ops" >"$dir/want.sums"

cmds=""
for disk in sda sdb; do
	# shellcheck disable=SC2086
	while read -r op args; do
		case $op in
		fill) set -- $args; cmds="$cmds; fill /$disk/$1 $2 $3" ;;
		dd) cmds="$cmds; dd $(echo "$args" | sed "s|if=|if=/$disk/|; s|of=|of=/$disk/|")" ;;
		sum) cmds="$cmds; sha256sum /$disk/$args" ;;
		esac
	done <<<"$ops"
	cmds="$cmds; sync; umount /$disk; mount $disk /re$disk; sha256sum /re$disk/big; sha256sum /re$disk/odd"
done
boot fs-extent --machine q35 --timeout 240 --disk "$dir/a.img,bus=ahci" --disk "$dir/b.img,bus=ahci" \
	--cmdline "writable=all run=\"${cmds#; }; buffers\""
expect_rc "fs-extent/run" 0
expect_out "fs-extent/direct_path_taken" "^buffer cache: .*; direct [1-9][0-9]*$"

for disk in sda sdb; do
	name=fs-extent/$disk
	grep -E "^[0-9a-f]{64}  /$disk/" "$out" | sed "s|  /$disk/| |" >"$dir/$disk.sums"
	cmp -s "$dir/$disk.sums" "$dir/want.sums" && ok "$name/reads_before_sync" ||
		notok "$name/reads_before_sync" "kernel sha256sum differs from the host's dd (see $dir/$disk.sums)"
	for f in big odd; do
		expect_out "$name/after_remount_$f" "^$(sha256sum <"$m/$f" | cut -c1-64)  /re$disk/$f\$"
	done
done
for img in a b; do
	name=fs-extent/$img.img
	if e2fsck -fn "$dir/$img.img" >"$dir/$img.e2fsck" 2>&1; then ok "$name/e2fsck_clean"; else
		notok "$name/e2fsck_clean" "$(tail -3 "$dir/$img.e2fsck" | tr '\n' ' ')"; fi
	for f in big odd; do
		debugfs -R "dump /$f $dir/$img.$f" "$dir/$img.img" >/dev/null 2>&1
		cmp -s "$dir/$img.$f" "$m/$f" && ok "$name/debugfs_dump_$f" ||
			notok "$name/debugfs_dump_$f" "differs from the host's dd"
	done
done

# A direct write that fails: the block that the 501st block of a new file
# gets (found by writing it once) fails every write.  fill must stop with
# an I/O error at that 64 KiB call, and the file must end where the last
# good call ended, holding exactly those bytes, with the failed call's
# blocks given back (e2fsck clean, no block past the end).
mke2fs -q -F -t ext2 -b 4096 -d "$dir/src" "$dir/fail.img" 64M >>"$dir/make.log" 2>&1
cp "$dir/fail.img" "$dir/dry.img"
boot fs-extent-dry --machine q35 --timeout 60 --disk "$dir/dry.img,bus=ahci" \
	--cmdline 'writable=all run="fill /sda/f 3000000 3"'
pb=$(debugfs -R "bmap /f 500" "$dir/dry.img" 2>/dev/null)
[ "${pb:-0}" -gt 0 ] 2>/dev/null && ok "fs-extent/fail/dry_run_mapped" ||
	notok "fs-extent/fail/dry_run_mapped" "no block 500 in the dry run's file (got '$pb')"
printf '[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\nsector = "%s"\nonce = "off"\n' \
	$((${pb:-0} * 8 + 3)) >"$dir/fail.cfg"
boot fs-extent-fail --machine q35 --timeout 60 --cmdline 'writable=all run="fill /sda/f 3000000 3"' \
	-- -drive "if=none,id=bd0,file=blkdebug:$dir/fail.cfg:$dir/fail.img,format=raw,werror=report,rerror=report,cache=unsafe" \
	-device ide-hd,drive=bd0,bus=ide.0
expect_out "fs-extent/fail/reported" "^fill: [^ ]+: I/O error"
good=$((500 / 16 * 65536))	# the 64 KiB calls before the one holding block 500
if e2fsck -fn "$dir/fail.img" >"$dir/fail.e2fsck" 2>&1; then ok "fs-extent/fail/e2fsck_clean"; else
	notok "fs-extent/fail/e2fsck_clean" "$(tail -3 "$dir/fail.e2fsck" | tr '\n' ' ')"; fi
debugfs -R "dump /f $dir/fail.f" "$dir/fail.img" >/dev/null 2>&1
python3 tools/fillgen.py $good 3 | cmp -s - "$dir/fail.f" && ok "fs-extent/fail/ends_after_last_good_call" ||
	notok "fs-extent/fail/ends_after_last_good_call" "not the first $good bytes of fillgen 3"
