//! The intrinsic catalog: every intrinsic function with its overload
//! patterns and how each lowers. To add one, add an entry to [`TABLE`]
//! (and, for a `Custom` lowering, a case in `lower.rs`).
//!
//! A pattern parameter names a template slot; arguments in the same slot
//! unify to one type (the usual arithmetic conversions for the component,
//! the larger shape, a scalar splatting). The slot's component class then
//! fixes the component type (e.g. `Float` turns ints into `float`, as DXC's
//! float-like templates do).

use crate::ir::{
    DerivativeAxis as Ax, DerivativeControl as Dc, MathFunction as M, RelationalFunction as R,
    SubgroupOperation as W,
};

/// Component types a slot accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comp {
    /// half/float/double; integers and bools become `float`.
    Float,
    /// Exactly `float`.
    Float32,
    /// `half`: 16-bit with `-enable-16bit-types`, else `float` (DXC's
    /// `half`); other floats, ints and bools convert.
    Half,
    /// Any integer or float type (bool becomes int).
    Numeric,
    /// Integer types (bool becomes int); floats do not fit.
    Int,
    /// `uint` (other integers convert).
    Uint,
    /// Exactly `uint` (other integers and bools convert).
    Uint32,
    /// Exactly `int` (other integers and bools convert).
    Int32,
    /// Signed integers (bool becomes int); unsigned ones and floats do
    /// not fit.
    Sint,
    /// `bool` (anything numeric converts).
    Bool,
    /// Any numeric type, unchanged.
    Any,
}

/// Shapes a slot accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shp {
    Scalar,
    Vector,
    ScalarOrVector,
    Matrix,
    /// Scalar, vector or matrix.
    Any,
    /// A 2-, 3- or 4-component vector.
    Vec2,
    Vec3,
    Vec4,
}

/// One parameter.
#[derive(Clone, Copy, Debug)]
pub struct P {
    pub slot: u8,
    pub comp: Comp,
    pub shape: Shp,
    pub out: bool,
}

/// The result type.
#[derive(Clone, Copy, Debug)]
pub enum Ret {
    Void,
    /// The type of a slot.
    Slot(u8),
    /// A slot's shape with another component.
    SlotWith(u8, crate::sema::types::Sc),
    /// A slot's component scalar.
    ScalarOf(u8),
    Bool,
    Uint,
    Uint4,
    /// A 4-component vector of this component type.
    Vec4(crate::sema::types::Sc),
}

/// Lowerings that need more than one IR operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Custom {
    Abs,
    Log10,
    Fmod,
    Ldexp,
    Mad,
    Sign,
    Dot,
    Mul,
    Transpose,
    Isfinite,
    Any,
    All,
    /// `asuint`/`asint`/`asfloat` bit casts.
    AsUint,
    AsInt,
    AsFloat,
    /// `asuint16`/`asint16`/`asfloat16` (SM 6.2, 16-bit types).
    AsUint16,
    AsInt16,
    AsFloat16,
    /// `asuint(double, out uint lo, out uint hi)`.
    AsUintDouble,
    AsDouble,
    Select,
    And,
    Or,
    Modf,
    Sincos,
    Clip,
    Interlocked(&'static str),
    Length,
    Normalize,
    Frexp,
    Fma,
    QuadAny,
    QuadAll,
    /// SM 6.10 `GetGroupWaveCount`/`GetGroupWaveIndex`: built-ins.
    GroupWaveCount,
    GroupWaveIndex,
    /// `CheckAccessFullyMapped(status)`: OpImageSparseTexelsResident.
    CheckAccessFullyMapped,
    /// `NonUniformResourceIndex(i)`: the index marked non-uniform.
    NonUniform,
    /// SM 6.6 `IsHelperLane()`: false outside pixel shaders.
    IsHelperLane,
    /// SM 5 `msad4(reference, source, accum)`: masked sums of absolute
    /// byte differences at four alignments.
    Msad4,
    /// `isnormal(x)`: neither zero, denormal, infinite nor NaN.
    IsNormal,
    /// The D3D9 lighting helpers `lit(n_dot_l, n_dot_h, m)` and
    /// `dst(src0, src1)`.
    Lit,
    Dst,
    /// `D3DCOLORtoUBYTE4(color)`: a BGRA color as four ints.
    D3dColorToUbyte4,
    /// SM 6.4 `dot2add(half2, half2, float)`.
    Dot2Add,
    /// SM 6.4 `dot4add_i8packed`/`dot4add_u8packed`.
    Dot4Add {
        signed: bool,
    },
    /// SM 6.6 `pack_s8`/`pack_u8` and, with `clamp`, `pack_clamp_s8`/
    /// `pack_clamp_u8`; `signed` picks the range clamped to.
    Pack {
        signed: bool,
        clamp: bool,
    },
    /// SM 6.6 `unpack_s8s16`… : the four bytes, sign- or zero-extended.
    Unpack {
        signed: bool,
    },
    /// `DebugBreak()`: NonSemantic.DebugBreak.
    DebugBreak,
    /// SM 6.1 `GetAttributeAtVertex(attr, vertex)`: an error outside pixel
    /// shaders; in them lowered by `sema/entry/vertex.rs`.
    GetAttributeAtVertex,
}

