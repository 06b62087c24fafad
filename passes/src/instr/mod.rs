//! Glow's instruction IR in the pipeline: raising a bufferized function to glow.instr
//! ([`raise`]), Glow's IR optimizations on it ([`lifetimes`], [`dead_allocs`],
//! [`copy_elimination`], [`in_place`], [`memory_order`]), its listing ([`listing`]) and, after
//! `glow-plan-memory` has placed every buffer, its lowering to views of the three
//! planned byte buffers ([`lower`]).

pub mod buffers;
pub mod copy_elimination;
pub mod dead_allocs;
pub mod in_place;
pub mod lifetimes;
pub mod listing;
pub mod lower;
pub mod memory_order;
pub mod raise;
