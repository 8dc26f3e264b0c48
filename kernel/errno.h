/*
 * Error numbers.  Every call that can fail returns 0 (or a count) on
 * success and a negative one of these on failure.  The values are Linux's,
 * so that a reader who knows one knows the other.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define EINTR		4
#define EIO		5
#define ENXIO		6
#define E2BIG		7
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define ENOTBLK		15
#define EBUSY		16
#define EEXIST		17
#define EXDEV		18
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENFILE		23
#define EMFILE		24
#define ENOTTY		25
#define EFBIG		27
#define ENOSPC		28
#define ESPIPE		29
#define EPIPE		32	/* USB: a stalled endpoint */
#define EROFS		30
#define EMLINK		31
#define ERANGE		34
#define ENAMETOOLONG	36
#define ENOSYS		38
#define ENOTEMPTY	39
#define ELOOP		40
#define ENODATA		61
#define EPROTO		71	/* USB: a transaction error on the wire */
#define ECONNRESET	104	/* USB: a transfer cancelled */
#define EREMOTEIO	121	/* USB: a short transfer where none was allowed */
#define ENOMEDIUM	123	/* a drive that reports no capacity */
#define EOVERFLOW	75
#define EOPNOTSUPP	95
#define ETIMEDOUT	110
#define ECANCELED	125
#define EUCLEAN		117	/* structure needs cleaning: on-disk corruption */

#define MAX_ERRNO	4095

/* Pointers that carry an error code, for calls that return an object. */
#define ERR_PTR(e)	((void *)(long)(e))
#define PTR_ERR(p)	((long)(p))
#define IS_ERR(p)	((unsigned long)(p) >= (unsigned long)-MAX_ERRNO)

/* errstr(-EIO) -> "I/O error"; unknown codes give "error N".  lib/errstr.c */
const char *errstr(int err);

#endif
