UNIT_TESTS += fs_buffer
fs_buffer_SRCS := tests/unit/test_fs_buffer.c fs/buffer.c fs/buffer_io.c \
	fs/buffer_writeback.c fs/direct_io.c lib/sort.c tests/unit/fakes/slab_fake.c \
	tests/unit/fakes/sched_fake.c tests/unit/fakes/param_num_fake.c
