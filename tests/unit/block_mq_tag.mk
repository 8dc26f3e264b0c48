UNIT_TESTS += block_mq_tag
block_mq_tag_SRCS := tests/unit/test_blk_mq_tag.c block/blk-mq-tag.c \
	tests/unit/fakes/slab_fake.c
