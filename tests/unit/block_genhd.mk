UNIT_TESTS += block_genhd
block_genhd_SRCS := tests/unit/test_genhd.c block/genhd.c block/bdev.c block/genhd_sd.c \
	block/partitions/check.c block/partitions/msdos.c block/partitions/efi.c \
	lib/crc32.c lib/errstr.c \
	tests/unit/fakes/param_fake.c tests/unit/fakes/rdisk_fake.c block/blkdev_io.c \
	$(UNIT_BLOCK_CORE)
