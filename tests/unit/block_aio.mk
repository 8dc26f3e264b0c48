UNIT_TESTS += block_aio
block_aio_SRCS := tests/unit/test_aio.c tests/unit/blk_testdev.c tests/unit/fakes/bdev_fake.c \
	block/diag/aio.c block/diag/bench_work.c $(UNIT_BLOCK_CORE)
