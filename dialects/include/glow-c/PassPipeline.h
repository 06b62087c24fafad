/*===- PassPipeline.h - named textual pass pipelines ---------------*- C -*-===*/
#ifndef GLOW_C_PASSPIPELINE_H
#define GLOW_C_PASSPIPELINE_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers `argument` as a named pass pipeline standing for `pipeline` (a
 * comma-separated pass list for the op the pipeline is added to, e.g. the
 * builtin.module of --glow-cpu-pipeline). Strings are copied. It takes no options. */
MLIR_CAPI_EXPORTED void glowRegisterPassPipeline(const char *argument,
                                                 const char *description,
                                                 const char *pipeline);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_PASSPIPELINE_H */
