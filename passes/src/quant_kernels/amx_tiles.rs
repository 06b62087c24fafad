//! The AMX kernel's tile operations, spelled for AMX (`amx.tile_zero`, `tile_load`,
//! `tile_muli` -> `tdpbusd` / `tdpbssd`, `tile_store`) or emulated: vector code that
//! computes the same values (u8 or s8 activations times s8 weights, exact int32
//! sums), so the kernels' tiling and addressing run and are checked on CPUs without
//! AMX. Emulated tiles are not loaded: an A or B operand stays the address of its
//! rows, read where the product needs them.

use super::kernel_text::{dot4_generic, Text};

/// How tile operations are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileIsa {
    /// The `amx` dialect (`tileloadd`, `tdpbusd` / `tdpbssd`, `tilestored`).
    Amx,
    /// Vector code computing what the AMX instructions compute.
    Emulated,
}

/// A multiplication operand: a loaded tile, or, emulated, where its rows are.
pub enum Operand {
    /// An `!amx.tile` value.
    Tile(String),
    /// Emulated A: rows of 64 activation bytes.
    Rows {
        /// The element offset of row 0 in the flat input.
        offset: String,
    },
    /// Emulated B: 16 rows of 64 packed weight bytes.
    Packed {
        /// The filter block.
        block: String,
        /// The first reduction quad.
        quad: String,
    },
}

/// The tile operations of one kernel: its tile shapes and the buffers tiles come
/// from.
pub struct TileOps<'s> {
    /// How operations are spelled.
    pub isa: TileIsa,
    /// Rows of the A and C tiles (pixels).
    pub rows: i64,
    /// Whether activations are int8 (`tdpbssd`) rather than uint8 (`tdpbusd`).
    pub signed_input: bool,
    /// The flat padded input (`memref<{flat_length}xi8>`).
    pub flat: &'s str,
    /// Its length in bytes.
    pub flat_length: i64,
    /// Elements between an A tile's rows.
    pub row_stride: i64,
    /// The packed filter buffer and its memref type.
    pub weights: &'s str,
    /// The packed filter's memref type.
    pub filter_memref: &'s str,
}

