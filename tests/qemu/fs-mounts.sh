#!/usr/bin/env bash
# Mounts anywhere and access times, in the kernel on AHCI disks, judged by
# the host's e2fsprogs.  Four whole-disk ext2 images: sda, sdb, sdc
# writable, sdd read-only.  The first boot moves sdb onto /sda/mnt and sdc
# onto /sda/mnt/inner, reads across the mounts and back out through ".."
# (also by a symlink), writes through them, lists the mounts with full
# paths, and reads files and a directory whose atimes debugfs set before
# the boot; power-off must unmount the nested filesystems before the ones
# they sit on.  Afterwards every change must be in the right image, every
# image clean, and each atime follow the relatime rule.  The second boot
# runs the refusals (umount with a mount beneath, rmdir and rename of a
# mount point, mount on a file or twice) and reads a file read in the
# first boot again, which must not write its atime again.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin

d=$logdir/fs-mounts
rm -rf "$d" && mkdir -p "$d"/a/mnt "$d"/a/dir "$d"/a/old_dir "$d"/a/fresh_dir "$d"/b/inner "$d"/c "$d"/d
echo top >"$d/a/top.txt"
for f in old fresh modified twice; do echo "$f" >"$d/a/$f.txt"; done
echo bee >"$d/b/b.txt"
ln -s ../top.txt "$d/b/up"
echo sea >"$d/c/c.txt"
echo old >"$d/d/old.txt"
for i in a b c d; do
	mke2fs -q -F -t ext2 -b 1024 -d "$d/$i" "$d/$i.img" 4M >>"$d/make.log" 2>&1 ||
		{ notok "fs-mounts/images" "mke2fs failed (see $d/make.log)"; exit 0; }
done

