#!/usr/bin/env bash
# FAT (fs/fat) against damaged and in-use images, on the host build:
#  - the volume dirty flag: FAT[1]'s ClnShutBit is clear while a FAT16 or
#    FAT32 volume is mounted writable (seen from the image file after a
#    sync, with fscli still running) and set again at unmount;
#  - a looping chain and a chain that leaves the volume: that file's reads
#    fail with EUCLEAN ("structure needs cleaning") and an error naming it,
#    the other files read intact, deleting the damaged file frees what it
#    held (fsck.fat -n clean afterwards);
#  - a bad BPB: the mount is refused with the rule it breaks;
#  - garbage long-name entries: ignored, the file shows its short name;
#  - on a partitioned disk, nothing outside the FAT partition changes.
source "$(dirname "$0")/common.bash"
build_fscli
export MTOOLS_SKIP_CHECK=1 TZ=UTC
PATCH="python3 tests/images/fatpatch.py"

fat1_clean() {	# fat1_clean IMG TYPE: is FAT[1]'s ClnShutBit set?
	local v mask
	v=$($PATCH "$1" getfat 1)
	mask=$([ "$2" = 32 ] && echo 0x08000000 || echo 0x8000)
	[ $((v & mask)) -ne 0 ]
}

for t in 16 32; do
	img=$T/dirty$t.img
	rm -f "$img" && truncate -s $([ $t = 16 ] && echo 24M || echo 48M) "$img"
	mkfs.fat -F $t -s 1 "$img" >/dev/null
	check "dirty$t/clean_after_mkfs" fat1_clean "$img" $t
	coproc FS { $FSCLI -t vfat "$img" 2>&1; }
	pid=$FS_PID in=${FS[1]} out=${FS[0]}
	echo "write /d/f x" >&"$in"
	echo "sync" >&"$in"
	n=0
	while read -r -t 60 line <&"$out"; do
		[ "${line#=}" != "$line" ] && n=$((n + 1))
		[ $n -eq 2 ] && break
	done
	if fat1_clean "$img" $t; then notok "dirty$t/dirty_while_mounted" "ClnShutBit still set"
	else ok "dirty$t/dirty_while_mounted"; fi
	exec {in}>&-
	wait "$pid"
	check "dirty$t/clean_after_unmount" fat1_clean "$img" $t
	check "dirty$t/fsck_clean" fsck.fat -n "$img"
done

# A read-only mount leaves FAT[1] (and everything else) alone.
mkfs.fat -F 16 -s 1 "$T/dirty16.img" >/dev/null 2>&1
cp "$T/dirty16.img" $T/ro.orig
echo "ls /d" | $FSCLI -r -t vfat "$T/dirty16.img" >/dev/null 2>&1
check "readonly/image_unchanged" cmp "$T/dirty16.img" $T/ro.orig

