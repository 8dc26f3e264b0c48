UNIT_TESTS += ide_probe
ide_probe_SRCS := tests/unit/test_ide_probe.c tests/unit/ide_sim.c \
	tests/unit/fakes/gendisk_fake.c drivers/ide/ide_probe.c drivers/ide/ide.c drivers/ide/ide_io.c drivers/ide/ide_eh.c drivers/ide/ide_mode.c drivers/ide/ide_disk.c \
	drivers/ide/ide_prd.c lib/errstr.c lib/vsprintf.c tests/unit/fakes/bdev_fake.c \
	tests/unit/fakes/param_num_fake.c $(UNIT_ATA) $(UNIT_BLOCK_CORE)
