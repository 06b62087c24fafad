//===- RustPass.cpp - mlir::Pass subclasses whose body is Rust -----------===//
//
// Each registered Rust pass becomes a real entry of MLIR's pass registry. Its options
// are genuine Pass::Option / Pass::ListOption members, so MLIR parses, prints and
// documents them exactly as for C++ passes; the option values are then handed to the
// Rust callbacks as text.
//
//===----------------------------------------------------------------------===//

#include "glow-c/RustPass.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <memory>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// Everything the registry needs about one Rust pass; lives for the process.
struct RustPassInfo {
  struct OptionInfo {
    std::string name, description;
    GlowPassOptionKind kind;
    std::optional<std::string> defaultValue;
  };
  std::string argument, description;
  std::optional<std::string> anchor;
  std::vector<OptionInfo> options;
  std::vector<MlirDialectHandle> dialects;
  void *userData;
  GlowPassValidateFn validate;
  GlowPassRunFn run;
};

class RustPass : public Pass {
public:
  explicit RustPass(const RustPassInfo &info)
      : Pass(TypeID::getFromOpaquePointer(&info),
             info.anchor ? std::optional<StringRef>(*info.anchor) : std::nullopt),
        info(info) {
    declareOptions();
  }
  RustPass(const RustPass &other) : Pass(other), info(other.info) { declareOptions(); }

  StringRef getName() const override { return info.argument; }
  StringRef getArgument() const override { return info.argument; }
  StringRef getDescription() const override { return info.description; }

  void getDependentDialects(DialectRegistry &registry) const override {
    for (MlirDialectHandle handle : info.dialects)
      mlirDialectHandleInsertDialect(handle, wrap(&registry));
  }

  LogicalResult
  initializeOptions(StringRef options,
                    function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    OptionValues values(*this);
    std::string message;
    MlirLogicalResult valid = info.validate(
        info.userData, values.entries.data(), values.entries.size(),
        [](MlirStringRef text, void *sink) {
          static_cast<std::string *>(sink)->append(text.data, text.length);
        },
        &message);
    if (mlirLogicalResultIsFailure(valid))
      return errorHandler("invalid options for pass '" + info.argument + "': " + message);
    return success();
  }

  bool canScheduleOn(RegisteredOperationName opName) const override {
    return !info.anchor || opName.getStringRef() == *info.anchor;
  }

  std::unique_ptr<Pass> clonePass() const override {
    return std::make_unique<RustPass>(*this);
  }

  void runOnOperation() override {
    OptionValues values(*this);
    if (mlirLogicalResultIsFailure(info.run(info.userData, wrap(getOperation()),
                                            values.entries.data(),
                                            values.entries.size())))
      signalPassFailure();
  }

private:
  void declareOptions() {
    for (const auto &option : info.options) {
      auto desc = llvm::cl::desc(option.description);
      switch (option.kind) {
      case GlowPassOptionString: {
        auto opt = std::make_unique<Option<std::string>>(*this, option.name, desc);
        if (option.defaultValue)
          *opt = *option.defaultValue;
        strings.push_back(std::move(opt));
        break;
      }
      case GlowPassOptionStringList:
        lists.push_back(std::make_unique<ListOption<std::string>>(*this, option.name, desc));
        break;
      case GlowPassOptionBool: {
        auto opt = std::make_unique<Option<bool>>(*this, option.name, desc);
        *opt = option.defaultValue && *option.defaultValue == "true";
        bools.push_back(std::move(opt));
        break;
      }
      case GlowPassOptionInt: {
        auto opt = std::make_unique<Option<int64_t>>(*this, option.name, desc);
        *opt = option.defaultValue ? std::stoll(*option.defaultValue) : 0;
        ints.push_back(std::move(opt));
        break;
      }
      }
    }
  }

  /// The current option values as text, in declaration order.
  struct OptionValues {
    std::vector<std::vector<std::string>> texts;
    std::vector<std::vector<MlirStringRef>> refs;
    std::vector<GlowPassOptionValue> entries;

    explicit OptionValues(const RustPass &pass) {
      size_t s = 0, l = 0, b = 0, i = 0;
      for (const auto &option : pass.info.options) {
        std::vector<std::string> text;
        switch (option.kind) {
        case GlowPassOptionString:
          text.push_back(*pass.strings[s++]);
          break;
        case GlowPassOptionStringList:
          for (const std::string &value : *pass.lists[l++])
            text.push_back(value);
          break;
        case GlowPassOptionBool:
          text.push_back(*pass.bools[b++] ? "true" : "false");
          break;
        case GlowPassOptionInt:
          text.push_back(std::to_string(static_cast<int64_t>(*pass.ints[i++])));
          break;
        }
        texts.push_back(std::move(text));
      }
      for (const auto &text : texts) {
        std::vector<MlirStringRef> r;
        for (const auto &value : text)
          r.push_back(mlirStringRefCreate(value.data(), value.size()));
        refs.push_back(std::move(r));
      }
      for (size_t k = 0; k < texts.size(); ++k) {
        const std::string &name = pass.info.options[k].name;
        entries.push_back({mlirStringRefCreate(name.data(), name.size()),
                           static_cast<intptr_t>(refs[k].size()), refs[k].data()});
      }
    }
  };

  const RustPassInfo &info;
  std::vector<std::unique_ptr<Option<std::string>>> strings;
  std::vector<std::unique_ptr<ListOption<std::string>>> lists;
  std::vector<std::unique_ptr<Option<bool>>> bools;
  std::vector<std::unique_ptr<Option<int64_t>>> ints;
};

} // namespace

void glowRegisterRustPass(const GlowRustPassSpec *spec) {
  auto *info = new RustPassInfo();
  info->argument = spec->argument;
  info->description = spec->description;
  if (spec->anchorOpName)
    info->anchor = std::string(spec->anchorOpName);
  for (intptr_t k = 0; k < spec->numOptions; ++k) {
    const GlowPassOptionSpec &option = spec->options[k];
    RustPassInfo::OptionInfo entry{option.name, option.description, option.kind,
                                   std::nullopt};
    if (option.defaultValue)
      entry.defaultValue = std::string(option.defaultValue);
    info->options.push_back(std::move(entry));
  }
  info->dialects.assign(spec->dependentDialects,
                        spec->dependentDialects + spec->numDependentDialects);
  info->userData = spec->userData;
  info->validate = spec->validate;
  info->run = spec->run;
  registerPass([info]() -> std::unique_ptr<Pass> {
    return std::make_unique<RustPass>(*info);
  });
}
