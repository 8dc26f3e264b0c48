UNIT_TESTS += block_genhd_flush
block_genhd_flush_SRCS := tests/unit/test_genhd_flush.c tests/unit/blk_testdev.c \
	block/genhd_flush.c block/genhd.c block/bdev.c \
	block/partitions/check.c block/partitions/msdos.c block/partitions/efi.c \
	block/bio.c block/blk-core.c block/blk-merge.c block/blk-settings.c block/blk-stat.c \
	block/blk-trace.c block/blk-timeout.c block/blk-tag.c block/blk-flush.c block/bounce.c \
	block/elevator.c block/noop-iosched.c block/deadline-iosched.c \
	lib/crc32.c lib/rbtree.c lib/strutil.c lib/errstr.c \
	tests/unit/fakes/slab_fake.c tests/unit/fakes/page_fake.c tests/unit/fakes/mempool_fake.c \
	tests/unit/fakes/sched_fake.c tests/unit/fakes/param_fake.c \
	tests/unit/fakes/genhd_read_fake.c tests/unit/fakes/power_fake.c
