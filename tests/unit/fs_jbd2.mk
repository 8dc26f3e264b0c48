UNIT_TESTS += fs_jbd2
fs_jbd2_SRCS := tests/unit/test_fs_jbd2.c lib/crc32c.c fs/jbd2/format.c fs/jbd2/blockmap.c \
	fs/jbd2/recovery.c fs/jbd2/journal.c fs/jbd2/transaction.c fs/jbd2/commit.c \
	tests/unit/fakes/jbd2_io_fake.c tests/unit/fakes/buffer_file.c \
	tests/unit/fakes/slab_fake.c tests/unit/fakes/wallclock_fake.c
