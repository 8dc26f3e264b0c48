#!/usr/bin/env bash
# ext3 (the journal of fs/jbd2) in the kernel over AHCI, judged by e2fsprogs:
#  - mke2fs -t ext3 images (1 KiB and 4 KiB blocks) written and unmounted
#    at poweroff: e2fsck -fn clean, journal empty, needs_recovery cleared,
#    debugfs reads the bytes, `mount` says ext3;
#  - a journal left behind by e2fsprogs' journal writer (Linux's format) is
#    replayed at mount: the host sees the replayed block;
#  - a garbage descriptor refuses the mount with the reason, image untouched;
#  - the kernel stopped mid-workload (a panic right after fsync's SYNCED
#    marker): e2fsck -fy replays the journal and repairs nothing else, and
#    the fsynced file is whole;
#  - jbd2.broken_commit=1 says so loudly at mount.
. "$(dirname "$0")/lib.bash"

mk3() {	# mk3 IMG BLOCKSIZE
	rm -f "$1"
	mke2fs -q -F -t ext3 -b "$2" "$1" 16M >/dev/null 2>&1
}
only_replay() {	# only_replay IMG: e2fsck -fy replays and repairs nothing else, then -fn is clean
	e2fsck -fy "$1" >"$1.fy" 2>&1
	local st=$?
	[ $st -le 1 ] || return 1
	grep -q 'recovering journal' "$1.fy" || return 1
	! grep -v -e '^Pass ' -e '^e2fsck ' -e 'recovering journal' -e 'files (' -e '^$' "$1.fy" | grep -q . ||
		return 1
	e2fsck -fn "$1" >/dev/null 2>&1
}

ops='mount; mkdir /sda/d; mkdir /sda/d/e; write /sda/note written-by-the-kernel;
fill /sda/d/e/big 2000000 7; fill /sda/small 5000; mv /sda/note /sda/d/note;
ln /sda/d/note /sda/hard; ln -s d/e/big /sda/link; rm /sda/small; mkdir /sda/gone;
rmdir /sda/gone; fill /sda/t 300000 3; write /sda/t shrunk; sync; fsync /sda/d/note'
for bs in 1024 4096; do
	name=fs-ext3/b$bs
	img=$logdir/fs-ext3-$bs.img
	mk3 "$img" $bs
	boot fs-ext3-$bs --machine q35 --timeout 240 --disk "$img,bus=ahci" \
		--cmdline "writable=sda run=\"$(echo "$ops" | tr '\n' ' ')\""
	expect_rc "$name/run" 0
	expect_out "$name/mount_says_ext3" '^sda on /sda type ext3 \(rw\)'
	expect_out "$name/fsync_marker" '^SYNCED /sda/d/note$'
	e2fsck -fn "$img" >"$img.fsck" 2>&1 && ok "$name/e2fsck_clean" ||
		notok "$name/e2fsck_clean" "$(tail -3 "$img.fsck" | tr '\n' ' ')"
	dumpe2fs -h "$img" 2>/dev/null | grep -q '^Journal start: *0$' && ok "$name/journal_empty" ||
		notok "$name/journal_empty" "journal start not 0"
	dumpe2fs -h "$img" 2>/dev/null | grep -q needs_recovery &&
		notok "$name/needs_recovery_cleared" "still set" || ok "$name/needs_recovery_cleared"
	[ "$(debugfs -R 'cat /d/note' "$img" 2>/dev/null)" = written-by-the-kernel ] &&
		ok "$name/debugfs_note" || notok "$name/debugfs_note" "content"
	[ "$(debugfs -R 'cat /t' "$img" 2>/dev/null)" = shrunk ] && ok "$name/debugfs_trunc" ||
		notok "$name/debugfs_trunc" "content"
	debugfs -R "dump /d/e/big $img.big" "$img" >/dev/null 2>&1
	python3 tools/fillgen.py 2000000 7 | cmp -s - "$img.big" && ok "$name/debugfs_big" ||
		notok "$name/debugfs_big" "content differs from tools/fillgen.py"
done

# A journal written by debugfs (jo/jw/jc): replayed at the boot's automount.
img=$logdir/fs-ext3-linux.img
mk3 "$img" 1024
head -c 3072 /dev/urandom >"$img.orig"
python3 -c "import sys; sys.stdout.buffer.write(b'REPLAYED' * 128)" >"$img.new"
debugfs -w -R "write $img.orig f" "$img" >/dev/null 2>&1
B=$(debugfs -R 'bmap /f 1' "$img" 2>/dev/null)
printf 'jo\njw -b %s %s\njc\n' "$B" "$img.new" | debugfs -w "$img" -f - >/dev/null 2>&1
cp "$img" "$img.bad"
boot fs-ext3-linux --machine q35 --timeout 120 --disk "$img,bus=ahci" \
	--cmdline 'writable=sda run="mount; sha256sum /sda/f"'
