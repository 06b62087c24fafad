//! Writing the int8 micro-kernels as MLIR text: numbered SSA values, tensor types, the
//! requantization epilogue and the plain-vector 4-byte dot product they share.

use std::fmt::Write;

/// MLIR text with numbered SSA values.
#[derive(Default)]
pub struct Text {
    /// The text so far.
    pub out: String,
    next: usize,
}

impl Text {
    /// A new SSA name.
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    /// `%v = <rhs>` on its own line; returns `%v`.
    pub fn let_(&mut self, indent: usize, rhs: &str) -> String {
        let name = self.fresh();
        let _ = writeln!(self.out, "{:indent$}{name} = {rhs}", "", indent = indent);
        name
    }

    /// A line of text.
    pub fn line(&mut self, indent: usize, text: &str) {
        let _ = writeln!(self.out, "{:indent$}{text}", "", indent = indent);
    }

    /// The end of an `scf.forall` whose body is at `indent` (the forall itself at
    /// `indent - 2`): its terminator with one `tensor.parallel_insert_slice`.
    pub fn end_forall(&mut self, indent: usize, parallel_insert: &str) {
        self.line(indent, "scf.forall.in_parallel {");
        self.line(
            indent + 2,
            &format!("tensor.parallel_insert_slice {parallel_insert}"),
        );
        self.line(indent, "}");
        self.line(indent - 2, "}");
    }
}

/// `tensor<AxBx...xelement>`.
pub fn tensor(shape: &[i64], element: &str) -> String {
    let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
    format!("tensor<{}x{element}>", dims.join("x"))
}

/// The requantization of 16 int32 accumulators into 16 output bytes: plus the
/// corrected bias, times the f32 multiplier, rounded to even, clamped, plus the
/// output zero point (the constants are defined once, where it is created).
pub struct Requantizer {
    zero_point: String,
    low: String,
    high: String,
}

impl Requantizer {
    /// Defines the zero point and clamp bounds (storage values) at `indent`.
    pub fn new(t: &mut Text, indent: usize, zero_point: i64, low: i64, high: i64) -> Self {
        let zp = t.let_(
            indent,
            &format!("arith.constant dense<{zero_point}> : vector<16xi32>"),
        );
        let low = t.let_(
            indent,
            &format!(
                "arith.constant dense<{:.1}> : vector<16xf32>",
                (low - zero_point) as f64
            ),
        );
        let high = t.let_(
            indent,
            &format!(
                "arith.constant dense<{:.1}> : vector<16xf32>",
                (high - zero_point) as f64
            ),
        );
        Self {
            zero_point: zp,
            low,
            high,
        }
    }

    /// The 16 bytes (`vector<16xi8>`) of accumulators `acc` with `bias` and `mult`.
    pub fn bytes(&self, t: &mut Text, i: usize, acc: &str, bias: &str, mult: &str) -> String {
        let sum = t.let_(i, &format!("arith.addi {acc}, {bias} : vector<16xi32>"));
        let real = t.let_(
            i,
            &format!("arith.sitofp {sum} : vector<16xi32> to vector<16xf32>"),
        );
        let scaled = t.let_(i, &format!("arith.mulf {real}, {mult} : vector<16xf32>"));
        let rounded = t.let_(i, &format!("math.roundeven {scaled} : vector<16xf32>"));
        let above = t.let_(
            i,
            &format!("arith.maximumf {rounded}, {} : vector<16xf32>", self.low),
        );
        let within = t.let_(
            i,
            &format!("arith.minimumf {above}, {} : vector<16xf32>", self.high),
        );
        let integer = t.let_(
            i,
            &format!("arith.fptosi {within} : vector<16xf32> to vector<16xi32>"),
        );
        let shifted = t.let_(
            i,
            &format!("arith.addi {integer}, {} : vector<16xi32>", self.zero_point),
        );
        t.let_(
            i,
            &format!("arith.trunci {shifted} : vector<16xi32> to vector<16xi8>"),
        )
    }
}

/// `acc` plus, per int32 lane n, the dot product of bytes 4n..4n+4 of `a` and `w`
/// (`vector<64xi8>` each; `a` unsigned, or signed with `a_signed`; `w` signed), in
/// plain vector arithmetic: extend, multiply, sum groups of 4.
pub fn dot4_generic(t: &mut Text, i: usize, acc: &str, a: &str, w: &str, a_signed: bool) -> String {
    let extend = if a_signed {
        "arith.extsi"
    } else {
        "arith.extui"
    };
    let wide_a = t.let_(
        i,
        &format!("{extend} {a} : vector<64xi8> to vector<64xi32>"),
    );
    let wide_w = t.let_(
        i,
        &format!("arith.extsi {w} : vector<64xi8> to vector<64xi32>"),
    );
    let product = t.let_(
        i,
        &format!("arith.muli {wide_a}, {wide_w} : vector<64xi32>"),
    );
    let grouped = t.let_(
        i,
        &format!("vector.shape_cast {product} : vector<64xi32> to vector<16x4xi32>"),
    );
    t.let_(
        i,
        &format!("vector.multi_reduction <add>, {grouped}, {acc} [1] : vector<16x4xi32> to vector<16xi32>"),
    )
}
