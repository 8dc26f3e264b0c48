UNIT_TESTS += usb_desc
usb_desc_SRCS := tests/unit/test_usb_desc.c drivers/usb/usb_desc.c
