UNIT_TESTS += block_merge
block_merge_SRCS := tests/unit/test_blk_merge.c tests/unit/blk_testdev.c \
	tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
