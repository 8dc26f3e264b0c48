UNIT_TESTS += ide_io
ide_io_SRCS := tests/unit/test_ide_io.c tests/unit/ide_sim.c tests/unit/blk_testdev.c \
	drivers/ide/ide.c drivers/ide/ide_io.c drivers/ide/ide_eh.c drivers/ide/ide_mode.c drivers/ide/ide_disk.c drivers/ide/ide_prd.c lib/errstr.c \
	tests/unit/fakes/bdev_fake.c $(UNIT_ATA) $(UNIT_BLOCK_CORE)
