//! The second intrinsic table: packed 8-bit math (SM 6.4, 6.6), wave
//! partitions (SM 6.5), the D3D9-era helpers (`lit`, `dst`, `msad4`,
//! `D3DCOLORtoUBYTE4`), `isnormal` and `DebugBreak`. Sorted by name like
//! [`super::table::TABLE`]; `table::find` looks in both.

use super::table::{Comp, Custom, Intrinsic, Lower, Ret, Shp, ov, p};
use crate::ir::SubgroupOperation as W;
use crate::sema::types::Sc;

/// One overload lowered by `lower`.
macro_rules! one {
    ($name:literal, [$($p:expr),*], $ret:expr, $lower:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(&[$($p),*], $ret, $lower)],
        }
    };
}

/// `WaveMultiPrefix*(value, uint4 mask)`: the value's component class.
macro_rules! multiprefix {
    ($name:literal, $comp:expr, $w:expr) => {
        one!(
            $name,
            [
                p(0, $comp, Shp::ScalarOrVector),
                p(1, Comp::Uint32, Shp::Vec4)
            ],
            Ret::Slot(0),
            Lower::Wave($w)
        )
    };
}

/// The packed 8-bit vector: a `uint` (`int8_t4_packed`, `uint8_t4_packed`).
const PACKED: super::table::P = p(0, Comp::Uint32, Shp::Scalar);

pub static MORE: &[Intrinsic] = &[
    one!(
        "D3DCOLORtoUBYTE4",
        [p(0, Comp::Float32, Shp::Vec4)],
        Ret::Vec4(Sc::I32),
        Lower::Custom(Custom::D3dColorToUbyte4)
    ),
    one!(
        "DebugBreak",
        [],
        Ret::Void,
        Lower::Custom(Custom::DebugBreak)
    ),
    one!(
        "WaveMatch",
        [p(0, Comp::Any, Shp::ScalarOrVector)],
        Ret::Uint4,
        Lower::Wave(W::Match)
    ),
    multiprefix!("WaveMultiPrefixBitAnd", Comp::Int, W::MultiPrefixBitAnd),
    multiprefix!("WaveMultiPrefixBitOr", Comp::Int, W::MultiPrefixBitOr),
    multiprefix!("WaveMultiPrefixBitXor", Comp::Int, W::MultiPrefixBitXor),
    one!(
        "WaveMultiPrefixCountBits",
        [p(0, Comp::Bool, Shp::Scalar), p(1, Comp::Uint32, Shp::Vec4)],
        Ret::Uint,
        Lower::Wave(W::MultiPrefixCountBits)
    ),
    multiprefix!(
        "WaveMultiPrefixProduct",
        Comp::Numeric,
        W::MultiPrefixProduct
    ),
    multiprefix!("WaveMultiPrefixSum", Comp::Numeric, W::MultiPrefixSum),
    one!(
        "dot2add",
        [
            p(0, Comp::Half, Shp::Vec2),
            p(0, Comp::Half, Shp::Vec2),
            p(1, Comp::Float32, Shp::Scalar)
        ],
        Ret::Slot(1),
        Lower::Custom(Custom::Dot2Add)
    ),
    one!(
        "dot4add_i8packed",
        [PACKED, PACKED, p(1, Comp::Int32, Shp::Scalar)],
        Ret::Slot(1),
        Lower::Custom(Custom::Dot4Add { signed: true })
    ),
    one!(
        "dot4add_u8packed",
        [PACKED, PACKED, p(1, Comp::Uint32, Shp::Scalar)],
        Ret::Slot(1),
        Lower::Custom(Custom::Dot4Add { signed: false })
    ),
    one!(
        "dst",
        [p(0, Comp::Float, Shp::Vec4), p(0, Comp::Float, Shp::Vec4)],
        Ret::Slot(0),
        Lower::Custom(Custom::Dst)
    ),
    one!(
        "isnormal",
        [p(0, Comp::Float, Shp::Any)],
        Ret::SlotWith(0, Sc::Bool),
        Lower::Custom(Custom::IsNormal)
    ),
    one!(
        "lit",
        [
            p(0, Comp::Float32, Shp::Scalar),
            p(0, Comp::Float32, Shp::Scalar),
            p(0, Comp::Float32, Shp::Scalar)
        ],
        Ret::Vec4(Sc::F32),
        Lower::Custom(Custom::Lit)
    ),
    one!(
        "msad4",
        [
            p(0, Comp::Uint32, Shp::Scalar),
            p(1, Comp::Uint32, Shp::Vec2),
            p(2, Comp::Uint32, Shp::Vec4)
        ],
        Ret::Uint4,
        Lower::Custom(Custom::Msad4)
    ),
    // DXC: the clamping forms take signed vectors only.
    one!(
        "pack_clamp_s8",
        [p(0, Comp::Sint, Shp::Vec4)],
        Ret::Uint,
        Lower::Custom(Custom::Pack {
            signed: true,
            clamp: true
        })
    ),
    one!(
        "pack_clamp_u8",
        [p(0, Comp::Sint, Shp::Vec4)],
        Ret::Uint,
        Lower::Custom(Custom::Pack {
            signed: false,
            clamp: true
        })
    ),
    one!(
        "pack_s8",
        [p(0, Comp::Int, Shp::Vec4)],
        Ret::Uint,
        Lower::Custom(Custom::Pack {
            signed: true,
            clamp: false
        })
    ),
    one!(
        "pack_u8",
        [p(0, Comp::Int, Shp::Vec4)],
        Ret::Uint,
        Lower::Custom(Custom::Pack {
            signed: false,
            clamp: false
        })
    ),
    one!(
        "unpack_s8s16",
        [PACKED],
        Ret::Vec4(Sc::I16),
        Lower::Custom(Custom::Unpack { signed: true })
    ),
    one!(
        "unpack_s8s32",
        [PACKED],
        Ret::Vec4(Sc::I32),
        Lower::Custom(Custom::Unpack { signed: true })
    ),
    one!(
        "unpack_u8u16",
        [PACKED],
        Ret::Vec4(Sc::U16),
        Lower::Custom(Custom::Unpack { signed: false })
    ),
    one!(
        "unpack_u8u32",
        [PACKED],
        Ret::Vec4(Sc::U32),
        Lower::Custom(Custom::Unpack { signed: false })
    ),
];