/// How an overload lowers.
#[derive(Clone, Copy, Debug)]
pub enum Lower {
    /// A component-wise (or, for vector functions, whole-value) math
    /// function; matrices are done row by row.
    Math(M),
    Rel(R),
    Deriv(Ax, Dc),
    Wave(W),
    Barrier {
        workgroup: bool,
        device: bool,
        sync: bool,
    },
    Custom(Custom),
}

#[derive(Clone, Copy, Debug)]
pub struct Overload {
    pub params: &'static [P],
    pub ret: Ret,
    pub lower: Lower,
}

#[derive(Clone, Copy, Debug)]
pub struct Intrinsic {
    pub name: &'static str,
    pub overloads: &'static [Overload],
}

pub(super) const fn p(slot: u8, comp: Comp, shape: Shp) -> P {
    P {
        slot,
        comp,
        shape,
        out: false,
    }
}
pub(super) const fn o(slot: u8, comp: Comp, shape: Shp) -> P {
    P {
        slot,
        comp,
        shape,
        out: true,
    }
}

const F: P = p(0, Comp::Float, Shp::Any);
const N: P = p(0, Comp::Numeric, Shp::Any);
const FV: P = p(0, Comp::Float, Shp::ScalarOrVector);

pub(super) const fn ov(params: &'static [P], ret: Ret, lower: Lower) -> Overload {
    Overload { params, ret, lower }
}

macro_rules! float_fn {
    ($name:literal, $f:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(&[F], Ret::Slot(0), Lower::Math($f))],
        }
    };
}
macro_rules! float_fn2 {
    ($name:literal, $f:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(&[F, F], Ret::Slot(0), Lower::Math($f))],
        }
    };
}
macro_rules! custom {
    ($name:literal, [$($p:expr),*], $ret:expr, $c:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(&[$($p),*], $ret, Lower::Custom($c))],
        }
    };
}
macro_rules! wave {
    ($name:literal, [$($p:expr),*], $ret:expr, $w:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(&[$($p),*], $ret, Lower::Wave($w))],
        }
    };
}
macro_rules! deriv {
    ($name:literal, $ax:expr, $c:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(&[F], Ret::Slot(0), Lower::Deriv($ax, $c))],
        }
    };
}
macro_rules! barrier {
    ($name:literal, $wg:expr, $dev:expr, $sync:expr) => {
        Intrinsic {
            name: $name,
            overloads: &[ov(
                &[],
                Ret::Void,
                Lower::Barrier {
                    workgroup: $wg,
                    device: $dev,
                    sync: $sync,
                },
            )],
        }
    };
}
macro_rules! interlocked {
    ($name:literal) => {
        Intrinsic {
            name: $name,
            overloads: &[
                ov(
                    &[p(0, Comp::Int, Shp::Scalar), p(0, Comp::Int, Shp::Scalar)],
                    Ret::Void,
                    Lower::Custom(Custom::Interlocked($name)),
                ),
                ov(
                    &[
                        p(0, Comp::Int, Shp::Scalar),
                        p(0, Comp::Int, Shp::Scalar),
                        o(0, Comp::Int, Shp::Scalar),
                    ],
                    Ret::Void,
                    Lower::Custom(Custom::Interlocked($name)),
                ),
            ],
        }
    };
}

