//===- InstrOps.td - glow.instr instructions ----------------*- tablegen -*-===//
//
// Buffers of Glow's instruction IR with their memory effects declared, so upstream
// analyses (aliasing, dead-store, CSE) treat them correctly.
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_INSTR_OPS
#define GLOW_INSTR_OPS

include "glow/Instr/InstrDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

def Glow_Buffer : StaticShapeMemRefOf<[AnyType]>;

def Glow_AllocActivationOp : Glow_Instr_Op<"alloc_activation", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "starts the lifetime of an activation buffer (Glow's AllocActivation)";
  let description = [{
    `offset`, once the memory planner has run, is the buffer's byte offset in the
    activation arena; it is a multiple of 64.

    ```mlir
    %a = glow.instr.alloc_activation offset 128 : memref<8x28x28x16xf32>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs Res<Glow_Buffer, "", [MemAlloc<DefaultResource>]>:$buffer);
  let assemblyFormat = "(`offset` $offset^)? attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Glow_DeallocActivationOp : Glow_Instr_Op<"dealloc_activation", [
    MemoryEffects<[MemFree<DefaultResource>]>]> {
  let summary = "ends the lifetime of an activation buffer (Glow's DeallocActivation)";
  let description = [{
    ```mlir
    glow.instr.dealloc_activation %a : memref<8x28x28x16xf32>
    ```
  }];
  let arguments = (ins Arg<Glow_Buffer, "", [MemFree<DefaultResource>]>:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Glow_WeightMutability : I32EnumAttr<"Mutability", "whether a weight is written at run time", [
    I32EnumAttrCase<"Constant", 0, "constant">,
    I32EnumAttrCase<"Mutable", 1, "mutable">]> {
  let cppNamespace = "::mlir::glow::instr";
}

def Glow_WeightOp : Glow_Instr_Op<"weight", [Pure]> {
  let summary = "the buffer of a named weight (Glow's WeightVar)";
  let description = [{
    Constant weights live in the constant-weights region of a bundle; mutable
    weights (inputs and outputs) in the mutable-weights region. `offset` is the
    weight's planned byte offset inside its region.

    ```mlir
    %w = glow.instr.weight "conv1.filter" constant offset 0 : memref<64x3x7x7xf32>
    %x = glow.instr.weight "input" mutable : memref<1x3x224x224xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, Glow_WeightMutability:$mutability,
                       OptionalAttr<I64Attr>:$offset);
  let results = (outs Glow_Buffer:$buffer);
  let assemblyFormat = "$name $mutability (`offset` $offset^)? attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Glow_TensorViewOp : Glow_Instr_Op<"tensorview", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "a view of part of a buffer with its own shape (Glow's TensorView)";
  let description = [{
    The view starts at element `offsets` of `source` and covers as many elements,
    contiguous in row-major order, as the result type holds; no data moves.

    ```mlir
    %v = glow.instr.tensorview %a [0, 16, 0, 0] : memref<1x32x8x8xf32> -> memref<1x1024xf32>
    ```
  }];
  let arguments = (ins Glow_Buffer:$source, DenseI64ArrayAttr:$offsets);
  let results = (outs Glow_Buffer:$result);
  let assemblyFormat = "$source $offsets attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Glow_CopyOp : Glow_Instr_Op<"copy", [AllTypesMatch<["dest", "source"]>]> {
  let summary = "copies one buffer into another of the same type (Glow's Copy)";
  let description = [{
    Printed like Glow's listing: the written operand first.

    ```mlir
    glow.instr.copy out %dst, in %src : memref<4xf32>
    ```
  }];
  let arguments = (ins Arg<Glow_Buffer, "", [MemWrite]>:$dest,
                       Arg<Glow_Buffer, "", [MemRead]>:$source);
  let assemblyFormat = "`out` $dest `,` `in` $source attr-dict `:` type($dest)";
}

def Glow_CheckOp : Glow_Instr_Op<"check", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "a runtime check: when `ok` is false, the call reports `message`";
  let description = [{
    The compiled code goes on (the code around a check keeps every access in
    bounds whatever the data), and the caller learns of the first failed check when
    the call returns: `glow-lower-checks` numbers the checks, records their messages on
    the module (`glow.runtime_errors`) and turns each into a store of its number into
    the module's status word, which `glow_take_status()` reads and clears (glow-run
    reports the message; a bundle's `NAME_status()` returns the number). Unlike
    `cf.assert`, a failed check never aborts the process.

    ```mlir
    glow.instr.check %in_range message "node 'embed' (Gather): an index is outside [-1000, 1000)"
    ```
  }];
  let arguments = (ins I1:$ok, StrAttr:$message);
  let assemblyFormat = "$ok `message` $message attr-dict";
}

#endif // GLOW_INSTR_OPS
