//===- RoundTrip.h - bit-exact round trips of Glow modules -----*- C++ -*-===//
#ifndef GLOW_ROUNDTRIP_H
#define GLOW_ROUNDTRIP_H

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Support/LLVM.h"

#include <memory>

#include <string>

namespace mlir::glow {

/// Checks that `module` survives, bit for bit, each way it is written to a file:
/// custom-form text, generic-form text (both with locations) and the portable
/// bytecode of glow-import / glow-opt --emit-bytecode. Each copy is read back into
/// `module`'s context and compared with the original through MLIR's own bytecode
/// writer, which stores every attribute exactly (floats as their bits), so a value
/// that prints in a lossy form is caught even when it prints the same twice. On a
/// difference, `error` says which form and the first line that differs.
LogicalResult verifyRoundTrip(Operation *module, std::string &error);

/// The `glow-verify-roundtrip` pass: verifyRoundTrip on the op it runs on.
std::unique_ptr<Pass> createVerifyRoundTripPass();

} // namespace mlir::glow

#endif // GLOW_ROUNDTRIP_H
