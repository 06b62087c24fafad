//===- OptMain.cpp - MLIR's mlir-opt driver behind glow-opt --------------===//

#include "glow-c/OptMain.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int glowMlirOptMain(int argc, char **argv, MlirDialectRegistry registry) {
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Glow modular optimizer driver\n", *unwrap(registry)));
}