expect_rc fs-ext3/linux-journal/run 0
expect_out fs-ext3/linux-journal/said_recovered 'ext3 \(sda\): recovered the journal: transactions 1\.\.1, 1 blocks'
want=$( { head -c 1024 "$img.orig"; cat "$img.new"; tail -c 1024 "$img.orig"; } | sha256sum | cut -d' ' -f1)
expect_out fs-ext3/linux-journal/replayed_content "^$want  /sda/f"
e2fsck -fn "$img" >/dev/null 2>&1 && ok fs-ext3/linux-journal/e2fsck_clean ||
	notok fs-ext3/linux-journal/e2fsck_clean "after replay"

# The same journal with a garbage descriptor: refused, untouched.
img=$img.bad
p=$(debugfs -R 'bmap <8> 1' "$img" 2>/dev/null)
printf '\xff\xff\xff\x00' | dd of="$img" bs=1 seek=$((p * 1024 + 12)) conv=notrunc status=none
cp "$img" "$img.before"
boot fs-ext3-corrupt --machine q35 --timeout 120 --disk "$img,bus=ahci" \
	--cmdline 'writable=sda run="mount"'
expect_out fs-ext3/corrupt/reason 'ext3 \(sda\): the journal is corrupt: a tag names a block outside the filesystem; nothing replayed'
expect_no_out fs-ext3/corrupt/not_mounted '^sda on '
cmp -s "$img" "$img.before" && ok fs-ext3/corrupt/image_untouched ||
	notok fs-ext3/corrupt/image_untouched "the kernel wrote to a refused filesystem"

# Stopped mid-workload right after fsync said SYNCED; broken_commit says so.
img=$logdir/fs-ext3-crash.img
mk3 "$img" 1024
boot fs-ext3-crash --machine q35 --timeout 120 --disk "$img,bus=ahci" \
	--cmdline 'writable=sda jbd2.commit=1 jbd2.broken_commit=1 run="mkdir /sda/d; fill /sda/d/a 400000 2; mv /sda/d /sda/d2; fsync /sda/d2/a; write /sda/later x; crash panic"'
expect_out fs-ext3/crash/broken_commit_is_loud 'TEST MODE jbd2.broken_commit=1'
expect_out fs-ext3/crash/synced '^SYNCED /sda/d2/a$'
only_replay "$img" && ok fs-ext3/crash/e2fsck_only_replays ||
	notok fs-ext3/crash/e2fsck_only_replays "$(head -8 "$img.fy" | tr '\n' ' ')"
debugfs -R "dump /d2/a $img.a" "$img" >/dev/null 2>&1
python3 tools/fillgen.py 400000 2 | cmp -s - "$img.a" && ok fs-ext3/crash/fsynced_file_whole ||
	notok fs-ext3/crash/fsynced_file_whole "content after replay"

# An idle shell still commits: a write typed at the prompt, then nothing.
# Within the commit interval (1 s here) the transaction reaches the log:
# the host, polling copies of the live image, finds that replaying the
# journal gives the file -- while the kernel is still running, unmounted
# never.  Bounded by 60 s of polling.
name=fs-ext3/idle-commit
img=$logdir/fs-ext3-idle.img
mk3 "$img" 4096
printf 'write /sda/typed typed-at-the-prompt\r' >"$logdir/fs-ext3-idle.in"
tools/run-qemu --machine q35 --timeout 120 --disk "$img,bus=ahci" --input "$logdir/fs-ext3-idle.in" \
	--cmdline 'writable=sda jbd2.commit=1' >"$logdir/fs-ext3-idle.out" 2>&1 &
qpid=$!
found=0
for _ in $(seq 1 120); do
	cp --sparse=always "$img" "$img.copy"
	if e2fsck -fy "$img.copy" >/dev/null 2>&1; [ $? -le 1 ] &&
	   [ "$(debugfs -R 'cat /typed' "$img.copy" 2>/dev/null)" = typed-at-the-prompt ]; then
		found=1
		break
	fi
	sleep 0.5
done
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
if [ $found = 1 ]; then ok "$name/durable-while-idle"; else
	notok "$name/durable-while-idle" "the journal never held /typed (see $logdir/fs-ext3-idle.out)"; fi
