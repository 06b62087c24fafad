//===- PortableBytecode.cpp - properties of unregistered ops as attributes ===//
//
// Part of writing bytecode for modules of the dotted Glow dialects (see
// crates/glow-dialects/src/bytecode.rs): the module is re-parsed without the Glow
// dialects, so its Glow ops are unregistered and keep their inherent attributes as
// one properties dictionary. Bytecode version 4 writes attribute dictionaries only;
// this moves each dictionary's entries there, and the reader, which knows the ops,
// moves them back into properties.
//
//===----------------------------------------------------------------------===//

#include "glow-c/PortableBytecode.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

void glowMoveUnregisteredPropertiesToAttributes(MlirOperation root) {
  unwrap(root)->walk([](Operation *op) {
    if (op->isRegistered() || op->getPropertiesStorageSize() == 0)
      return;
    auto properties = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
    if (!properties)
      return;
    for (NamedAttribute entry : properties)
      op->setDiscardableAttr(entry.getName(), entry.getValue());
    // An unregistered op's properties are a plain attribute: an empty dictionary.
    (void)op->setPropertiesFromAttribute(DictionaryAttr::get(op->getContext()),
                                         /*emitError=*/nullptr);
  });
}
