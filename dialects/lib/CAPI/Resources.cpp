//===- Resources.cpp - releasing unreferenced dense_resource blobs ---------===//
//
// The builtin dialect's blob manager owns every dense_resource blob until the context
// dies. Glow copies weights out of the module before code generation and relays out
// filters into new blobs; the blobs nothing refers to any more are emptied here, which
// runs their deleters and returns their memory.
//
//===----------------------------------------------------------------------===//

#include "glow-c/Resources.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

int64_t glowReleaseUnreferencedResources(MlirOperation raw) {
  Operation *root = unwrap(raw);
  llvm::StringSet<> referenced;
  root->walk([&](Operation *op) {
    for (NamedAttribute named : op->getAttrs())
      named.getValue().walk([&](DenseResourceElementsAttr resource) {
        referenced.insert(resource.getRawHandle().getKey());
      });
  });
  auto &manager =
      DenseResourceElementsHandle::getManagerInterface(root->getContext()).getBlobManager();
  llvm::SmallVector<std::string> unreferenced;
  manager.getBlobMap([&](const llvm::StringMap<DialectResourceBlobManager::BlobEntry> &map) {
    for (const auto &entry : map) {
      const AsmResourceBlob *blob = entry.getValue().getBlob();
      if (blob && !blob->getData().empty() && !referenced.contains(entry.getKey()))
        unreferenced.push_back(entry.getKey().str());
    }
  });
  int64_t freed = 0;
  for (const std::string &key : unreferenced) {
    if (auto *entry = manager.lookup(key)) {
      if (AsmResourceBlob *blob = entry->getBlob())
        freed += blob->getData().size();
    }
    manager.update(key, AsmResourceBlob());
  }
  return freed;
}
