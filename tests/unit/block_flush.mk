UNIT_TESTS += block_flush
block_flush_SRCS := tests/unit/test_blk_flush.c tests/unit/blk_testdev.c \
	block/bio.c block/blk-core.c block/blk-merge.c block/blk-settings.c block/blk-stat.c \
	block/blk-trace.c block/blk-timeout.c block/blk-tag.c block/blk-flush.c block/bounce.c \
	block/elevator.c block/noop-iosched.c block/deadline-iosched.c lib/rbtree.c lib/strutil.c \
	tests/unit/fakes/slab_fake.c tests/unit/fakes/page_fake.c tests/unit/fakes/mempool_fake.c \
	tests/unit/fakes/sched_fake.c tests/unit/fakes/bdev_fake.c
