func.func private @glow_take_status() -> i32
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  glow.instr.check %true message "never fails"
  glow.instr.check %false message "fails first"
  glow.instr.check %false message "fails second"
  %status = func.call @glow_take_status() : () -> i32
  %again = func.call @glow_take_status() : () -> i32
  %s = arith.extsi %status : i32 to i64
  %a = arith.extsi %again : i32 to i64
  func.call @printI64(%s) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printI64(%a) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
