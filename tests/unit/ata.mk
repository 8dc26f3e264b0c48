UNIT_TESTS += ata
ata_SRCS := tests/unit/test_ata.c drivers/ata/ata_identify.c drivers/ata/ata_cmd.c \
	drivers/ata/ata_decode.c drivers/ata/ata_dev.c lib/errstr.c
