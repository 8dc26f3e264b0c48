UNIT_TESTS += scsi
scsi_SRCS := tests/unit/test_scsi.c drivers/scsi/scsi_cmd.c drivers/scsi/scsi_sense.c