use crate::sema::types::Sc;

/// Every intrinsic, sorted by name (`lookup` finds a name through a hashed
/// index built from this table and `MORE`).
pub static TABLE: &[Intrinsic] = &[
    barrier!("AllMemoryBarrier", true, true, false),
    barrier!("AllMemoryBarrierWithGroupSync", true, true, true),
    custom!(
        "CheckAccessFullyMapped",
        [p(0, Comp::Uint, Shp::Scalar)],
        Ret::Bool,
        Custom::CheckAccessFullyMapped
    ),
    barrier!("DeviceMemoryBarrier", false, true, false),
    barrier!("DeviceMemoryBarrierWithGroupSync", false, true, true),
    custom!(
        "GetAttributeAtVertex",
        [p(0, Comp::Any, Shp::Any), p(1, Comp::Uint, Shp::Scalar)],
        Ret::Slot(0),
        Custom::GetAttributeAtVertex
    ),
    custom!("GetGroupWaveCount", [], Ret::Uint, Custom::GroupWaveCount),
    custom!("GetGroupWaveIndex", [], Ret::Uint, Custom::GroupWaveIndex),
    barrier!("GroupMemoryBarrier", true, false, false),
    barrier!("GroupMemoryBarrierWithGroupSync", true, false, true),
    interlocked!("InterlockedAdd"),
    interlocked!("InterlockedAnd"),
    Intrinsic {
        name: "InterlockedCompareExchange",
        overloads: &[ov(
            &[
                p(0, Comp::Int, Shp::Scalar),
                p(0, Comp::Int, Shp::Scalar),
                p(0, Comp::Int, Shp::Scalar),
                o(0, Comp::Int, Shp::Scalar),
            ],
            Ret::Void,
            Lower::Custom(Custom::Interlocked("InterlockedCompareExchange")),
        )],
    },
    Intrinsic {
        name: "InterlockedCompareStore",
        overloads: &[ov(
            &[
                p(0, Comp::Int, Shp::Scalar),
                p(0, Comp::Int, Shp::Scalar),
                p(0, Comp::Int, Shp::Scalar),
            ],
            Ret::Void,
            Lower::Custom(Custom::Interlocked("InterlockedCompareStore")),
        )],
    },
    Intrinsic {
        name: "InterlockedExchange",
        overloads: &[
            ov(
                &[p(0, Comp::Any, Shp::Scalar), p(0, Comp::Any, Shp::Scalar)],
                Ret::Void,
                Lower::Custom(Custom::Interlocked("InterlockedExchange")),
            ),
            ov(
                &[
                    p(0, Comp::Any, Shp::Scalar),
                    p(0, Comp::Any, Shp::Scalar),
                    o(0, Comp::Any, Shp::Scalar),
                ],
                Ret::Void,
                Lower::Custom(Custom::Interlocked("InterlockedExchange")),
            ),
        ],
    },
    interlocked!("InterlockedMax"),
    interlocked!("InterlockedMin"),
    interlocked!("InterlockedOr"),
    interlocked!("InterlockedXor"),
    custom!("IsHelperLane", [], Ret::Bool, Custom::IsHelperLane),
    custom!(
        "NonUniformResourceIndex",
        [p(0, Comp::Any, Shp::Scalar)],
        Ret::Slot(0),
        Custom::NonUniform
    ),
    custom!(
        "QuadAll",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Bool,
        Custom::QuadAll
    ),
    custom!(
        "QuadAny",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Bool,
        Custom::QuadAny
    ),
    wave!(
        "QuadReadAcrossDiagonal",
        [p(0, Comp::Any, Shp::Any)],
        Ret::Slot(0),
        W::QuadReadAcrossDiagonal
    ),
    wave!(
        "QuadReadAcrossX",
        [p(0, Comp::Any, Shp::Any)],
        Ret::Slot(0),
        W::QuadReadAcrossX
    ),
    wave!(
        "QuadReadAcrossY",
        [p(0, Comp::Any, Shp::Any)],
        Ret::Slot(0),
        W::QuadReadAcrossY
    ),
    wave!(
        "QuadReadLaneAt",
        [p(0, Comp::Any, Shp::Any), p(1, Comp::Uint, Shp::Scalar)],
        Ret::Slot(0),
        W::QuadReadLaneAt
    ),
    wave!(
        "WaveActiveAllEqual",
        [p(0, Comp::Any, Shp::Any)],
        Ret::SlotWith(0, Sc::Bool),
        W::AllEqual
    ),
    wave!(
        "WaveActiveAllTrue",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Bool,
        W::AllTrue
    ),
    wave!(
        "WaveActiveAnyTrue",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Bool,
        W::AnyTrue
    ),
    wave!(
        "WaveActiveBallot",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Uint4,
        W::Ballot
    ),
    wave!(
        "WaveActiveBitAnd",
        [p(0, Comp::Int, Shp::Any)],
        Ret::Slot(0),
        W::BitAnd
    ),
    wave!(
        "WaveActiveBitOr",
        [p(0, Comp::Int, Shp::Any)],
        Ret::Slot(0),
        W::BitOr
    ),
    wave!(
        "WaveActiveBitXor",
        [p(0, Comp::Int, Shp::Any)],
        Ret::Slot(0),
        W::BitXor
    ),
    wave!(
        "WaveActiveCountBits",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Uint,
        W::CountBits
    ),
    wave!("WaveActiveMax", [N], Ret::Slot(0), W::Max),
    wave!("WaveActiveMin", [N], Ret::Slot(0), W::Min),
    wave!("WaveActiveProduct", [N], Ret::Slot(0), W::Product),
    wave!("WaveActiveSum", [N], Ret::Slot(0), W::Sum),
    wave!("WaveGetLaneCount", [], Ret::Uint, W::GetLaneCount),
    wave!("WaveGetLaneIndex", [], Ret::Uint, W::GetLaneIndex),
    wave!("WaveIsFirstLane", [], Ret::Bool, W::IsFirstLane),
    wave!(
        "WavePrefixCountBits",
        [p(0, Comp::Bool, Shp::Scalar)],
        Ret::Uint,
        W::PrefixCountBits
    ),
    wave!("WavePrefixProduct", [N], Ret::Slot(0), W::PrefixProduct),
    wave!("WavePrefixSum", [N], Ret::Slot(0), W::PrefixSum),
    wave!(
        "WaveReadLaneAt",
        [p(0, Comp::Any, Shp::Any), p(1, Comp::Uint, Shp::Scalar)],
        Ret::Slot(0),
        W::ReadLaneAt
    ),
    wave!(
        "WaveReadLaneFirst",
        [p(0, Comp::Any, Shp::Any)],
        Ret::Slot(0),
        W::ReadLaneFirst
    ),
    custom!("abs", [N], Ret::Slot(0), Custom::Abs),
    float_fn!("acos", M::Acos),
    custom!("all", [p(0, Comp::Any, Shp::Any)], Ret::Bool, Custom::All),
    custom!(
        "and",
        [p(0, Comp::Bool, Shp::Any), p(0, Comp::Bool, Shp::Any)],
        Ret::Slot(0),
        Custom::And
    ),
    custom!("any", [p(0, Comp::Any, Shp::Any)], Ret::Bool, Custom::Any),
    Intrinsic {
        name: "asdouble",
        overloads: &[ov(
            &[
                p(0, Comp::Uint, Shp::ScalarOrVector),
                p(0, Comp::Uint, Shp::ScalarOrVector),
            ],
            Ret::SlotWith(0, Sc::F64),
            Lower::Custom(Custom::AsDouble),
        )],
    },
    custom!(
        "asfloat",
        [p(0, Comp::Any, Shp::Any)],
        Ret::SlotWith(0, Sc::F32),
        Custom::AsFloat
    ),
    custom!(
        "asfloat16",
        [p(0, Comp::Any, Shp::Any)],
        Ret::SlotWith(0, Sc::F16),
        Custom::AsFloat16
    ),
    float_fn!("asin", M::Asin),
    custom!(
        "asint",
        [p(0, Comp::Any, Shp::Any)],
        Ret::SlotWith(0, Sc::I32),
        Custom::AsInt
    ),
    custom!(
        "asint16",
        [p(0, Comp::Any, Shp::Any)],
        Ret::SlotWith(0, Sc::I16),
        Custom::AsInt16
    ),
    Intrinsic {
        name: "asuint",
        overloads: &[
            ov(
                &[p(0, Comp::Any, Shp::Any)],
                Ret::SlotWith(0, Sc::U32),
                Lower::Custom(Custom::AsUint),
            ),
            ov(
                &[
                    p(0, Comp::Any, Shp::Any),
                    o(1, Comp::Uint, Shp::Any),
                    o(1, Comp::Uint, Shp::Any),
                ],
                Ret::Void,
                Lower::Custom(Custom::AsUintDouble),
            ),
        ],
    },
    custom!(
        "asuint16",
        [p(0, Comp::Any, Shp::Any)],
        Ret::SlotWith(0, Sc::U16),
        Custom::AsUint16
    ),
    float_fn!("atan", M::Atan),
    float_fn2!("atan2", M::Atan2),
    float_fn!("ceil", M::Ceil),
    Intrinsic {
        name: "clamp",
        overloads: &[ov(&[N, N, N], Ret::Slot(0), Lower::Math(M::Clamp))],
    },
    custom!("clip", [F], Ret::Void, Custom::Clip),
    float_fn!("cos", M::Cos),
    float_fn!("cosh", M::Cosh),
    Intrinsic {
        name: "countbits",
        overloads: &[ov(
            &[p(0, Comp::Int, Shp::ScalarOrVector)],
            Ret::SlotWith(0, Sc::U32),
            Lower::Math(M::CountOneBits),
        )],
    },
    Intrinsic {
        name: "cross",
        overloads: &[ov(
            &[p(0, Comp::Float, Shp::Vec3), p(0, Comp::Float, Shp::Vec3)],
            Ret::Slot(0),
            Lower::Math(M::Cross),
        )],
    },
    deriv!("ddx", Ax::X, Dc::None),
    deriv!("ddx_coarse", Ax::X, Dc::Coarse),
    deriv!("ddx_fine", Ax::X, Dc::Fine),
    deriv!("ddy", Ax::Y, Dc::None),
    deriv!("ddy_coarse", Ax::Y, Dc::Coarse),
    deriv!("ddy_fine", Ax::Y, Dc::Fine),
    float_fn!("degrees", M::Degrees),
    Intrinsic {
        name: "determinant",
        overloads: &[ov(
            &[p(0, Comp::Float, Shp::Matrix)],
            Ret::ScalarOf(0),
            Lower::Math(M::Determinant),
        )],
    },
    Intrinsic {
        name: "distance",
        overloads: &[ov(&[FV, FV], Ret::ScalarOf(0), Lower::Math(M::Distance))],
    },
    Intrinsic {
        name: "dot",
        overloads: &[ov(
            &[
                p(0, Comp::Numeric, Shp::ScalarOrVector),
                p(0, Comp::Numeric, Shp::ScalarOrVector),
            ],
            Ret::ScalarOf(0),
            Lower::Custom(Custom::Dot),
        )],
    },
    float_fn!("exp", M::Exp),
    float_fn!("exp2", M::Exp2),
    Intrinsic {
        name: "f16tof32",
        overloads: &[ov(
            &[p(0, Comp::Uint, Shp::ScalarOrVector)],
            Ret::SlotWith(0, Sc::F32),
            Lower::Math(M::UnpackHalf),
        )],
    },
    Intrinsic {
        name: "f32tof16",
        overloads: &[ov(
            &[p(0, Comp::Float32, Shp::ScalarOrVector)],
            Ret::SlotWith(0, Sc::U32),
            Lower::Math(M::PackHalf),
        )],
    },
    Intrinsic {
        name: "faceforward",
        overloads: &[ov(
            &[
                p(0, Comp::Float, Shp::Vector),
                p(0, Comp::Float, Shp::Vector),
                p(0, Comp::Float, Shp::Vector),
            ],
            Ret::Slot(0),
            Lower::Math(M::FaceForward),
        )],
    },
    Intrinsic {
        name: "firstbithigh",
        // Floats convert to `int`, as DXC's overload resolution takes them.
        overloads: &[
            ov(
                &[p(0, Comp::Int, Shp::ScalarOrVector)],
                Ret::SlotWith(0, Sc::U32),
                Lower::Math(M::FirstLeadingBit),
            ),
            ov(
                &[p(0, Comp::Int32, Shp::ScalarOrVector)],
                Ret::SlotWith(0, Sc::U32),
                Lower::Math(M::FirstLeadingBit),
            ),
        ],
    },
    Intrinsic {
        name: "firstbitlow",
        // Floats convert to `int`, as DXC's overload resolution takes them.
        overloads: &[
            ov(
                &[p(0, Comp::Int, Shp::ScalarOrVector)],
                Ret::SlotWith(0, Sc::U32),
                Lower::Math(M::FirstTrailingBit),
            ),
            ov(
                &[p(0, Comp::Int32, Shp::ScalarOrVector)],
                Ret::SlotWith(0, Sc::U32),
                Lower::Math(M::FirstTrailingBit),
            ),
        ],
    },
    float_fn!("floor", M::Floor),
    custom!(
        "fma",
        [
            p(0, Comp::Float, Shp::Any),
            p(0, Comp::Float, Shp::Any),
            p(0, Comp::Float, Shp::Any)
        ],
        Ret::Slot(0),
        Custom::Fma
    ),
    custom!("fmod", [F, F], Ret::Slot(0), Custom::Fmod),
    float_fn!("frac", M::Fract),
    custom!(
        "frexp",
        [F, o(0, Comp::Float, Shp::Any)],
        Ret::Slot(0),
        Custom::Frexp
    ),
    deriv!("fwidth", Ax::Width, Dc::None),
    Intrinsic {
        name: "isfinite",
        overloads: &[ov(
            &[F],
            Ret::SlotWith(0, Sc::Bool),
            Lower::Custom(Custom::Isfinite),
        )],
    },
    Intrinsic {
        name: "isinf",
        overloads: &[ov(&[F], Ret::SlotWith(0, Sc::Bool), Lower::Rel(R::IsInf))],
    },
    Intrinsic {
        name: "isnan",
        overloads: &[ov(&[F], Ret::SlotWith(0, Sc::Bool), Lower::Rel(R::IsNan))],
    },
    custom!("ldexp", [F, F], Ret::Slot(0), Custom::Ldexp),
    custom!("length", [FV], Ret::ScalarOf(0), Custom::Length),
    Intrinsic {
        name: "lerp",
        overloads: &[ov(&[F, F, F], Ret::Slot(0), Lower::Math(M::Mix))],
    },
    float_fn!("log", M::Log),
    custom!("log10", [F], Ret::Slot(0), Custom::Log10),
    float_fn!("log2", M::Log2),
    custom!("mad", [N, N, N], Ret::Slot(0), Custom::Mad),
    Intrinsic {
        name: "max",
        overloads: &[ov(&[N, N], Ret::Slot(0), Lower::Math(M::Max))],
    },
    Intrinsic {
        name: "min",
        overloads: &[ov(&[N, N], Ret::Slot(0), Lower::Math(M::Min))],
    },
    custom!(
        "modf",
        [F, o(0, Comp::Float, Shp::Any)],
        Ret::Slot(0),
        Custom::Modf
    ),
    // mul has nine forms (scalar/vector/matrix on either side); it takes
    // the two operands as they are and decides in `lower.rs`.
    custom!(
        "mul",
        [p(0, Comp::Numeric, Shp::Any), p(1, Comp::Numeric, Shp::Any)],
        Ret::Void,
        Custom::Mul
    ),
    custom!("normalize", [FV], Ret::Slot(0), Custom::Normalize),
    custom!(
        "or",
        [p(0, Comp::Bool, Shp::Any), p(0, Comp::Bool, Shp::Any)],
        Ret::Slot(0),
        Custom::Or
    ),
    float_fn2!("pow", M::Pow),
    float_fn!("radians", M::Radians),
    float_fn!("rcp", M::Reciprocal),
    Intrinsic {
        name: "reflect",
        overloads: &[ov(&[FV, FV], Ret::Slot(0), Lower::Math(M::Reflect))],
    },
    Intrinsic {
        name: "refract",
        overloads: &[ov(
            &[
                p(0, Comp::Float, Shp::Vector),
                p(0, Comp::Float, Shp::Vector),
                p(1, Comp::Float, Shp::Scalar),
            ],
            Ret::Slot(0),
            Lower::Math(M::Refract),
        )],
    },
    Intrinsic {
        name: "reversebits",
        overloads: &[ov(
            &[p(0, Comp::Uint, Shp::ScalarOrVector)],
            Ret::Slot(0),
            Lower::Math(M::ReverseBits),
        )],
    },
    float_fn!("round", M::Round),
    float_fn!("rsqrt", M::InverseSqrt),
    float_fn!("saturate", M::Saturate),
    custom!(
        "select",
        [
            p(0, Comp::Bool, Shp::Any),
            p(1, Comp::Any, Shp::Any),
            p(1, Comp::Any, Shp::Any)
        ],
        Ret::Slot(1),
        Custom::Select
    ),
    custom!("sign", [N], Ret::SlotWith(0, Sc::I32), Custom::Sign),
    float_fn!("sin", M::Sin),
    custom!(
        "sincos",
        [F, o(0, Comp::Float, Shp::Any), o(0, Comp::Float, Shp::Any)],
        Ret::Void,
        Custom::Sincos
    ),
    float_fn!("sinh", M::Sinh),
    Intrinsic {
        name: "smoothstep",
        overloads: &[ov(&[F, F, F], Ret::Slot(0), Lower::Math(M::SmoothStep))],
    },
    float_fn!("sqrt", M::Sqrt),
    float_fn2!("step", M::Step),
    float_fn!("tan", M::Tan),
    float_fn!("tanh", M::Tanh),
    Intrinsic {
        name: "transpose",
        // A `float1x1` is a scalar here: its own transpose.
        overloads: &[
            ov(
                &[p(0, Comp::Any, Shp::Matrix)],
                Ret::Void,
                Lower::Custom(Custom::Transpose),
            ),
            ov(
                &[p(0, Comp::Any, Shp::Scalar)],
                Ret::Void,
                Lower::Custom(Custom::Transpose),
            ),
        ],
    },
    float_fn!("trunc", M::Trunc),
];

pub use super::lookup::{all, find_symbol};
// By name: for the language server (and the tests below).
#[cfg(any(feature = "lsp", test))]
pub use super::lookup::find;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for t in [TABLE, super::super::more::MORE] {
            for w in t.windows(2) {
                assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
            }
        }
        for i in super::super::more::MORE {
            assert!(TABLE.iter().all(|t| t.name != i.name), "{} twice", i.name);
        }
        assert!(find("lerp").is_some());
        assert!(find("WaveActiveSum").is_some());
        assert!(find("nothing").is_none());
    }
}
