#!/usr/bin/env bash
# ext2 through a real disk driver, judged by the host's own tools: the
# kernel writes to the demo disks (AHCI and virtio on q35, IDE on pc), powers off, and
# the host's e2fsck finds each filesystem clean and consistent, and debugfs
# reads back exactly the bytes the kernel wrote.
. "$(dirname "$0")/lib.bash"

demo=$logdir/fs-disk-demo
tools/mkdemo "$demo" >/dev/null
ops='write /P/note.txt written-by-the-kernel; mkdir /P/d; mkdir /P/d/e;
cp /P/random.bin /P/d/e/copy.bin; cp /P/README /P/d; fill /P/d/filled.bin 3000000 11;
fill /P/d/seed1.bin 5000;
mv /P/hello.txt /P/d/hello.txt; ln -s d/e/copy.bin /P/link; ln /P/README /P/d/hard;
rm /P/docs/numbers.txt; write /P/grow.txt a; dd if=/P/random.bin of=/P/grow.txt bs=4096 seek=100 count=3'

check_fs() {	# NAME IMAGE OFFSET_BYTES
	local name=$1 img=$2 off=$3 fs="$2?offset=$3"
	local f=$logdir/${name//\//-}	# files of this check
	if e2fsck -fn "$fs" >"$f.e2fsck" 2>&1; then
		ok "$name/e2fsck-clean"
	else
		notok "$name/e2fsck-clean" "e2fsck -fn: $(tail -3 "$f.e2fsck" | tr '\n' ' ')"
	fi
	if dumpe2fs -h "$fs" 2>/dev/null | grep -q '^Filesystem state: *clean$'; then
		ok "$name/marked-clean"
	else
		notok "$name/marked-clean" "not marked clean: no unmount at poweroff?"
	fi
	local got want
	got=$(debugfs -R 'cat /note.txt' "$fs" 2>/dev/null)
	[ "$got" = "written-by-the-kernel" ] && ok "$name/write" || notok "$name/write" "got '$got'"
	debugfs -R 'dump /d/e/copy.bin '"$f.copy" "$fs" >/dev/null 2>&1
	debugfs -R 'dump /random.bin '"$f.orig" "$fs" >/dev/null 2>&1
	cmp -s "$f.copy" "$f.orig" && ok "$name/cp" || notok "$name/cp" "copy differs"
	[ "$(debugfs -R 'cat /d/README' "$fs" 2>/dev/null)" = "$(debugfs -R 'cat /README' "$fs" 2>/dev/null)" ] &&
		ok "$name/cp-into-dir" || notok "$name/cp-into-dir" "/d/README is not /README"
	debugfs -R 'dump /d/filled.bin '"$f.fill" "$fs" >/dev/null 2>&1
	python3 tools/fillgen.py 3000000 11 | cmp -s - "$f.fill" && ok "$name/fill" ||
		notok "$name/fill" "fill content differs from tools/fillgen.py"
	debugfs -R 'dump /d/seed1.bin '"$f.seed1" "$fs" >/dev/null 2>&1
	python3 tools/fillgen.py 5000 1 | cmp -s - "$f.seed1" && ok "$name/fill-default-seed" ||
		notok "$name/fill-default-seed" "fill without SEED is not seed 1"
	debugfs -R 'stat /link' "$fs" 2>/dev/null | grep -q 'Fast link dest: "d/e/copy.bin"' &&
		ok "$name/symlink" || notok "$name/symlink" "symlink target"
	[ "$(debugfs -R 'stat /README' "$fs" 2>/dev/null | sed -n 's/.*Links: \([0-9]*\).*/\1/p')" = 2 ] &&
		ok "$name/hardlink" || notok "$name/hardlink" "links count"
	debugfs -R 'ls /docs' "$fs" 2>/dev/null | grep -q numbers.txt && notok "$name/rm" "still there" ||
		ok "$name/rm"
	got=$(debugfs -R 'cat /d/hello.txt' "$fs" 2>/dev/null)
	[ "$got" = "hello from the demo disk" ] && ok "$name/mv" || notok "$name/mv" "got '$got'"
	# grow.txt: "a", a hole, then 3 blocks of random.bin at block 100
	debugfs -R 'dump /grow.txt '"$f.grow" "$fs" >/dev/null 2>&1
	want=$( { printf a; head -c $((409600 - 1)) /dev/zero; head -c 12288 "$f.orig"; } | sha256sum)
	[ "$(sha256sum <"$f.grow")" = "$want" ] && ok "$name/sparse-dd" ||
		notok "$name/sparse-dd" "grow.txt content"
}

cp "$demo/ahci0.img" "$logdir/fs-disk-ahci.img"
boot fs-disk-ahci --machine q35 --timeout 180 --disk "$logdir/fs-disk-ahci.img,bus=ahci" \
	--cmdline "writable=sda run=\"$(echo "$ops" | tr '\n' ' ' | sed 's|/P|/sda2|g')\""
expect_rc "fs-disk/ahci/run" 0
check_fs fs-disk/ahci "$logdir/fs-disk-ahci.img" $((18432 * 512))

# The same GPT disk on virtio-blk (vda2), through blk-mq.
cp "$demo/ahci0.img" "$logdir/fs-disk-virtio.img"
boot fs-disk-virtio --machine q35 --timeout 180 --disk "$logdir/fs-disk-virtio.img,bus=virtio" \
	--cmdline "writable=vda run=\"$(echo "$ops" | tr '\n' ' ' | sed 's|/P|/vda2|g')\""
expect_rc "fs-disk/virtio/run" 0
check_fs fs-disk/virtio "$logdir/fs-disk-virtio.img" $((18432 * 512))

cp "$demo/ide0.img" "$logdir/fs-disk-ide.img"

# The IDE disk: ext2 with 1 KiB blocks in a logical partition (hda5).
cp "$demo/ide0.img" "$logdir/fs-disk-ide.img"
boot fs-disk-ide --machine pc --timeout 180 --disk "$logdir/fs-disk-ide.img,bus=ide" \
	--cmdline "writable=hda run=\"cp /hda5/numbers.txt /hda5/n2; write /hda5/note.txt written-by-the-kernel; fill /hda5/f.bin 1500000 5; rm /hda5/hello.txt\""
expect_rc "fs-disk/ide/run" 0
fs="$logdir/fs-disk-ide.img?offset=$((36864 * 512))"
if e2fsck -fn "$fs" >"$logdir/fs-disk-ide.e2fsck" 2>&1; then ok "fs-disk/ide/e2fsck-clean"; else
	notok "fs-disk/ide/e2fsck-clean" "$(tail -3 "$logdir/fs-disk-ide.e2fsck" | tr '\n' ' ')"; fi
[ "$(debugfs -R 'cat /note.txt' "$fs" 2>/dev/null)" = written-by-the-kernel ] && ok "fs-disk/ide/write" ||
	notok "fs-disk/ide/write" "note.txt"
[ "$(debugfs -R 'cat /n2' "$fs" 2>/dev/null | sha256sum)" = "$(seq 1 500 | sha256sum)" ] &&
	ok "fs-disk/ide/cp" || notok "fs-disk/ide/cp" "n2 differs"
debugfs -R "dump /f.bin $logdir/fs-disk-ide.fill" "$fs" >/dev/null 2>&1
python3 tools/fillgen.py 1500000 5 | cmp -s - "$logdir/fs-disk-ide.fill" && ok "fs-disk/ide/fill" ||
	notok "fs-disk/ide/fill" "f.bin differs from tools/fillgen.py"
debugfs -R 'ls /' "$fs" 2>/dev/null | grep -q hello.txt && notok "fs-disk/ide/rm" "still there" || ok "fs-disk/ide/rm"
