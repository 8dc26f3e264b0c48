/*
 * USB descriptor parsing (usb_desc.c): the device descriptor and the
 * configuration descriptor set into the struct usb_device fields the
 * core and class drivers read.  Portable and hostile-input safe: the
 * host unit tests and the fuzz target run it on arbitrary bytes.
 */
#ifndef DRIVERS_USB_USB_DESC_H
#define DRIVERS_USB_USB_DESC_H

#include "drivers/usb/usb.h"

int usb_parse_device_desc(struct usb_device *dev, const void *buf, size_t len);
int usb_parse_config(struct usb_device *dev, const void *buf, size_t len);
u16 usb_ep0_default_maxp(enum usb_speed speed);
u16 usb_ep0_maxp(const struct usb_device_descriptor *d, enum usb_speed speed);
void usb_make_path(char *buf, size_t size, const char *parent_path, unsigned port);

#endif
