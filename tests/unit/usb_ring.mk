UNIT_TESTS += usb_ring
usb_ring_SRCS := tests/unit/test_usb_ring.c drivers/usb/xhci_ring.c
