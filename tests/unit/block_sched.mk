UNIT_TESTS += block_sched
block_sched_SRCS := tests/unit/test_blk_sched.c tests/unit/blk_testdev.c \
	tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
