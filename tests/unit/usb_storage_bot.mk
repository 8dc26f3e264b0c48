UNIT_TESTS += usb_storage_bot
usb_storage_bot_SRCS := tests/unit/test_usb_storage_bot.c drivers/usb/usb_storage_bot.c \
	drivers/scsi/scsi_cmd.c
