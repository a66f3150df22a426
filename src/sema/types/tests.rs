//! Tests of the type table.

use super::*;

#[test]
fn interning_and_aliases() {
    let mut t = Types::new();
    assert_eq!(t.scalar(Sc::F32), FLOAT);
    assert_eq!(t.vector(Sc::F32, 1), FLOAT);
    let v = t.vector(Sc::F32, 4);
    assert_eq!(t.vector(Sc::F32, 4), v);
    assert_eq!(t.name(v), "float4");
    let m = t.matrix(Sc::I32, 2, 3);
    assert_eq!(t.name(m), "int2x3");
    let a = t.array(v, Some(3));
    let aa = t.array(a, Some(2));
    assert_eq!(t.name(aa), "float4[2][3]");
    assert_eq!(t.flat_count(aa), 24);
}

#[test]
fn arithmetic_ranks() {
    assert!(Sc::F16.arith_rank() > Sc::U64.arith_rank());
    assert!(Sc::U32.arith_rank() > Sc::I32.arith_rank());
    assert!(Sc::LitFloat.arith_rank() > Sc::I64.arith_rank());
    assert!(Sc::LitInt.arith_rank() < Sc::I16.arith_rank());
}