impl TileOps<'_> {
    /// The type of a C tile (rows x 16 int32).
    pub fn c_type(&self) -> String {
        match self.isa {
            TileIsa::Amx => format!("!amx.tile<{}x16xi32>", self.rows),
            TileIsa::Emulated => format!("vector<{}x16xi32>", self.rows),
        }
    }

    /// A zero C tile.
    pub fn zero(&self, t: &mut Text, i: usize) -> String {
        match self.isa {
            TileIsa::Amx => t.let_(i, &format!("amx.tile_zero : {}", self.c_type())),
            TileIsa::Emulated => t.let_(i, &format!("arith.constant dense<0> : {}", self.c_type())),
        }
    }

    /// The A tile of `rows` rows of 64 bytes at element `offset` of the flat input,
    /// rows `stride` (an index value equal to `row_stride`) apart.
    pub fn load_a(&self, t: &mut Text, i: usize, offset: &str, stride: &str) -> Operand {
        match self.isa {
            TileIsa::Amx => Operand::Tile(t.let_(
                i,
                &format!(
                    "amx.tile_load {}[{offset}], {stride} : memref<{}xi8> into !amx.tile<{}x64xi8>",
                    self.flat, self.flat_length, self.rows
                ),
            )),
            TileIsa::Emulated => Operand::Rows {
                offset: offset.to_string(),
            },
        }
    }

    /// The B tile of filter block `block` from reduction quad `quad`: 16 rows of 64
    /// bytes.
    pub fn load_b(&self, t: &mut Text, i: usize, block: &str, quad: &str, c0: &str) -> Operand {
        match self.isa {
            TileIsa::Amx => Operand::Tile(t.let_(
                i,
                &format!(
                    "amx.tile_load {}[{block}, {quad}, {c0}] : {} into !amx.tile<16x64xi8>",
                    self.weights, self.filter_memref
                ),
            )),
            TileIsa::Emulated => Operand::Packed {
                block: block.to_string(),
                quad: quad.to_string(),
            },
        }
    }

    /// acc + A x B.
    pub fn multiply(&self, t: &mut Text, i: usize, a: &Operand, b: &Operand, acc: &str) -> String {
        let rows = self.rows;
        match (self.isa, a, b) {
            (TileIsa::Amx, Operand::Tile(a), Operand::Tile(b)) => {
                let zext = if self.signed_input { "" } else { " zext" };
                t.let_(
                    i,
                    &format!(
                        "amx.tile_muli {a}{zext}, {b}, {acc} : !amx.tile<{rows}x64xi8>, !amx.tile<16x64xi8>, !amx.tile<{rows}x16xi32>"
                    ),
                )
            }
            (TileIsa::Emulated, Operand::Rows { offset }, Operand::Packed { block, quad }) => {
                self.emulated_multiply(t, i, offset, block, quad, acc)
            }
            _ => unreachable!("tile operands of another ISA"),
        }
    }

    /// What `tdpbusd` / `tdpbssd` computes, as vector code: for each row r and each of
    /// the 16 quads k, the 4 activation bytes of row r at 4k, broadcast, dot the 64
    /// packed weight bytes of quad k.
    fn emulated_multiply(
        &self,
        t: &mut Text,
        i: usize,
        offset: &str,
        block: &str,
        quad: &str,
        acc: &str,
    ) -> String {
        let rows = self.rows;
        let zero_i8 = t.let_(i, "arith.constant 0 : i8");
        let c0 = t.let_(i, "arith.constant 0 : index");
        let c1 = t.let_(i, "arith.constant 1 : index");
        let c16 = t.let_(i, "arith.constant 16 : index");
        let mut tile = acc.to_string();
        for r in 0..rows {
            let row = t.let_(
                i,
                &format!("vector.extract {tile}[{r}] : vector<16xi32> from vector<{rows}x16xi32>"),
            );
            let summed = t.fresh();
            t.line(
                i,
                &format!("{summed} = scf.for %k = {c0} to {c16} step {c1} iter_args(%s = {row}) -> (vector<16xi32>) {{"),
            );
            let j = i + 2;
            let at = t.let_(
                j,
                &format!(
                    "affine.apply affine_map<(d0, d1) -> (d0 + {} + d1 * 4)>({offset}, %k)",
                    r * self.row_stride
                ),
            );
            let bytes = t.let_(
                j,
                &format!(
                    "vector.transfer_read {}[{at}], {zero_i8} {{in_bounds = [true]}} : memref<{}xi8>, vector<4xi8>",
                    self.flat, self.flat_length
                ),
            );
            let word = t.let_(
                j,
                &format!("vector.bitcast {bytes} : vector<4xi8> to vector<1xi32>"),
            );
            let scalar = t.let_(
                j,
                &format!("vector.extract {word}[0] : i32 from vector<1xi32>"),
            );
            let wide = t.let_(
                j,
                &format!("vector.broadcast {scalar} : i32 to vector<16xi32>"),
            );
            let activations = t.let_(
                j,
                &format!("vector.bitcast {wide} : vector<16xi32> to vector<64xi8>"),
            );
            let row_index = t.let_(j, &format!("arith.addi {quad}, %k : index"));
            let weights = t.let_(
                j,
                &format!(
                    "vector.transfer_read {}[{block}, {row_index}, {c0}], {zero_i8} {{in_bounds = [true]}} : {}, vector<64xi8>",
                    self.weights, self.filter_memref
                ),
            );
            let next = dot4_generic(t, j, "%s", &activations, &weights, self.signed_input);
            t.line(j, &format!("scf.yield {next} : vector<16xi32>"));
            t.line(i, "}");
            tile = t.let_(
                i,
                &format!("vector.insert {summed}, {tile} [{r}] : vector<16xi32> into vector<{rows}x16xi32>"),
            );
        }
        tile
    }

    /// Writes C tile `acc` to the `scratch` buffer (`memref<16x16xi32>`).
    pub fn store_c(&self, t: &mut Text, i: usize, acc: &str, scratch: &str, c0: &str) {
        let rows = self.rows;
        match self.isa {
            TileIsa::Amx => t.line(
                i,
                &format!(
                    "amx.tile_store {scratch}[{c0}, {c0}], {acc} : memref<16x16xi32>, !amx.tile<{rows}x16xi32>"
                ),
            ),
            TileIsa::Emulated => t.line(
                i,
                &format!(
                    "vector.transfer_write {acc}, {scratch}[{c0}, {c0}] {{in_bounds = [true, true]}} : vector<{rows}x16xi32>, memref<16x16xi32>"
                ),
            ),
        }
    }
}

/// The declaration of [`REQUEST_AMX`]'s function, for parsing a kernel alone.
pub const REQUEST_AMX_DECLARATION: &str = "func.func private @glow_request_amx()";

/// The module-level helper AMX kernels call first: Linux lets a process use the AMX
/// tile data registers only after `arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`
/// (else the first tile instruction raises SIGILL). Asked once per process.
pub const REQUEST_AMX: &str = r#"llvm.mlir.global internal @glow_amx_requested(false) : i1
llvm.func @syscall(i64, ...) -> i64
func.func private @glow_request_amx() {
  %flag = llvm.mlir.addressof @glow_amx_requested : !llvm.ptr
  %done = llvm.load %flag : !llvm.ptr -> i1
  scf.if %done {
  } else {
    %number = llvm.mlir.constant(158 : i64) : i64
    %request = llvm.mlir.constant(4131 : i64) : i64
    %feature = llvm.mlir.constant(18 : i64) : i64
    %status = llvm.call @syscall(%number, %request, %feature) vararg(!llvm.func<i64 (i64, ...)>) : (i64, i64, i64) -> i64
    %true = llvm.mlir.constant(true) : i1
    llvm.store %true, %flag : i1, !llvm.ptr
  }
  return
}
"#;
