UNIT_TESTS += block_queue
block_queue_SRCS := tests/unit/test_blk_queue.c tests/unit/blk_testdev.c \
	tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
