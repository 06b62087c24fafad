/*===- NestingDepth.h - bounded nesting of MLIR text --------------*- C -*-===*/
#ifndef GLOW_C_NESTINGDEPTH_H
#define GLOW_C_NESTINGDEPTH_H

#include "mlir-c/Support.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most brackets MLIR text may nest before the Glow tools refuse it: MLIR's
 * parser, verifier and printer recurse once per level, and the tools run them on a
 * thread whose stack holds this many levels with room to spare. */
#define GLOW_MAX_NESTING_DEPTH 2000

/* Whether `text` (`length` bytes) nests `(`, `[`, `{` and `<` (not in `->`, `>=`,
 * `<=`) at most `limit` deep, outside string literals and `//` comments. When it
 * nests deeper, `*line` and `*column` (1-based) locate the first bracket past the
 * limit. MLIR bytecode (which starts with "ML\xefR") is not text and passes. */
MLIR_CAPI_EXPORTED bool glowNestingWithin(const char *text, size_t length,
                                          size_t limit, size_t *line,
                                          size_t *column);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_NESTINGDEPTH_H */
