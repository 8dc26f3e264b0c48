UNIT_TESTS += block_discard
block_discard_SRCS := tests/unit/test_blk_discard.c tests/unit/blk_testdev.c \
	tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
