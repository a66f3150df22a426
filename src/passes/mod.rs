//! IR-to-IR passes; `pipeline` runs them in order for an optimisation level.
