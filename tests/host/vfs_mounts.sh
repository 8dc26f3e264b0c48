#!/usr/bin/env bash
# Mounts on any directory, on the host build of the VFS and ext2 (fscli),
# judged by e2fsprogs: ext2 images mounted inside each other, walks that
# cross into a mount and back out through ".." (also by a symlink), the
# mount list with full paths (also after renaming a directory above a
# mount point), and every refusal: umount with a mount beneath or a file
# open, rmdir/rename of and over a mount point, mounting on a file, on a
# mount's root or on nothing.  Afterwards debugfs must read what was
# written through the mounts in the right image, and every image must be
# clean for e2fsck.
source "$(dirname "$0")/common.bash"
build_fscli

mkdir -p $T/a/mnt $T/a/dir/sub $T/a/empty $T/b/inner $T/c $T/d
echo top > $T/a/top.txt
echo bee > $T/b/b.txt
ln -s ../top.txt $T/b/up
echo sea > $T/c/c.txt
echo dee > $T/d/d.txt
for i in a b c d; do mkimg $T/$i.img 2M $T/$i -b 1024; done

# NAME|RC|COMMAND, run in this order
steps=(
	"mount_b|0|mount $T/b.img /d/mnt"
	"mount_c_in_b|0|mount $T/c.img /d/mnt/inner"
	"list|0|mounts"
	"read_in_b|0|cat /d/mnt/b.txt"
	"dotdot_out_of_b|0|cat /d/mnt/../top.txt"
	"dotdot_out_of_c|0|cat /d/mnt/inner/../b.txt"
	"dotdot_out_of_c_and_b|0|cat /d/mnt/inner/../../top.txt"
	"symlink_leaves_mount|0|cat /d/mnt/up"
	"mount_point_shows_mounted_root|0|stat /d/mnt/inner"
	"umount_mount_beneath_EBUSY|-16|umount /d/mnt"
	"umount_root_fs_EBUSY|-16|umount /d"
	"rmdir_mount_point_EBUSY|-16|rmdir /d/mnt"
	"rmdir_nested_mount_point_EBUSY|-16|rmdir /d/mnt/inner"
	"rename_mount_point_EBUSY|-16|mv /d/mnt /d/moved"
	"rename_over_mount_point_EBUSY|-16|mv /d/empty /d/mnt"
	"mount_on_file_ENOTDIR|-20|mount $T/d.img /d/top.txt"
	"mount_on_mount_root_EBUSY|-16|mount $T/d.img /d/mnt"
	"mount_on_nothing_ENOENT|-2|mount $T/d.img /d/nosuch/x"
	"umount_not_a_mount_EINVAL|-22|umount /d/dir"
	"mount_d_deep|0|mount $T/d.img /d/dir/sub"
	"rename_dir_above_mount|0|mv /d/dir /d/renamed"
	"list_after_rename|0|mounts"
	"read_after_rename|0|cat /d/renamed/sub/d.txt"
	"hold_file|0|open /d/mnt/inner/c.txt"
	"umount_file_open_EBUSY|-16|umount /d/mnt/inner"
	"let_go|0|close"
	"write_in_c|0|write /d/mnt/inner/new.txt sea-new"
	"mkdir_in_b|0|mkdir /d/mnt/made"
	"umount_c|0|umount /d/mnt/inner"
	"umount_b|0|umount /d/mnt"
	"covered_dir_again|0|ls /d/mnt"
	"list_end|0|mounts"
)
for s in "${steps[@]}"; do echo "${s#*|*|}"; done > $T/script
timeout 60 $FSCLI $T/a.img < $T/script > $T/out 2>$T/err
rc=$?
check "mounts/fscli_clean_exit" test $rc -eq 0

# out_of N: what step N printed (lines after the previous "= RC" line)
out_of() { awk -v n="$1" '/^= /{i++; next} i==n-1' $T/out; }
i=0
for s in "${steps[@]}"; do
	i=$((i + 1))
	name=${s%%|*} want=${s#*|}
	want=${want%%|*}
	got=$(grep '^= ' $T/out | sed -n "${i}p")
	[ "$got" = "= $want" ] && ok "mounts/$name" || notok "mounts/$name" "got '$got', wanted '= $want'"
	printf '%s\n' "$(out_of $i)" > $T/out.$name
done

check "mounts/list_full_paths" test "$(cat $T/out.list)" = "$(printf '/d\n/d/mnt\n/d/mnt/inner')"
check "mounts/read_in_b_content" test "$(cat $T/out.read_in_b)" = bee
check "mounts/dotdot_out_of_b_content" test "$(cat $T/out.dotdot_out_of_b)" = top
check "mounts/dotdot_out_of_c_content" test "$(cat $T/out.dotdot_out_of_c)" = bee
check "mounts/dotdot_out_of_c_and_b_content" test "$(cat $T/out.dotdot_out_of_c_and_b)" = top
check "mounts/symlink_leaves_mount_content" test "$(cat $T/out.symlink_leaves_mount)" = top
check "mounts/mount_point_is_root_inode" grep -q '^ino=2 ' $T/out.mount_point_shows_mounted_root
check "mounts/list_follows_rename" test "$(cat $T/out.list_after_rename)" = \
	"$(printf '/d\n/d/mnt\n/d/mnt/inner\n/d/renamed/sub')"
check "mounts/read_after_rename_content" test "$(cat $T/out.read_after_rename)" = dee
check "mounts/covered_dir_again_empty" test "$(awk '{print $NF}' $T/out.covered_dir_again | sort | tr '\n' ' ')" = ". .. "
check "mounts/list_end_paths" test "$(cat $T/out.list_end)" = "$(printf '/d\n/d/renamed/sub')"

# Host oracles: each change is in the image it was made in.
check "mounts/oracle_write_in_c" test "$(debugfs -R 'cat /new.txt' $T/c.img 2>/dev/null)" = sea-new
check "mounts/oracle_mkdir_in_b" sh -c "debugfs -R 'ls /' $T/b.img 2>/dev/null | grep -qw made"
check "mounts/oracle_a_untouched_by_b" sh -c "! debugfs -R 'ls /mnt' $T/a.img 2>/dev/null | grep -qw made"
check "mounts/oracle_rename_in_a" sh -c "debugfs -R 'ls /renamed' $T/a.img 2>/dev/null | grep -qw sub"
for i in a b c d; do
	check "mounts/e2fsck_clean_$i" fsck_clean $T/$i.img
done
