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
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

static DialectResourceBlobManager &blobManager(MLIRContext *context) {
  return DenseResourceElementsHandle::getManagerInterface(context).getBlobManager();
}

/// Whether `attribute` is, or holds, a dense_resource named `key`. Arrays and
/// dictionaries are searched here; attributes that cannot hold another attribute are
/// skipped; anything else goes to the generic attribute walker (slow: it keeps a
/// visited set per walk, which made this check quadratic on models with many weights).
static bool refersTo(Attribute attribute, StringRef key) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attribute))
    return resource.getRawHandle().getKey() == key;
  if (auto array = dyn_cast<ArrayAttr>(attribute))
    return llvm::any_of(array, [&](Attribute element) { return refersTo(element, key); });
  if (auto dictionary = dyn_cast<DictionaryAttr>(attribute))
    return llvm::any_of(dictionary,
                        [&](NamedAttribute named) { return refersTo(named.getValue(), key); });
  if (isa<StringAttr, IntegerAttr, FloatAttr, BoolAttr, UnitAttr, DenseElementsAttr,
          DenseArrayAttr, SymbolRefAttr, AffineMapAttr, IntegerSetAttr>(attribute))
    return false;
  return attribute
      .walk([&](DenseResourceElementsAttr other) {
        return other.getRawHandle().getKey() == key ? WalkResult::interrupt()
                                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether an attribute of `op` refers to the dense_resource `key`. A registered op's
/// inherent attributes are read one by one: `getAttrs()` would build (and unique) a
/// dictionary of an op's properties on every call.
static bool holdsReference(Operation *op, StringRef key) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!info)
    return llvm::any_of(op->getAttrs(),
                        [&](NamedAttribute named) { return refersTo(named.getValue(), key); });
  for (StringAttr name : info->getAttributeNames())
    if (std::optional<Attribute> attribute = op->getInherentAttr(name))
      if (*attribute && refersTo(*attribute, key))
        return true;
  return llvm::any_of(op->getDiscardableAttrs(),
                      [&](NamedAttribute named) { return refersTo(named.getValue(), key); });
}

int64_t glowReleaseResourceIfUnreferenced(MlirOperation rawRoot, MlirAttribute rawAttribute) {
  Operation *root = unwrap(rawRoot);
  auto resource = dyn_cast<DenseResourceElementsAttr>(unwrap(rawAttribute));
  if (!resource || root->getContext()->isMultithreadingEnabled())
    return 0;
  std::string key = resource.getRawHandle().getKey().str();
  WalkResult found = root->walk([&](Operation *op) {
    return holdsReference(op, key) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (found.wasInterrupted())
    return 0;
  auto &manager = blobManager(root->getContext());
  auto *entry = manager.lookup(key);
  AsmResourceBlob *blob = entry ? entry->getBlob() : nullptr;
  if (!blob || blob->getData().empty())
    return 0;
  int64_t freed = blob->getData().size();
  manager.update(key, AsmResourceBlob());
  return freed;
}

MlirStringRef glowResourceBlobData(MlirAttribute rawAttribute) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(unwrap(rawAttribute));
  AsmResourceBlob *blob = resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob)
    return mlirStringRefCreate(nullptr, 0);
  ArrayRef<char> data = blob->getData();
  return mlirStringRefCreate(data.data(), data.size());
}

bool glowResourceBlobByKey(MlirContext context, MlirStringRef key, MlirStringRef *data,
                           uint64_t *alignment) {
  auto *entry = blobManager(unwrap(context)).lookup(llvm::StringRef(key.data, key.length));
  AsmResourceBlob *blob = entry ? entry->getBlob() : nullptr;
  if (!blob || blob->getData().empty())
    return false;
  *data = mlirStringRefCreate(blob->getData().data(), blob->getData().size());
  *alignment = blob->getDataAlignment();
  return true;
}

void glowReferencedResources(MlirOperation raw, MlirStringCallback callback, void *userData) {
  llvm::StringSet<> seen;
  unwrap(raw)->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (NamedAttribute named : op->getAttrs())
      named.getValue().walk([&](DenseResourceElementsAttr resource) {
        StringRef key = resource.getRawHandle().getKey();
        if (seen.insert(key).second)
          callback(mlirStringRefCreate(key.data(), key.size()), userData);
      });
  });
}

int64_t glowReleaseUnreferencedResources(MlirOperation raw) {
  Operation *root = unwrap(raw);
  llvm::StringSet<> referenced;
  root->walk([&](Operation *op) {
    for (NamedAttribute named : op->getAttrs())
      named.getValue().walk([&](DenseResourceElementsAttr resource) {
        referenced.insert(resource.getRawHandle().getKey());
      });
  });
  auto &manager = blobManager(root->getContext());
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

MlirAttribute glowResourceElementsWithType(MlirAttribute rawAttribute, MlirType rawType) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(unwrap(rawAttribute));
  auto type = dyn_cast<ShapedType>(unwrap(rawType));
  if (!resource || !type || !type.hasStaticShape())
    return MlirAttribute{nullptr};
  ShapedType from = resource.getType();
  auto bits = [](ShapedType t) {
    return t.getNumElements() * static_cast<int64_t>(t.getElementTypeBitWidth());
  };
  if (!from.getElementType().isIntOrIndexOrFloat() || !type.getElementType().isIntOrIndexOrFloat() ||
      bits(from) != bits(type))
    return MlirAttribute{nullptr};
  return wrap(DenseResourceElementsAttr::get(type, resource.getRawHandle()));
}
