UNIT_TESTS += block_genhd_cmds
block_genhd_cmds_SRCS := tests/unit/test_genhd_cmds.c block/genhd.c block/bdev.c \
	block/partitions/check.c block/partitions/msdos.c block/partitions/efi.c \
	lib/crc32.c lib/errstr.c \
	tests/unit/fakes/param_fake.c tests/unit/fakes/console_fake.c \
	tests/unit/fakes/rdisk_fake.c block/blkdev_io.c $(UNIT_BLOCK_CORE)
