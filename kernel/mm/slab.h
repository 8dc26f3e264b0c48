/*
 * Object allocation on lowmem pages.
 *
 * kmem_cache: fixed-size objects (bios, requests), with a constructor-free
 * simple slab layout.  kmalloc: power-of-two size classes from 16 bytes to
 * 128 KiB, each a kmem_cache; larger sizes come straight from the buddy
 * allocator.  Returned memory is lowmem, so its physical address is
 * __pa(ptr) and it is DMA-reachable below 896 MiB.  NULL on failure.
 */
#ifndef KERNEL_MM_SLAB_H
#define KERNEL_MM_SLAB_H

#include "kernel/mm/gfp.h"
#include "kernel/compiler.h"

struct kmem_cache;

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align);
void kmem_cache_destroy(struct kmem_cache *c);
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp);
void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *c, void *obj);

void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
void kfree(const void *p);

#endif
