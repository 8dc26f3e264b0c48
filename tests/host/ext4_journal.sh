#!/usr/bin/env bash
# The ext4 journal on the host (fscli: the same VFS, ext2 and fs/jbd2 code
# as the kernel), modelled on ext3_journal.sh, on mkfs.ext4 -O ^extent
# images (file data through block pointers):
#  - "plain": ext4's inode features (huge_file, dir_nlink, extra_isize,
#    flex_bg) with a plain jbd2 journal;
#  - "csum": metadata_csum, so a jbd2 journal with checksum v3 (needs
#    metadata_csum accepted read-write: ext4grp's checksums and gating);
#  - "default": mkfs.ext4's defaults, jbd2 with 64bit and checksum v3 tags
#    (needs extents too, ext4ext's).  The last two are skipped with one
#    line where the mount is refused or read-only.
# Each runs a script through the journal, e2fsck -fn clean after; a copy of
# the image after every operation (a power cut) must replay with e2fsck -fy
# and no other repair, and must replay through our own mount to an image
# e2fsck -fn finds clean.
source "$(dirname "$0")/common.bash"
build_fscli

run() {	# run IMAGE [fscli options] < script: output in $T/out, stderr in $T/err
	local img=$1
	shift
	FSCLI_VERBOSE=1 timeout 300 $FSCLI "$@" "$img" >$T/out 2>$T/err
	rc=$?
}
fy_only_replay() {	# e2fsck -fy replays and repairs nothing else, then -fn is clean
	e2fsck -fy "$1" >$T/fy.out 2>&1
	local st=$?
	[ $st -le 1 ] || { echo "e2fsck -fy exit $st"; cat $T/fy.out; return 1; }
	if grep -v -e '^Pass ' -e '^e2fsck ' -e 'recovering journal' -e 'files (' \
		-e '^$' $T/fy.out | grep -q .; then
		cat $T/fy.out
		return 1
	fi
	e2fsck -fn "$1" >$T/fn.out 2>&1 || { cat $T/fn.out; return 1; }
}

SCRIPT='clock 1700000000 1000
mkdir /d/a
write /d/a/f hello
fill /d/big 300000 3
fsync /d/big
clock 1700000010 2000
mkdir /d/a/b
fill /d/a/b/c 70000 4
mv /d/a/f /d/g
ln /d/g /d/a/hard
truncate /d/big 5000
sync
rm /d/big
fill /d/n 200000 5
fsync /d/n
clock 1700000020 3000
rm /d/a/b/c
rmdir /d/a/b
pwrite /d/g 2 XYZ
fsync /d/g
sha /d/n'

for v in "plain:^extent,^64bit,^metadata_csum,^uninit_bg" "csum:^extent,^64bit" "default:"; do
	name=${v%%:*}
	opts=${v#*:}
	img=$T/$name.img
	rm -f $img
	mkfs.ext4 -q -F -b 4096 -U 01234567-89ab-cdef-0123-456789abcdef ${opts:+-O $opts} $img 32M \
		>/dev/null 2>&1
	i=0
	while IFS= read -r line; do
		echo "$line"
		case $line in clock*) continue ;; esac
		echo "snapshot $T/$name.snap$i"
		i=$((i + 1))
	done <<<"$SCRIPT" >$T/script
	run $img <$T/script
	if [ "$name" != plain ] && grep -q "unsupported features\|mounting read-only" $T/err; then
		ok "$name # SKIP $(grep -o 'unsupported features.*' $T/err | head -1)"
		continue
	fi
	check "$name/ran" test $rc -eq 0
	check "$name/all_ok" sh -c "! grep '^= ' $T/out | grep -vqx '= 0'"
	check "$name/e2fsck_clean" e2fsck -fn $img
	check "$name/recovery_flag_cleared" sh -c "! dumpe2fs -h $img 2>/dev/null | grep -q needs_recovery"
	check "$name/debugfs_g" test "$(debugfs -R 'cat /g' $img 2>/dev/null)" = heXYZ
	debugfs -R "dump /n $T/n.got" $img >/dev/null 2>&1
	check "$name/debugfs_reads_what_was_written" \
		test "$(sha256sum <$T/n.got | cut -d' ' -f1)  /d/n" = "$(grep ' /d/n$' $T/out)"
	bad=0 ours=0 replays=0
	for ((k = 0; k < i; k++)); do
		s=$T/$name.snap$k
		cp $s $s.ours
		if ! fy_only_replay $s >$T/why 2>&1; then
			bad=$((bad + 1))
			notok "$name/cut$k" "$(head -5 $T/why | tr '\n' ' ')"
		fi
		grep -q 'recovering journal' $T/fy.out && replays=$((replays + 1))
		run $s.ours <<<"ls /d"
		if ! grep -qx "mount = 0" $T/out || ! e2fsck -fn $s.ours >$T/why 2>&1; then
			ours=$((ours + 1))
			notok "$name/our_replay_cut$k" "$(grep -v '^Pass\|^e2fsck' $T/why | head -4 | tr '\n' ' ')"
		fi
	done
	check "$name/every_cut_replays_without_repair($i)" test $bad -eq 0
	check "$name/every_cut_replays_through_our_mount($i)" test $ours -eq 0
	check "$name/cuts_had_journals_to_replay" test $replays -gt $((i / 2))
	debugfs -R "dump /big $T/big.got" $T/$name.snap3 >/dev/null 2>&1
	check "$name/fsynced_file_survives_cut" cmp -s $T/big.got <(python3 tools/fillgen.py 300000 3)
	if [ "$name" != plain ]; then
		check "$name/journal_csum_v3" sh -c \
			"dumpe2fs -h $img 2>/dev/null | grep 'Journal features' | grep -q 'journal_checksum_v3'"
	fi
done
