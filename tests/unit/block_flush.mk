UNIT_TESTS += block_flush
block_flush_SRCS := tests/unit/test_blk_flush.c tests/unit/blk_testdev.c \
	tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
