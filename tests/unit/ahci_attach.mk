UNIT_TESTS += ahci_attach
ahci_attach_SRCS := tests/unit/test_ahci_attach.c tests/unit/fakes/gendisk_fake.c \
	block/genhd_sd.c \
	drivers/ahci/ahci.c drivers/ahci/ahci_cmd.c drivers/ahci/ahci_link.c drivers/ahci/ahci_eh.c drivers/ahci/ahci_io.c \
	drivers/ata/ata_cmd.c drivers/ata/ata_decode.c drivers/ata/ata_identify.c drivers/ata/ata_dev.c \
	block/bio.c block/blk-core.c block/blk-merge.c block/blk-settings.c block/blk-stat.c \
	block/blk-trace.c block/blk-timeout.c block/blk-tag.c block/blk-flush.c block/bounce.c \
	block/elevator.c block/noop-iosched.c block/deadline-iosched.c lib/rbtree.c lib/strutil.c \
	lib/errstr.c lib/vsprintf.c tests/unit/fakes/slab_fake.c tests/unit/fakes/page_fake.c \
	tests/unit/fakes/mempool_fake.c tests/unit/fakes/sched_fake.c tests/unit/fakes/bdev_fake.c \
	tests/unit/fakes/param_num_fake.c
