#!/usr/bin/env bash
# Access times by the relatime rule, on the host build of the VFS and ext2
# (fscli, whose clock the script sets), judged by debugfs: reading a file
# or listing a directory stores the clock's time as atime only if the old
# one is not after mtime, not after ctime, or a day old; a second read
# stores nothing; a read-only mount stores nothing at all (the image stays
# byte-identical); e2fsck finds the image clean afterwards.
source "$(dirname "$0")/common.bash"
build_fscli

now=1750000000
day=86400
mkdir -p $T/src/old_dir $T/src/fresh_dir
for f in old fresh modified changed twice; do echo "$f" > $T/src/$f; done
mkimg $T/img 2M $T/src -b 1024

# set NAME ATIME MTIME CTIME: the inode's times, by debugfs
set_times() {
	debugfs -w -f - $T/img >/dev/null 2>&1 <<-END
	sif /$1 atime @$2
	sif /$1 mtime @$3
	sif /$1 ctime @$4
	END
}
# atime NAME: the inode's atime as debugfs reads it, in seconds
atime() {
	debugfs -R "stat /$1" $T/img 2>/dev/null |
		sed -n 's/^ *atime: 0x\([0-9a-f]*\).*/\1/p' | { read -r h; echo $((16#$h)); }
}
mtime() {
	debugfs -R "stat /$1" $T/img 2>/dev/null |
		sed -n 's/^ *mtime: 0x\([0-9a-f]*\).*/\1/p' | { read -r h; echo $((16#$h)); }
}

set_times old		$((now - 2 * day))	$((now - 3 * day))	$((now - 3 * day))
set_times fresh		$((now - 3600))		$((now - 3 * day))	$((now - 3 * day))
set_times modified	$((now - 3600))		$((now - 1800))		$((now - 3 * day))
set_times changed	$((now - 3600))		$((now - 3 * day))	$((now - 1800))
set_times twice		$((now - 2 * day))	$((now - 3 * day))	$((now - 3 * day))
set_times old_dir	$((now - 2 * day))	$((now - 3 * day))	$((now - 3 * day))
set_times fresh_dir	$((now - 3600))		$((now - 3 * day))	$((now - 3 * day))

# A read-only mount first: nothing may change.
cp $T/img $T/orig
printf '%s\n' "clock $now" "cat /d/old" "ls /d/old_dir" | timeout 60 $FSCLI -r $T/img >$T/out.ro 2>&1
check "atime/readonly_mount_ok" test $? -eq 0
check "atime/readonly_mount_writes_nothing" cmp -s $T/img $T/orig

printf '%s\n' "clock $now" "cat /d/old" "cat /d/fresh" "cat /d/modified" "cat /d/changed" \
	"ls /d/old_dir" "ls /d/fresh_dir" "cat /d/twice" "clock $((now + 60))" "cat /d/twice" \
	| timeout 60 $FSCLI $T/img >$T/out 2>&1
check "atime/fscli_clean_exit" test $? -eq 0

want() {	# want NAME ATIME WHY
	local got
	got=$(atime "$1")
	[ "$got" = "$2" ] && ok "atime/$1_$3" || notok "atime/$1_$3" "atime $got, wanted $2"
}
want old	$now			day_old_renewed
want fresh	$((now - 3600))		fresh_kept
want modified	$now			older_than_mtime_renewed
want changed	$now			older_than_ctime_renewed
want old_dir	$now			listing_renewed
want fresh_dir	$((now - 3600))		fresh_listing_kept
want twice	$now			second_read_writes_nothing
check "atime/mtime_untouched_by_read" test "$(mtime old)" = $((now - 3 * day))
check "atime/e2fsck_clean" fsck_clean $T/img
