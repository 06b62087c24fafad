/*===- RustPass.h - MLIR passes whose body is written in Rust ------*- C -*-===*
 *
 * A pass registered here is a real mlir::Pass in MLIR's registry: textual pipelines
 * name it (nested, with options), `--list-passes` and `--help` show it, the pass
 * manager clones it per thread. MLIR parses its options (typed, with defaults);
 * `validate` lets Rust reject values that parse but make no sense, and `run` is the
 * pass body.
 *===----------------------------------------------------------------------===*/
#ifndef GLOW_C_RUSTPASS_H
#define GLOW_C_RUSTPASS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum GlowPassOptionKind {
  GlowPassOptionString = 0,
  GlowPassOptionStringList = 1,
  GlowPassOptionBool = 2,
  GlowPassOptionInt = 3,
} GlowPassOptionKind;

/* One declared option: `name=value` in pipelines. `defaultValue` may be NULL. */
typedef struct GlowPassOptionSpec {
  const char *name;
  const char *description;
  GlowPassOptionKind kind;
  const char *defaultValue;
} GlowPassOptionSpec;

/* The value of one option as text (lists have several; booleans are true/false). */
typedef struct GlowPassOptionValue {
  MlirStringRef name;
  intptr_t numValues;
  const MlirStringRef *values;
} GlowPassOptionValue;

typedef MlirLogicalResult (*GlowPassValidateFn)(void *userData,
                                                const GlowPassOptionValue *values,
                                                intptr_t numValues,
                                                MlirStringCallback error,
                                                void *errorUserData);
typedef MlirLogicalResult (*GlowPassRunFn)(void *userData, MlirOperation op,
                                           const GlowPassOptionValue *values,
                                           intptr_t numValues);

typedef struct GlowRustPassSpec {
  const char *argument;     /* pipeline name, e.g. "glow-lower-nodes" */
  const char *description;  /* one line for --help / --list-passes */
  const char *anchorOpName; /* e.g. "func.func"; NULL runs on any op */
  intptr_t numOptions;
  const GlowPassOptionSpec *options;
  intptr_t numDependentDialects;
  const MlirDialectHandle *dependentDialects; /* loaded before the pass runs */
  void *userData;                             /* must live for the process */
  GlowPassValidateFn validate;
  GlowPassRunFn run;
} GlowRustPassSpec;

/* Registers the pass globally (strings are copied). Call before parsing pipelines. */
MLIR_CAPI_EXPORTED void glowRegisterRustPass(const GlowRustPassSpec *spec);

/* Library users build pipelines that mix Glow and upstream passes with the C API's
 * own mlirParsePassPipeline / mlirOpPassManagerAddPipeline: they read this registry. */

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_RUSTPASS_H */
