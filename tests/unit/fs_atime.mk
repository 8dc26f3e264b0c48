UNIT_TESTS += fs_atime
fs_atime_SRCS := tests/unit/test_fs_atime.c fs/atime.c tests/unit/fakes/wallclock_fake.c
