//! The IR validator: checks the invariants written on the IR types. Run after
//! lowering and after every pass in debug builds and tests.
