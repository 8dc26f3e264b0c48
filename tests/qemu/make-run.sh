#!/usr/bin/env bash
# make run, scripted: the demo disks are built, the banner lists them, and a
# session over the serial console (lsblk, ls, cat, bench, poweroff) works.
. "$(dirname "$0")/lib.bash"

out=$logdir/make-run.out
# "ls /sda2/do<Tab>" completes the path.
printf 'lsblk\rls /sdb1\rls /sda2\rcat /sda2/hello.txt\rcat /vda1/hello.txt\rcat /sdc1/hello.txt\rcat /sdc1/many/name-2999\rwrite /sdc1/note.txt ext4-from-the-demo\rcat /sdc1/note.txt\rwrite /vda1/note.txt from-the-demo\rcat /vda1/note.txt\rwrite /nvme0n1p1/new.txt made-in-the-demo\rcat /nvme0n1p1/new.txt\rcat /nvme0n1p1/hello.txt\rbench nullb0 randread:qd=1:ios=1000\rls /sda2/do\t\rpoweroff\r' |
	RUN_TIMEOUT=120 tools/run-demo 2>&1 | tr -d '\r' >"$out"
rc=${PIPESTATUS[1]}
expect_rc "make-run/poweroff-ends-0" 0
expect_out "make-run/banner-controllers" '^00:1f\.2 8086:2922 0106\.01 .* ahci$'
expect_out "make-run/banner-disks" '^Disks:$'
expect_out "make-run/banner-gpt-partition" '^sda2 +[0-9]+:[0-9]+ .* part data$'
expect_out "make-run/banner-mounted" '^sda2 on /sda2 type ext2 \(rw\)'
expect_out "make-run/banner-fat-mounted" '^sdb1 on /sdb1 type vfat \(rw\)'
expect_out "make-run/ls" '^random\.bin$'
expect_out "make-run/banner-ext4-mounted" '^sdc1 on /sdc1 type ext4 \(rw\)'
expect_out "make-run/ext4-cat" '^hello from the ext4 disk$'
expect_out "make-run/ext4-htree-lookup" '^2999$'
expect_out "make-run/ext4-write" '^ext4-from-the-demo'
expect_out "make-run/ls-fat-long-name" '^Read me first\.txt$'
expect_out "make-run/cat" '^hello from the demo disk$'
expect_out "make-run/banner-virtio-mounted" '^vda1 on /vda1 type ext2 \(rw\)'
expect_out "make-run/virtio-cat" '^hello from the virtio disk$'
expect_out "make-run/virtio-write" '^from-the-demo'
expect_out "make-run/banner-nvme-partition" '^nvme0n1p1 +[0-9]+:[0-9]+ .* part nvme-data$'
expect_out "make-run/banner-nvme-mounted" '^nvme0n1p1 on /nvme0n1p1 type ext2 \(rw\)'
expect_out "make-run/nvme-cat" '^hello from the NVMe demo disk$'
expect_out "make-run/nvme-write" '^made-in-the-demo'
expect_out "make-run/bench" '^BENCH randread qd=1 bs=4K .*ios=1000 '
expect_out "make-run/tab-completes-path" 'ls /sda2/docs/'
expect_out "make-run/completed-dir-listed" '^block-layer\.txt$'
