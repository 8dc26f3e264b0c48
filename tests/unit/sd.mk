UNIT_TESTS += sd
sd_SRCS := tests/unit/test_sd.c tests/unit/blk_testdev.c tests/unit/fakes/gendisk_fake.c \
	tests/unit/fakes/bdev_fake.c block/genhd_sd.c drivers/scsi/sd.c drivers/scsi/sd_io.c \
	drivers/scsi/scsi_cmd.c drivers/scsi/scsi_sense.c lib/errstr.c $(UNIT_BLOCK_CORE)
