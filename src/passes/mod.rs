//! IR-to-IR passes; `pipeline` runs them in order for an optimisation level.
//!
//! Each pass is a free function over the module in its own file, with a
//! doc comment saying what it does, what it never does to `precise`
//! expressions, and what it invalidates. In debug builds (and tests) the
//! validator runs after every pass; a failure becomes an internal-error
//! diagnostic (E0003) naming the pass, and the pipeline stops.
//!
//! Levels (DXC's default is -O3):
//! - every level: `precise` (correctness) and `const_fold` (DXC's front
//!   end folds constant expressions even at -Od, and its constant
//!   division-by-zero errors must not depend on the level);
//! - -O1: + `fuse_mad`, `dce`;
//! - -O2 and -O3: + `inline` of small functions (before `precise`),
//!   `algebra`, `cse`, then `dce`.

pub mod algebra;
pub mod const_fold;
pub mod cse;
pub mod dce;
// pub mod float_controls;
pub mod fuse_mad;
// pub mod inline;
pub mod precise;
pub mod rewrite;
#[cfg(test)]
pub(crate) mod test_util;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::Module;
use crate::options::{DenormMode, Options, TargetEnv};

/// What the pipeline needs to know from the command line.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    /// `-O0`…`-O3`.
    pub opt_level: u8,
    /// `-denorm`: folding flushes denormals under `ftz`.
    pub denorm: Option<DenormMode>,
    /// `-Gis`
    pub ieee_strict: bool,
    pub target_env: TargetEnv,
}

impl PipelineOptions {
    pub fn new(opt_level: u8) -> Self {
        PipelineOptions {
            opt_level,
            denorm: None,
            ieee_strict: false,
            target_env: TargetEnv::default(),
        }
    }
    pub fn from_options(o: &Options) -> Self {
        PipelineOptions {
            opt_level: o.opt_level,
            denorm: o.denorm,
            ieee_strict: o.ieee_strict,
            target_env: o.target_env,
        }
    }
}
