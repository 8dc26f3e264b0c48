#!/usr/bin/env bash
# The ext3 journal against e2fsprogs, on the host (fscli: the same VFS,
# ext2 and fs/jbd2 code as the kernel, over an image file).
#  - mke2fs -t ext3 images (1 KiB and 4 KiB blocks) written through the
#    journal: e2fsck -fn clean after unmount, needs_recovery cleared,
#    debugfs reads the bytes written;
#  - power cuts: a copy of the image taken after every operation (what the
#    disk holds, nothing of the cache) must replay with e2fsck -fy and no
#    other repair, then be clean; what fsync/sync had made durable is there;
#  - a journal written by e2fsprogs' debugfs (jo/jw/jc, the format Linux
#    writes; plain, v1 and v3 checksums) is replayed at mount exactly as
#    e2fsck replays it; an uncommitted transaction is not (revokes: see the
#    unit tests, debugfs cannot write one that survives);
#  - corrupt journals (bad commit checksum, a garbage descriptor) refuse
#    the mount with the reason and leave the image byte-identical.
source "$(dirname "$0")/common.bash"
build_fscli

run() {	# run IMAGE [fscli options] < script: output in $T/out, status in $rc
	local img=$1
	shift
	FSCLI_VERBOSE=1 timeout 120 $FSCLI "$@" "$img" >$T/out 2>$T/err
	rc=$?
}
mk3() {	# mk3 IMG SIZE BLOCKSIZE [more mke2fs options]
	local img=$1 size=$2 bs=$3
	shift 3
	rm -f "$img"
	mke2fs -q -F -t ext3 -b "$bs" -U 01234567-89ab-cdef-0123-456789abcdef "$@" "$img" "$size" \
		>/dev/null 2>&1
}
# fy_only_replay IMG: e2fsck -fy replays and repairs nothing else, then -fn is clean
fy_only_replay() {
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

SCRIPT='mkdir /d/a
write /d/a/f hello
fill /d/big 300000 3
fsync /d/big
mkdir /d/a/b
fill /d/a/b/c 70000 4
mv /d/a/f /d/g
ln /d/g /d/a/hard
symlink /d/long/long/long/long/long/long/long/long/long/long/long/long/long/target /d/s
truncate /d/big 5000
sync
rm /d/big
fill /d/n 200000 5
fsync /d/n
rm /d/a/b/c
rmdir /d/a/b
mkdir /d/many
mkdirs /d/many 60
pwrite /d/g 2 XYZ
fsync /d/g
truncate /d/n 100
fill /d/n 50000 6 4096
rm /d/a/hard
sha /d/n'

for v in "b1k:1024" "b4k:4096" "b1k_small_cache:1024:-c 48"; do
	name=${v%%:*}
	rest=${v#*:}
	bs=${rest%%:*}
	opt=
	[ "$rest" != "$bs" ] && opt=${rest#*:}
	img=$T/$name.img
	mk3 $img 16M $bs
	# a snapshot after every operation
	i=0
	while IFS= read -r line; do
		echo "$line"
		echo "snapshot $T/$name.snap$i"
		i=$((i + 1))
	done <<<"$SCRIPT" >$T/script
	# shellcheck disable=SC2086
	run $img $opt <$T/script
	check "$name/ran" test $rc -eq 0
	check "$name/all_ok" sh -c "! grep '^= ' $T/out | grep -vqx '= 0'"
	check "$name/e2fsck_clean" e2fsck -fn $img
	check "$name/recovery_flag_cleared" sh -c "! dumpe2fs -h $img 2>/dev/null | grep -q needs_recovery"
	check "$name/journal_empty" sh -c "dumpe2fs -h $img 2>/dev/null | grep -q '^Journal start: *0$'"
	check "$name/debugfs_g" test "$(debugfs -R 'cat /g' $img 2>/dev/null)" = heXYZ
	debugfs -R "dump /n $T/n.got" $img >/dev/null 2>&1
	check "$name/debugfs_reads_what_was_written" \
		test "$(sha256sum <$T/n.got | cut -d' ' -f1)  /d/n" = "$(grep ' /d/n$' $T/out)"
	bad=0 replays=0
	for ((k = 0; k < i; k++)); do
		s=$T/$name.snap$k
		if ! fy_only_replay $s >$T/why 2>&1; then
			bad=$((bad + 1))
			notok "$name/cut$k" "$(head -5 $T/why | tr '\n' ' ')"
		fi
		grep -q 'recovering journal' $T/fy.out && replays=$((replays + 1))
	done
	check "$name/every_cut_replays_without_repair($i)" test $bad -eq 0
	check "$name/cuts_had_journals_to_replay" test $replays -gt $((i / 2))
	# after "fsync /d/big" (operation 4) the file is there, whole
	debugfs -R "dump /big $T/big.got" $T/$name.snap3 >/dev/null 2>&1
	check "$name/fsynced_file_survives_cut" cmp -s $T/big.got <(python3 tools/fillgen.py 300000 3)
	debugfs -R "dump /n $T/n2.got" $T/$name.snap13 >/dev/null 2>&1
	check "$name/fsynced_file2_survives_cut" cmp -s $T/n2.got <(python3 tools/fillgen.py 200000 5)
	check "$name/fsynced_overwrite_survives_cut" \
		test "$(debugfs -R 'cat /g' $T/$name.snap19 2>/dev/null)" = heXYZ
	rm -f $T/$name.snap*
done

# A journal written by debugfs (e2fsprogs' journal writer, Linux's format).
linux_journal() {	# linux_journal IMG BLOCKSIZE MKE2FS_OPTS [jo options]: /f's block 1 rewritten in the log
	local img=$1 bs=$2 mkopt=$3
	shift 3
	# shellcheck disable=SC2086
	mk3 $img 16M $bs $mkopt
	head -c $((bs * 3)) /dev/urandom >$T/orig.bin
	python3 -c "import sys; sys.stdout.buffer.write(b'NEWDATA!' * ($bs // 8))" >$T/new.bin
	debugfs -w -R "write $T/orig.bin f" $img >/dev/null 2>&1
	B=$(debugfs -R 'bmap /f 1' $img 2>/dev/null)
	debugfs -w $img -f - >/dev/null 2>&1 <<-EOF
	jo $*
	jw -b $B $T/new.bin
	jc
	EOF
	cp $T/orig.bin $T/want.bin
	dd if=$T/new.bin of=$T/want.bin bs=$bs seek=1 conv=notrunc status=none
}
# csum_v1: jo -c on ext3 (v1 commit checksums, ignored as a compat feature);
# csum_v3: with metadata_csum (crc32c everywhere; the filesystem itself then
# mounts read-only, metadata_csum being unsupported, but the replay runs).
for v in "plain:1024::" "b4k:4096::" "csum_v1:1024::-c" "csum_v3:1024:-O metadata_csum:-c"; do
	IFS=: read -r name bs mkopt jopt <<<"$v"
	img=$T/lj.img
	# shellcheck disable=SC2086
	linux_journal $img $bs "$mkopt" $jopt
	check "linux_journal_$name/needs_recovery" sh -c "dumpe2fs -h $img 2>/dev/null | grep -q needs_recovery"
	cp $img $T/lj_e2fsck.img
	run $img < <(echo "sha /d/f")
	check "linux_journal_$name/mounted" grep -qx "mount = 0" $T/out
	check "linux_journal_$name/said_recovered" grep -q "recovered the journal" $T/err
	check "linux_journal_$name/replayed_block" test "$(sha256sum <$T/want.bin | cut -d' ' -f1)  /d/f" = "$(sed -n 2p $T/out)"
	check "linux_journal_$name/e2fsck_clean" e2fsck -fn $img
	e2fsck -fy $T/lj_e2fsck.img >/dev/null 2>&1
	debugfs -R "dump /f $T/f1" $img >/dev/null 2>&1
	debugfs -R "dump /f $T/f2" $T/lj_e2fsck.img >/dev/null 2>&1
	check "linux_journal_$name/same_as_e2fsck_replay" cmp -s $T/f1 $T/f2
done

# An uncommitted transaction (jw -c) is not replayed.
img=$T/unc.img
mk3 $img 16M 1024
head -c 3072 /dev/urandom >$T/orig.bin
python3 -c "import sys; sys.stdout.buffer.write(b'NEWDATA!' * 128)" >$T/new.bin
debugfs -w -R "write $T/orig.bin f" $img >/dev/null 2>&1
B=$(debugfs -R 'bmap /f 1' $img 2>/dev/null)
debugfs -w $img -f - >/dev/null 2>&1 <<JOURNAL
jo
jw -b $B -c $T/new.bin
jc
JOURNAL
run $img < <(echo "sha /d/f")
check "uncommitted/mounted" grep -qx "mount = 0" $T/out
check "uncommitted/not_replayed" test "$(sha256sum <$T/orig.bin | cut -d' ' -f1)  /d/f" = "$(sed -n 2p $T/out)"
check "uncommitted/e2fsck_clean" e2fsck -fn $img

# Corrupt journals: refused, reason given, image untouched.
corrupt() {	# corrupt NAME LOGBLOCK OFFSET: flip a byte of a journal block, expect refusal
	local name=$1 lb=$2 off=$3 img=$T/bad.img p
	p=$(debugfs -R "bmap <8> $lb" $img 2>/dev/null)
	python3 -c 'import sys; f=open(sys.argv[1],"r+b"); o=int(sys.argv[2]); f.seek(o); b=f.read(1); f.seek(o); f.write(bytes([b[0]^0xff]))' \
		$img $((p * 1024 + off))
	cp $img $T/bad.orig
	run $img < <(echo "ls /d")
	check "$name/refused" grep -qx "mount = -22" $T/out
	check "$name/reason" grep -q "journal is corrupt" $T/err
	check "$name/image_untouched" cmp -s $img $T/bad.orig
}
linux_journal $T/bad.img 1024 "-O metadata_csum" -c
corrupt corrupt_commit_checksum 3 16		# log: 1 descriptor, 2 copy, 3 commit
linux_journal $T/bad.img 1024 ""
corrupt garbage_descriptor 1 12			# the first tag's block number

# Blocks freed by the running transaction are not reused before it
# commits: a cut after "fsync A; rm A; write B" must leave A as synced.
img=$T/reuse.img
mk3 $img 16M 1024
run $img <<SCRIPT
fill /d/A 50000 8
fsync /d/A
rm /d/A
fill /d/B 50000 9
snapshot $T/reuse.cut
SCRIPT
check "freed_not_reused/ran" test $rc -eq 0
check "freed_not_reused/replays" fy_only_replay $T/reuse.cut
debugfs -R "dump /A $T/A.got" $T/reuse.cut >/dev/null 2>&1
check "freed_not_reused/synced_file_intact" cmp -s $T/A.got <(python3 tools/fillgen.py 50000 8)
check "freed_not_reused/e2fsck_clean_after_unmount" e2fsck -fn $img
