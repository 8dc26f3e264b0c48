UNIT_TESTS += block_mq
block_mq_SRCS := tests/unit/test_blk_mq.c tests/unit/blk_testdev.c tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
# Four CPUs' software queues, so that three hardware queues all get work.
block_mq_CFLAGS := -DBLK_MQ_NR_CPUS=4u
