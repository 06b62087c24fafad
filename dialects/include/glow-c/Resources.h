/*===- Resources.h - releasing unreferenced dense_resource blobs --*- C -*-===*/
#ifndef GLOW_C_RESOURCES_H
#define GLOW_C_RESOURCES_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Frees the data of every dense_resource blob of `op`'s context that no attribute
 * inside `op` (at any depth, nested attributes included) refers to any more, and
 * returns how many bytes were freed. MLIR keeps a blob alive for as long as its
 * context lives, referenced or not; after a weight has been copied out of the module
 * (or relaid out into a new blob), this returns its memory. Attributes that still
 * name a released blob must not be read: call it only on the module that holds every
 * live reference. */
MLIR_CAPI_EXPORTED int64_t glowReleaseUnreferencedResources(MlirOperation op);

/* Frees the blob of `attribute` (a dense_resource elements attribute; anything else
 * is ignored) if no attribute inside `root` refers to it, and returns the bytes freed.
 * For passes that have just erased the last op holding a weight: `root` must be the
 * top-level op holding every live reference. Walking `root` from inside a pass on one
 * of its functions is only safe when passes do not run in parallel, so with the
 * context's multithreading enabled this frees nothing (returns 0). */
MLIR_CAPI_EXPORTED int64_t glowReleaseResourceIfUnreferenced(MlirOperation root,
                                                             MlirAttribute attribute);

/* The bytes of the blob behind a dense_resource elements attribute, as stored (no
 * copy; valid until the blob is released), or a null reference for any other
 * attribute or a resource without data. */
MLIR_CAPI_EXPORTED MlirStringRef glowResourceBlobData(MlirAttribute attribute);

/* The bytes and declared alignment of the builtin dialect's blob named `key` in
 * `context` (not copied); false if there is none or it has no data. */
MLIR_CAPI_EXPORTED bool glowResourceBlobByKey(MlirContext context, MlirStringRef key,
                                              MlirStringRef *data, uint64_t *alignment);

/* `attribute` (a dense_resource elements attribute) with the shaped type `type`, over
 * the same blob (no copy): for retyping an element type of the same width, e.g. ui8 to
 * i8. A null attribute if `attribute` is not a dense_resource or `type` is not a
 * shaped type of the same byte size. */
MLIR_CAPI_EXPORTED MlirAttribute glowResourceElementsWithType(MlirAttribute attribute,
                                                              MlirType type);

/* Calls `callback` once with the key of each dense_resource blob referenced inside
 * `op` (nested attributes included), in the order the references are first met by a
 * pre-order walk, which is the order MLIR's printer lists them in. */
MLIR_CAPI_EXPORTED void glowReferencedResources(MlirOperation op, MlirStringCallback callback,
                                                void *userData);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_RESOURCES_H */
