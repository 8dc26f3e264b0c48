/*
 * Error numbers as text, for messages people read.
 */
#include "kernel/errno.h"
#include "kernel/compiler.h"

static const char *const errtab[] = {
	[EPERM] = "operation not permitted",
	[ENOENT] = "no such file or directory",
	[EINTR] = "interrupted",
	[EIO] = "I/O error",
	[ENXIO] = "no such device or address",
	[E2BIG] = "argument list too long",
	[EBADF] = "bad file descriptor",
	[EAGAIN] = "try again",
	[ENOMEM] = "out of memory",
	[EACCES] = "permission denied",
	[EFAULT] = "bad address",
	[ENOTBLK] = "block device required",
	[EBUSY] = "device or resource busy",
	[EEXIST] = "file exists",
	[EXDEV] = "cross-device link",
	[ENODEV] = "no such device",
	[ENOTDIR] = "not a directory",
	[EISDIR] = "is a directory",
	[EINVAL] = "invalid argument",
	[ENFILE] = "too many open files in system",
	[EMFILE] = "too many open files",
	[ENOTTY] = "inappropriate ioctl for device",
	[EFBIG] = "file too large",
	[ENOSPC] = "no space left on device",
	[ESPIPE] = "illegal seek",
	[EPIPE] = "broken pipe",
	[EROFS] = "read-only file system",
	[EMLINK] = "too many links",
	[ERANGE] = "result out of range",
	[ENAMETOOLONG] = "file name too long",
	[ENOSYS] = "function not implemented",
	[ENOTEMPTY] = "directory not empty",
	[ELOOP] = "too many levels of symbolic links",
	[ENODATA] = "no data available",
	[EOVERFLOW] = "value too large for defined data type",
	[EOPNOTSUPP] = "operation not supported",
	[ETIMEDOUT] = "timed out",
	[EUCLEAN] = "structure needs cleaning",
	[EPROTO] = "protocol error",
	[ECONNRESET] = "connection reset",
	[EREMOTEIO] = "remote I/O error",
	[ENOMEDIUM] = "no medium found",
	[ECANCELED] = "operation canceled",
};

const char *errstr(int err)
{
	if (err < 0)
		err = -err;
	if ((unsigned)err < ARRAY_SIZE(errtab) && errtab[err])
		return errtab[err];
	return "unknown error";
}
