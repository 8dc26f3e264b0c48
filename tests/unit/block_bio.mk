UNIT_TESTS += block_bio
block_bio_SRCS := tests/unit/test_blk_bio.c tests/unit/fakes/bdev_fake.c $(UNIT_BLOCK_CORE)
