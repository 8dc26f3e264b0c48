#!/usr/bin/env bash
# ext2 in the kernel, through the real buffer cache, block layer and RAM
# disks: two images made by mke2fs -d are loaded as multiboot modules
# (ram0 writable, ram1 not).  At boot both are mounted at /ram0 and /ram1;
# the kernel's sha256sum of every file must equal the host's, `fill` must
# write what tools/fillgen.py makes, namespace changes must work on ram0,
# every write to ram1 must be refused with "read-only file system", and
# ram1's UUID and label must show in blkid and mount it by UUID=.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

img=$logdir/fs_ext2
rm -rf "$img" && mkdir -p "$img/src/d/e"
{
	for n in 0 1 1024 4097 13000 300000; do python3 tools/fillgen.py $n $n >"$img/src/f$n"; done
	echo hello >"$img/src/d/e/hello"
	ln -s d/e/hello "$img/src/link"
	mke2fs -q -F -t ext2 -b 1024 -d "$img/src" "$img/a.img" 16M
	mke2fs -q -F -t ext2 -b 4096 -I 256 -U 11111111-2222-3333-4444-555555555555 -L beta \
		-d "$img/src" "$img/b.img" 16M
} >"$img/make.log" 2>&1 || { notok "fs_ext2/images" "mke2fs failed (see $img/make.log)"; exit 0; }

cmds="mount"
for f in f0 f1 f1024 f4097 f13000 f300000 link; do
	cmds="$cmds; sha256sum /ram0/$f; sha256sum /ram1/$f"
done
cmds="$cmds; fill /ram0/new 200000 5; sha256sum /ram0/new; mkdir /ram0/nd; mv /ram0/new /ram0/nd/moved"
cmds="$cmds; ln -s nd/moved /ram0/sl; sha256sum /ram0/sl; rm /ram0/f13000; sync; umount /ram0"
cmds="$cmds; mount ram0 /again; sha256sum /again/nd/moved; ls /again"
cmds="$cmds; blkid ram1; umount /ram1; mount UUID=11111111-2222-3333-4444-555555555555 /byuuid"
cmds="$cmds; sha256sum /byuuid/f1024"
boot fs_ext2 --timeout 90 --mem 256M --module "$img/a.img" --module "$img/b.img" \
	--cmdline "ram.count=0 writable=ram0 run=\"$cmds\""
expect_rc "fs_ext2/verdict" 0
expect_out "fs_ext2/ram0_mounted_rw" "ram0 on /ram0 type ext2 \(rw\)"
expect_out "fs_ext2/ram1_mounted_ro" "ram1 on /ram1 type ext2 \(ro\)"
for f in f0 f1 f1024 f4097 f13000 f300000; do
	sum=$(sha256sum <"$img/src/$f" | cut -c1-64)
	expect_out "fs_ext2/sha256_${f}_1k" "$sum  /ram0/$f\$"
	expect_out "fs_ext2/sha256_${f}_4k" "$sum  /ram1/$f\$"
done
expect_out "fs_ext2/symlink_followed" "$(sha256sum <"$img/src/d/e/hello" | cut -c1-64)  /ram0/link\$"
fill=$(python3 tools/fillgen.py 200000 5 | sha256sum | cut -c1-64)
expect_out "fs_ext2/fill_matches_fillgen_py" "$fill  /ram0/new\$"
expect_out "fs_ext2/after_rename_and_symlink" "$fill  /ram0/sl\$"
expect_out "fs_ext2/after_remount" "$fill  /again/nd/moved\$"
expect_out "fs_ext2/blkid_type_uuid_label" 'TYPE="ext2" UUID="11111111-2222-3333-4444-555555555555" LABEL="beta"'
expect_out "fs_ext2/mount_by_uuid" "$(sha256sum <"$img/src/f1024" | cut -c1-64)  /byuuid/f1024\$"

boot fs_ext2_ro --timeout 60 --mem 256M --module "$img/b.img" \
	--cmdline 'ram.count=0 run="write /ram0/x y; mkdir /ram0/d2; rm /ram0/f1; mv /ram0/f1 /ram0/f2; fill /ram0/f1 10 1"'
for c in write mkdir rm mv fill; do
	expect_out "fs_ext2/readonly_$c" "^$c: [^ ]+( -> [^ ]+)?: read-only file system"
done
