UNIT_TESTS += ide_io
ide_io_SRCS := tests/unit/test_ide_io.c tests/unit/ide_sim.c tests/unit/blk_testdev.c \
	drivers/ide/ide.c drivers/ide/ide_eh.c drivers/ide/ide_prd.c drivers/ata/ata_cmd.c \
	drivers/ata/ata_decode.c drivers/ata/ata_identify.c drivers/ata/ata_dev.c \
	block/bio.c block/blk-core.c block/blk-merge.c block/blk-settings.c block/blk-stat.c \
	block/blk-trace.c block/blk-timeout.c block/blk-tag.c block/blk-flush.c block/bounce.c \
	block/elevator.c block/noop-iosched.c block/deadline-iosched.c lib/rbtree.c lib/strutil.c \
	lib/errstr.c tests/unit/fakes/slab_fake.c tests/unit/fakes/page_fake.c \
	tests/unit/fakes/mempool_fake.c tests/unit/fakes/sched_fake.c tests/unit/fakes/bdev_fake.c
