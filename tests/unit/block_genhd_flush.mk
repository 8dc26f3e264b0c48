UNIT_TESTS += block_genhd_flush
block_genhd_flush_SRCS := tests/unit/test_genhd_flush.c tests/unit/blk_testdev.c \
	block/genhd_flush.c block/genhd.c block/bdev.c block/partitions/check.c \
	block/partitions/msdos.c block/partitions/efi.c lib/crc32.c lib/errstr.c \
	tests/unit/fakes/param_fake.c tests/unit/fakes/power_fake.c block/blkdev_io.c \
	$(UNIT_BLOCK_CORE)