# Times by debugfs, relative to now: the guest's clock is the host's.
now=$(date +%s) day=86400
set_times() {	# IMAGE NAME ATIME MTIME CTIME
	printf 'sif /%s atime @%s\nsif /%s mtime @%s\nsif /%s ctime @%s\n' \
		"$2" "$3" "$2" "$4" "$2" "$5" | debugfs -w -f - "$1" >/dev/null 2>&1
}
old=$((now - 2 * day)) hour_ago=$((now - 3600)) long_ago=$((now - 3 * day))
set_times "$d/a.img" old.txt	$old		$long_ago	$long_ago
set_times "$d/a.img" fresh.txt	$hour_ago	$long_ago	$long_ago
set_times "$d/a.img" modified.txt $hour_ago	$((now - 1800))	$long_ago
set_times "$d/a.img" twice.txt	$old		$long_ago	$long_ago
set_times "$d/a.img" old_dir	$old		$long_ago	$long_ago
set_times "$d/a.img" fresh_dir	$hour_ago	$long_ago	$long_ago
set_times "$d/d.img" old.txt	$old		$long_ago	$long_ago
atime() {	# IMAGE NAME: its atime in seconds, as debugfs reads it
	local h
	h=$(debugfs -R "stat /$2" "$1" 2>/dev/null | sed -n 's/^ *atime: 0x\([0-9a-f]*\).*/\1/p')
	echo $((16#${h:-0}))
}

disks=()
for i in a b c d; do disks+=(--disk "$d/$i.img,bus=ahci"); done

cmds="umount /sdb; umount /sdc; mount sdb /sda/mnt; mount sdc /sda/mnt/inner; mount; ls /; df"
cmds+="; cat /sda/mnt/b.txt; cat /sda/mnt/../top.txt; cat /sda/mnt/inner/../../top.txt; cat /sda/mnt/up"
cmds+="; write /sda/mnt/inner/new.txt sea-new; mkdir /sda/mnt/made; ls /sda/mnt/inner/.."
cmds+="; cat /sda/old.txt; cat /sda/fresh.txt; cat /sda/modified.txt; cat /sda/twice.txt"
cmds+="; cat /sda/twice.txt; ls /sda/old_dir; ls /sda/fresh_dir; cat /sdd/old.txt"
t0=$(date +%s)
boot fs-mounts --machine q35 --timeout 120 "${disks[@]}" \
	--cmdline "writable=sda,sdb,sdc run=\"$cmds\""
t1=$(date +%s)
expect_rc "fs-mounts/run" 0
expect_out "fs-mounts/list_root" '^sda on /sda type ext2 \(rw\)$'
expect_out "fs-mounts/list_nested" '^sdb on /sda/mnt type ext2 \(rw\)$'
expect_out "fs-mounts/list_nested_twice" '^sdc on /sda/mnt/inner type ext2 \(rw\)$'
expect_out "fs-mounts/list_readonly" '^sdd on /sdd type ext2 \(ro\)$'
expect_out "fs-mounts/ls_root_shows_mounts_in_it" '^sdd$'
expect_no_out "fs-mounts/ls_root_hides_nested" '^sd[bc]$'
expect_out "fs-mounts/df_full_path" '^sdc .* /sda/mnt/inner$'
expect_out "fs-mounts/read_in_nested" '^bee$'
expect_out "fs-mounts/dotdot_out_of_nested" '^top$'
expect_out "fs-mounts/ls_dotdot_out_of_inner" '^b\.txt$'
expect_no_out "fs-mounts/no_errors" 'error|refused|cannot'

check_img() {	# NAME IMAGE
	if e2fsck -fn "$2" >"$d/$1.e2fsck" 2>&1; then ok "fs-mounts/$1_e2fsck_clean"; else
		notok "fs-mounts/$1_e2fsck_clean" "$(tail -3 "$d/$1.e2fsck" | tr '\n' ' ')"; fi
	if dumpe2fs -h "$2" 2>/dev/null | grep -q '^Filesystem state: *clean$'; then
		ok "fs-mounts/$1_unmounted_at_poweroff"
	else
		notok "fs-mounts/$1_unmounted_at_poweroff" "not marked clean"
	fi
}
for i in a b c d; do check_img "$i" "$d/$i.img"; done
[ "$(debugfs -R 'cat /new.txt' "$d/c.img" 2>/dev/null)" = sea-new ] &&
	ok "fs-mounts/write_lands_in_sdc" || notok "fs-mounts/write_lands_in_sdc" "new.txt"
debugfs -R 'ls /' "$d/b.img" 2>/dev/null | grep -qw made &&
	ok "fs-mounts/mkdir_lands_in_sdb" || notok "fs-mounts/mkdir_lands_in_sdb" "no made"
debugfs -R 'ls /mnt' "$d/a.img" 2>/dev/null | grep -qw made &&
	notok "fs-mounts/covered_dir_untouched" "made in sda" || ok "fs-mounts/covered_dir_untouched"

renewed() {	# NAME IMAGE FILE: atime set during the boot
	local a
	a=$(atime "$2" "$3")
	if [ "$a" -ge "$((t0 - 2))" ] && [ "$a" -le "$((t1 + 2))" ]; then ok "fs-mounts/$1"
	else notok "fs-mounts/$1" "atime $a not within the boot ($t0..$t1)"; fi
}
kept() {	# NAME IMAGE FILE WANT
	local a
	a=$(atime "$2" "$3")
	[ "$a" = "$4" ] && ok "fs-mounts/$1" || notok "fs-mounts/$1" "atime $a, wanted $4"
}
renewed atime_day_old_renewed "$d/a.img" old.txt
kept atime_fresh_kept "$d/a.img" fresh.txt $hour_ago
renewed atime_older_than_mtime_renewed "$d/a.img" modified.txt
renewed atime_listing_renewed "$d/a.img" old_dir
kept atime_fresh_listing_kept "$d/a.img" fresh_dir $hour_ago
kept atime_readonly_mount_kept "$d/d.img" old.txt $old
twice=$(atime "$d/a.img" twice.txt)
renewed atime_first_read_renewed "$d/a.img" twice.txt

# The refusals, each printing its error (so the run fails), and a read of
# twice.txt that must leave its atime alone.
cmds="umount /sdb; umount /sdc; umount /sdd; mount sdb /sda/mnt; mount sdc /sda/mnt/inner"
cmds+="; umount /sda/mnt; umount /sda; rmdir /sda/mnt; mv /sda/mnt /sda/moved; mv /sda/dir /sda/mnt"
cmds+="; mount sdd /sda/top.txt; mount sdd /sda/mnt; mount sdb /sda/dir; mount sdd /sda/nosuch/x"
cmds+="; cat /sda/mnt/inner/../../twice.txt; mount"
boot fs-mounts-refused --machine q35 --timeout 120 "${disks[@]}" \
	--cmdline "writable=sda,sdb,sdc run=\"$cmds\""
expect_rc "fs-mounts/refusals_fail_the_run" 1
want_err() {	# NAME COMMAND ERROR N: the error line appears N times (paths or not)
	local n
	n=$(grep -cE "^$2: ([^ ]+( -> [^ ]+)?: )?$3\$" "$out")
	[ "$n" = "$4" ] && ok "fs-mounts/$1" || notok "fs-mounts/$1" "$n lines '$2: $3', wanted $4"
}
want_err umount_busy_twice umount "device or resource busy" 2
want_err rmdir_mount_point_busy rmdir "device or resource busy" 1
want_err rename_of_and_over_mount_point_busy mv "device or resource busy" 2
want_err mount_on_file mount "not a directory" 1
want_err mount_on_mount_root_or_mounted_device mount "device or resource busy" 2
want_err mount_on_nothing mount "no such file or directory" 1
expect_out "fs-mounts/still_mounted_after_refusals" '^sdc on /sda/mnt/inner type ext2 \(rw\)$'
kept atime_second_read_writes_nothing "$d/a.img" twice.txt "$twice"
for i in a b c; do check_img "$i-after-refusals" "$d/$i.img"; done