# Chains: a loop, and a link past the last cluster.
python3 tools/fillgen.py 20000 5 >$T/a
python3 tools/fillgen.py 9000 6 >$T/b
for t in 12 16 32; do
	for kind in loop pastend; do
		name=$kind$t
		img=$T/$name.img
		rm -f "$img"
		case $t in
		12) truncate -s 8M "$img" && mkfs.fat -F 12 -s 4 "$img" >/dev/null ;;
		16) truncate -s 24M "$img" && mkfs.fat -F 16 -s 1 "$img" >/dev/null ;;
		32) truncate -s 48M "$img" && mkfs.fat -F 32 -s 1 "$img" >/dev/null ;;
		esac
		mcopy -i "$img" $T/a ::/A.BIN && mcopy -i "$img" $T/b ::/B.BIN
		range=$(mshowfat -i "$img" ::/A.BIN | sed 's/.*<\([0-9]*\)-\([0-9]*\)>.*/\1 \2/')
		first=${range% *} last=${range#* }
		read -r _ clusters _ _ <<<"$($PATCH "$img" info)"
		if [ $kind = loop ]; then
			$PATCH "$img" setfat $last $first
		else
			$PATCH "$img" setfat $((first + 1)) $((clusters + 2))
		fi
		printf '%s\n' "sha /d/A.BIN" "sha /d/B.BIN" "ls /d" |
			FSCLI_VERBOSE=1 timeout 60 $FSCLI -r -t vfat "$img" >$T/out 2>&1
		check "$name/no_crash_no_hang" test $? -eq 0
		check "$name/damaged_file_read_fails_EUCLEAN" grep -qx -- "= -117" $T/out
		check "$name/error_names_the_chain" grep -q "cluster chain is corrupt" $T/out
		check "$name/other_file_intact" grep -q "$(sha256sum <$T/b | cut -c1-64)  /d/B.BIN" $T/out
		printf '%s\n' "rm /d/A.BIN" "write /d/C.TXT new" |
			timeout 60 $FSCLI -t vfat "$img" >$T/out 2>&1
		check "$name/rm_damaged_file" test "$(grep -c '^= 0$' $T/out)" -eq 2
		if [ $t != 12 ]; then
			if fat1_clean "$img" $t; then notok "$name/left_dirty_after_errors" "clean bit set"
			else ok "$name/left_dirty_after_errors"; fi
			$PATCH "$img" setfat 1 $([ $t = 32 ] && echo 0x0fffffff || echo 0xffff)
		fi
		if [ $kind = loop ]; then
			check "$name/fsck_clean_after_rm" fsck.fat -n "$img"
		else	# the clusters past the broken link are lost: fsck's to reclaim
			fsck.fat -n "$img" >$T/fsck 2>&1
			check "$name/fsck_finds_only_lost_clusters" \
				sh -c "grep -q Reclaimed $T/fsck && ! grep -q B.BIN $T/fsck"
		fi
		check "$name/other_file_still_intact_mtools" \
			cmp <(mtype -i "$img" ::/B.BIN) $T/b
	done
done

# Bad BPBs: refused with the reason.
for c in "spc3:13 1 3:sectors per cluster" "bps300:11 2 300:no FAT boot sector" \
	 "nofats:16 1 0:" "fatsz:22 2 1:FAT too small" "totsec:32 4 0x7fffffff:larger than its device"; do
	name=${c%%:*} rest=${c#*:}
	patch=${rest%%:*} why=${rest#*:}
	img=$T/bpb.img
	rm -f "$img" && truncate -s 16M "$img" && mkfs.fat -F 16 -s 1 "$img" >/dev/null
	[ "$name" = totsec ] && $PATCH "$img" bpb 19 2 0
	# shellcheck disable=SC2086
	$PATCH "$img" bpb $patch
	cp "$img" $T/bpb.orig
	echo "ls /d" | FSCLI_VERBOSE=1 timeout 60 $FSCLI -t vfat "$img" >$T/out 2>&1
	check "bad_bpb_$name/mount_refused" grep -qx "mount = -22" $T/out
	[ -n "$why" ] && check "bad_bpb_$name/reason_given" grep -qE "(bad boot sector: .*|)$why" $T/out
	check "bad_bpb_$name/nothing_written" cmp "$img" $T/bpb.orig
done

# Garbage long-name entries: an orphan (checksum broken), and junk ones.
img=$T/lfn.img
rm -f "$img" && truncate -s 16M "$img" && mkfs.fat -F 16 -s 1 "$img" >/dev/null
echo one >$T/one
mcopy -i "$img" $T/one "::/Long name number one.txt"
mcopy -i "$img" $T/one "::/Second-long-name.txt"
# root slots: 0,1 the first name's long entries, 2 its short entry, 3-5 the
# second's; the first long entry gets a wrong checksum, slot 6 (past the
# end) a junk long entry with an impossible sequence number.
slot0=$($PATCH "$img" rootget 0)
chk=$(printf '%02x' $(((0x${slot0:26:2} + 1) & 255)))
$PATCH "$img" rootslot 0 "${slot0:0:26}$chk${slot0:28}"
$PATCH "$img" rootslot 6 "5f$(printf 'ff%.0s' $(seq 1 10))0f0077$(printf 'ee%.0s' $(seq 1 18))"
printf '%s\n' "ls /d" "sha /d/LONGNA~1.TXT" "sha /d/Second-long-name.txt" |
	timeout 60 $FSCLI -r -t vfat "$img" >$T/out 2>&1
check "garbage_lfn/no_crash" test $? -eq 0
check "garbage_lfn/orphan_shows_short_name" grep -q " LONGNA~1.TXT$" $T/out
check "garbage_lfn/orphan_file_readable" grep -q "$(sha256sum <$T/one | cut -c1-64)  /d/LONGNA~1.TXT" $T/out
check "garbage_lfn/good_name_still_read" grep -q "  /d/Second-long-name.txt" $T/out

# On a partitioned disk: only the FAT partition's bytes change.
disk=$T/mbr.img
rm -f $disk && truncate -s 64M $disk
printf 'label: dos\nunit: sectors\n\nstart=2048, size=16MiB, type=83\nsize=40MiB, type=c\n' |
	sfdisk -q $disk
off=$(sfdisk -J $disk | python3 -c 'import json,sys; print(json.load(sys.stdin)["partitiontable"]["partitions"][1]["start"])')
mkfs.fat -F 32 -s 1 --offset $off $disk $((40 * 1024)) >/dev/null 2>&1
python3 tools/fillgen.py $((16 * 1024 * 1024)) 3 | dd of=$disk bs=1M seek=1 conv=notrunc 2>/dev/null
python3 tools/fillgen.py 1048576 3 | dd of=$disk bs=512 seek=$((off + 81920)) conv=notrunc 2>/dev/null
cp $disk $T/mbr.orig
printf '%s\n' "fill /d/x 3000000 4" "mkdir /d/dir" "fill /d/dir/y 100000 5" "rm /d/x" |
	$FSCLI -t vfat -o $((off * 512)) -s $((40 * 1024 * 1024)) $disk >$T/out 2>&1
check "partition/writes_clean_exit" test $? -eq 0
check "partition/bytes_before_untouched" cmp -n $((off * 512)) $disk $T/mbr.orig
check "partition/bytes_after_untouched" cmp -i $(((off + 81920) * 512)) $disk $T/mbr.orig
dd if=$disk of=$T/part.img bs=512 skip=$off count=81920 2>/dev/null
check "partition/fsck_clean" fsck.fat -n $T/part.img
