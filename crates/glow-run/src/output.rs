//! Writing results to standard output. A reader that goes away early (`glow-run ... |
//! head`) ends the program quietly, as Unix tools do, instead of the panic `println!`
//! raises on a closed pipe.

use std::io::Write;

/// Writes one line to standard output.
pub fn line(text: std::fmt::Arguments) {
    if let Err(error) = writeln!(std::io::stdout().lock(), "{text}") {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {error}");
        std::process::exit(1);
    }
}

/// `println!` through [`line`].
#[macro_export]
macro_rules! outln {
    ($($arguments:tt)*) => {
        $crate::output::line(format_args!($($arguments)*))
    };
}
