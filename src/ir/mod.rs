//! The intermediate representation between sema and the SPIR-V backend.
//!
//! A [`Module`] holds types (deduplicated), module-level constant
//! expressions, global variables (each in an [`AddressSpace`] that mirrors a
//! SPIR-V storage class), functions and entry points.
//!
//! Inside a [`Function`]:
//! - `expressions` is an arena of side-effect-free [`Expression`]s forming a
//!   DAG. Every expression has a type, stored at the same index in
//!   `expr_types`. An expression must come after all expressions it uses.
//! - `body` is a tree of structured [`Statement`]s. An expression is evaluated
//!   where a `Statement::Emit` whose range covers it stands; expressions that
//!   need no evaluation (literals, constants, variable and argument
//!   references, `CallResult`, `AtomicResult`, `SubgroupResult`) are never
//!   inside an `Emit` range. An expression can only be used by statements and
//!   expressions that come after its `Emit`, in the same block or one nested
//!   in it.
//! - A mutable value lives in a [`LocalVariable`] (reading it is a `Load`
//!   of its pointer, writing it a `Statement::Store`) until `forward`
//!   promotes it to values: where values of a variable merge, a `Phi`
//!   expression stands for them, defined by a [`Statement::Merge`] after
//!   an `if` or a [`Statement::Carry`] before a loop, the two places
//!   structured control flow joins paths that a pass follows.
//!
//! Types and operations are in HLSL terms: a matrix has `rows` and
//! `columns` as HLSL writes `floatRxC`; the backend maps them to SPIR-V as DXC
//! does (an HLSL row is a SPIR-V column).
//!
//! Arithmetic expressions carry `precise`. Only the precise pass sets it;
//! every other pass must keep a precise expression's operation, operand
//! order and rounding as they are. The backend decorates each precise
//! result with `NoContraction`.

pub mod arena;
pub mod build;
pub mod display;
pub mod extensions;
pub mod float;
mod inline_spirv;
mod sampling;
mod target;
mod types;
mod uses;
pub mod valid;
pub mod visit;

pub use arena::{Arena, Handle, Range, UniqueArena};
pub use sampling::ImageSampling;
pub use inline_spirv::*;
pub use target::{Stage, TargetEnv};
pub use types::*;
pub use uses::KeepUnused;

use crate::span::Span;

// ---------------------------------------------------------------------------
// Globals and constants
// ---------------------------------------------------------------------------

/// The node an output payload array's records go to, with the decorations
/// SPV_AMDX_shader_enqueue gives its OpTypeNodePayloadArrayAMDX.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeTarget {
    /// `PayloadNodeNameAMDX`: the output parameter's name, or its
    /// `[NodeID]` name.
    pub name: String,
    /// `PayloadNodeBaseIndexAMDX` (the `[NodeID]` index; 0 is not written).
    pub base_index: u32,
    /// `PayloadNodeArraySizeAMDX`: `[NodeArraySize]` of an output array.
    pub array_size: Option<u32>,
    /// `PayloadNodeSparseArrayAMDX`: `[AllowSparseNodes]` or
    /// `[UnboundedSparseNodes]`.
    pub sparse: bool,
    /// `NodeSharesPayloadLimitsWithAMDX`: `[MaxRecordsSharedWith]` names
    /// the output whose limit this one shares (its payload array type).
    pub shares_limits_with: Option<Handle<Type>>,
}

/// Where a variable lives; mirrors SPIR-V storage classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// Function-local variables.
    Function,
    /// `static` globals and `static` locals.
    Private,
    /// `groupshared`.
    Workgroup,
    /// The payload an amplification shader passes to its mesh shaders
    /// (SPV_EXT_mesh_shader `TaskPayloadWorkgroupEXT`): the groupshared
    /// variable given to `DispatchMesh`, and the mesh shader's `in payload`.
    TaskPayload,
    /// `cbuffer`, `ConstantBuffer<T>`, `$Globals` (block in Uniform storage).
    Uniform,
    /// Structured and byte-address buffers. The backend picks BufferBlock in
    /// Uniform storage below SPIR-V 1.3 and StorageBuffer from 1.3, and
    /// decorates the members of a read-only buffer's struct `NonWritable`:
    /// read-only and read-write buffers (and cbuffers) must not share one
    /// struct type (DXC names them `type.StructuredBuffer.T`,
    /// `type.RWStructuredBuffer.T`…).
    Storage { writable: bool },
    /// `[[vk::push_constant]]`.
    PushConstant,
    /// Stage inputs.
    Input,
    /// Stage outputs.
    Output,
    /// Textures, samplers, acceleration structures (UniformConstant).
    Handle,
    /// Ray tracing (SPV_KHR_ray_tracing) interface storage: see
    /// [`RayStorage`].
    Ray(RayStorage),
    /// Work graph records (SPV_AMDX_shader_enqueue `NodePayloadAMDX`): a
    /// node's input variable, and the payload arrays it allocates.
    NodePayload,
    /// Memory reached through a 64-bit device address
    /// (SPV_KHR_physical_storage_buffer `PhysicalStorageBuffer`): what
    /// `vk::RawBufferLoad`/`vk::RawBufferStore` and `vk::BufferPointer`
    /// point to. Only pointer types use it; no variable lives there.
    /// `align` is the alignment in bytes the pointer is known to have; the
    /// backend writes it as the `Aligned` operand of each load and store,
    /// lowered by the offset of the member or element reached.
    PhysicalStorage { align: u32 },
    /// A storage class the shader names itself
    /// (`[[vk::ext_storage_class(N)]]`) that no other space stands for
    /// (`CrossWorkgroup`, `Image`…): hlslc knows nothing of its memory;
    /// variables there have no initialiser and are read and written as
    /// the shader says.
    Raw(spirv::StorageClass),
}

/// The storage classes of ray tracing interface variables (SPIR-V.rst,
/// "Interface Variables"). None of them has an initialiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RayStorage {
    /// The payload a `TraceRay` call passes (`RayPayloadKHR`).
    Payload,
    /// The payload an any-hit, closest-hit or miss shader receives
    /// (`IncomingRayPayloadKHR`).
    IncomingPayload,
    /// Hit attributes: written by `ReportHit`, read by hit shaders
    /// (`HitAttributeKHR`).
    HitAttribute,
    /// The argument a `CallShader` call passes (`CallableDataKHR`).
    CallableData,
    /// What a callable shader receives (`IncomingCallableDataKHR`).
    IncomingCallableData,
    /// `[[vk::shader_record_ext]]`/`[[vk::shader_record_nv]]` buffers: a
    /// block laid out as a storage buffer (`ShaderRecordBufferKHR`).
    ShaderRecord,
}

/// Descriptor set and binding of a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceBinding {
    pub set: u32,
    pub binding: u32,
    /// A subpass input's `[[vk::input_attachment_index(i)]]`
    /// (InputAttachmentIndex).
    pub input_attachment: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// `nointerpolation`
    Flat,
    /// `noperspective`
    NoPerspective,
    /// `linear` (the default: perspective-correct).
    Perspective,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampling {
    Centroid,
    Sample,
}

/// How a stage input or output connects to the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    BuiltIn(spirv::BuiltIn),
    Location {
        location: u32,
        /// `[[vk::location(n), vk::index(i)]]` for dual-source blending.
        index: Option<u32>,
        interpolation: Option<Interpolation>,
        sampling: Option<Sampling>,
        /// A hull-shader patch constant output / domain-shader patch input.
        patch: bool,
    },
    /// SPV_NV_mesh_shader: one member of the payload an amplification
    /// shader passes to its mesh shaders (`PerTaskNV`), at `offset` in the
    /// task memory.
    PerTask {
        offset: u32,
    },
}

/// A module-level variable.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVariable {
    pub name: Option<String>,
    pub space: AddressSpace,
    /// The type of the variable (not a pointer).
    pub ty: Handle<Type>,
    /// A constant initialiser (index into `Module::const_expressions`).
    /// Private variables without one are zero-initialised by the backend.
    pub init: Option<Handle<Expression>>,
    /// For resources and buffer blocks.
    pub binding: Option<ResourceBinding>,
    /// For stage inputs and outputs.
    pub io: Option<Binding>,
    /// Values stored here must be computed precisely (`precise` stage output
    /// or `precise` static).
    pub precise: bool,
    /// `invariant`-style `SV_Position` (DXC decorates Position Invariant when
    /// `precise`).
    pub invariant: bool,
    /// The HLSL semantic, for reflection and `-fspv-reflect`.
    pub semantic: Option<String>,
    /// For an Append/Consume/RW structured buffer with a counter: the
    /// counter's global.
    pub counter: Option<Handle<GlobalVariable>>,
    /// For `-fspv-reflect`: the HLSL type of a resource as DXC names it in
    /// `UserTypeGOOGLE` (`structuredbuffer:<float4>`, `cbuffer`).
    pub user_type: Option<String>,
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

/// A scalar constant. Floats are stored as bits so that `Eq`/`Hash` are exact
/// (and -0.0, NaN payloads survive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    Bool(bool),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    /// IEEE binary16 bits.
    F16(u16),
    /// IEEE binary32 bits.
    F32(u32),
    /// IEEE binary64 bits.
    F64(u64),
}

impl Literal {
    pub fn f32(v: f32) -> Literal {
        Literal::F32(v.to_bits())
    }
    pub fn f64(v: f64) -> Literal {
        Literal::F64(v.to_bits())
    }
    /// The zero (`false`) of a scalar type.
    pub fn zero(s: Scalar) -> Option<Literal> {
        Some(match (s.kind, s.width) {
            (ScalarKind::Bool, _) => Literal::Bool(false),
            (ScalarKind::Sint, 2) => Literal::I16(0),
            (ScalarKind::Uint, 2) => Literal::U16(0),
            (ScalarKind::Sint, 4) => Literal::I32(0),
            (ScalarKind::Uint, 4) => Literal::U32(0),
            (ScalarKind::Sint, 8) => Literal::I64(0),
            (ScalarKind::Uint, 8) => Literal::U64(0),
            (ScalarKind::Float, 2) => Literal::F16(0),
            (ScalarKind::Float, 4) => Literal::F32(0),
            (ScalarKind::Float, 8) => Literal::F64(0),
            _ => return None,
        })
    }
    pub fn scalar(self) -> Scalar {
        match self {
            Literal::Bool(_) => Scalar::BOOL,
            Literal::I16(_) => Scalar::I16,
            Literal::U16(_) => Scalar::U16,
            Literal::I32(_) => Scalar::I32,
            Literal::U32(_) => Scalar::U32,
            Literal::I64(_) => Scalar::I64,
            Literal::U64(_) => Scalar::U64,
            Literal::F16(_) => Scalar::F16,
            Literal::F32(_) => Scalar::F32,
            Literal::F64(_) => Scalar::F64,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOperator {
    /// Arithmetic negation (integer or float).
    Negate,
    /// Boolean not.
    LogicalNot,
    /// Bitwise not.
    BitwiseNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOperator {
    Add,
    Subtract,
    /// Component-wise (HLSL `*`), also vector × scalar and matrix × scalar.
    Multiply,
    Divide,
    /// `%`: integer remainder (sign of the dividend) or float remainder as
    /// `fmod` (OpFRem).
    Modulo,
    /// `mul()` of matrix × matrix, matrix × vector or vector × matrix.
    MatMul,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    /// Bitwise and (integers).
    And,
    /// Bitwise or (integers).
    InclusiveOr,
    /// Bitwise xor (integers).
    ExclusiveOr,
    /// Non-short-circuit boolean and (operands already evaluated).
    LogicalAnd,
    /// Non-short-circuit boolean or.
    LogicalOr,
    ShiftLeft,
    /// Arithmetic for signed, logical for unsigned operands.
    ShiftRight,
}

/// Built-in math, mostly GLSL.std.450.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFunction {
    Abs,
    Min,
    Max,
    Clamp,
    /// clamp(x, 0, 1)
    Saturate,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Pow,
    Exp,
    Exp2,
    Log,
    Log2,
    Sqrt,
    InverseSqrt,
    Floor,
    Ceil,
    /// HLSL `round`: to nearest even (GLSL RoundEven).
    Round,
    Trunc,
    /// `frac`: x - floor(x)
    Fract,
    /// Fused multiply-add: one rounding.
    Fma,
    /// `lerp(a, b, t)`
    Mix,
    Step,
    SmoothStep,
    Sign,
    Dot,
    Cross,
    Length,
    Distance,
    Normalize,
    Reflect,
    Refract,
    FaceForward,
    Transpose,
    Determinant,
    CountOneBits,
    ReverseBits,
    /// `firstbitlow`
    FirstTrailingBit,
    /// `firstbithigh` (signed: first bit differing from the sign bit).
    FirstLeadingBit,
    /// `f32tof16`: low 16 bits hold the half.
    PackHalf,
    /// `f16tof32`
    UnpackHalf,
    /// `rcp`: 1 / x
    Reciprocal,
    Degrees,
    Radians,
    /// `frexp`'s two parts (GLSL FrexpStruct): the result is a struct of
    /// the mantissa (the argument's type) and the exponent (32-bit ints
    /// of its shape).
    Frexp,
    /// SM 6.4 `dot4add_*8packed` without the add: the dot product of the
    /// four signed or unsigned bytes of two `uint`s (OpSDot/OpUDot,
    /// PackedVectorFormat4x8Bit), an `int` or `uint`.
    Dot4I8Packed,
    Dot4U8Packed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelationalFunction {
    All,
    Any,
    IsNan,
    IsInf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivativeAxis {
    X,
    Y,
    /// `fwidth`
    Width,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivativeControl {
    None,
    Coarse,
    Fine,
}

/// The level of detail of a sampling operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleLevel {
    /// Implicit LOD (pixel shaders, or compute with derivatives).
    Auto,
    /// Explicit LOD (`SampleLevel`).
    Exact(Handle<Expression>),
    /// `SampleBias`
    Bias(Handle<Expression>),
    /// `SampleGrad`
    Gradient {
        x: Handle<Expression>,
        y: Handle<Expression>,
    },
    /// LOD 0 (`SampleCmpLevelZero`).
    Zero,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageQuery {
    /// Width/height/depth (and array layers) at a level, or of a level-less
    /// image when `level` is `None` (for an image with mip levels, `None`
    /// means level 0, as DXC's `GetDimensions` without a level).
    Size {
        level: Option<Handle<Expression>>,
    },
    NumLevels,
    NumSamples,
    /// `CalculateLevelOfDetail[Unclamped]`: (sampler, coordinate, clamped);
    /// no sampler for a combined image sampler, as in `ImageSample`.
    Lod {
        sampler: Option<Handle<Expression>>,
        coordinate: Handle<Expression>,
        clamped: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleComponent {
    X = 0,
    Y = 1,
    Z = 2,
    W = 3,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expression {
    Literal(Literal),
    /// A module-level constant (index into `Module::const_expressions`).
    Constant(Handle<Expression>),
    /// The zero value of a type (`OpConstantNull`).
    ZeroValue(Handle<Type>),
    /// Builds a vector, matrix (from row vectors), array or struct.
    Compose {
        ty: Handle<Type>,
        components: Vec<Handle<Expression>>,
    },
    /// A vector with every component equal to a scalar.
    Splat {
        size: u8,
        value: Handle<Expression>,
    },
    /// `v.zyx`: `size` components picked by `pattern` from a vector value.
    Swizzle {
        size: u8,
        vector: Handle<Expression>,
        pattern: [SwizzleComponent; 4],
    },
    /// A constant index into a struct (member), vector (component), matrix
    /// (row) or array (element), of a value or through a pointer (giving a
    /// pointer).
    AccessIndex {
        base: Handle<Expression>,
        index: u32,
    },
    /// A dynamic index into a vector, matrix row or array, of a value or
    /// through a pointer.
    Access {
        base: Handle<Expression>,
        index: Handle<Expression>,
    },
    /// The `n`th argument of the function.
    FunctionArgument(u32),
    /// A pointer to a global.
    GlobalVariable(Handle<GlobalVariable>),
    /// A pointer to a local.
    LocalVariable(Handle<LocalVariable>),
    /// Reads through a pointer.
    Load {
        pointer: Handle<Expression>,
    },
    Unary {
        op: UnaryOperator,
        expr: Handle<Expression>,
        precise: bool,
    },
    Binary {
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        precise: bool,
    },
    /// Component-wise `condition ? accept : reject` (both evaluated).
    Select {
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    },
    Relational {
        fun: RelationalFunction,
        argument: Handle<Expression>,
    },
    Math {
        fun: MathFunction,
        args: Vec<Handle<Expression>>,
        precise: bool,
    },
    /// Conversion to scalar `kind` (component-wise for vectors). `convert`
    /// is the target width in bytes for a value conversion; `None` for a
    /// bit cast (`asuint`, `asfloat`), which keeps the width.
    As {
        expr: Handle<Expression>,
        kind: ScalarKind,
        convert: Option<u8>,
        precise: bool,
    },
    Derivative {
        axis: DerivativeAxis,
        control: DerivativeControl,
        expr: Handle<Expression>,
    },
    /// Sampling (see [`ImageSampling`]), boxed: its operands would make
    /// every expression half as large again.
    ImageSample(Box<ImageSampling>),
    /// `Load`/`operator[]` on textures and texel buffers. Same result shapes
    /// as `ImageSample`.
    ImageLoad {
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        level: Option<Handle<Expression>>,
        sample: Option<Handle<Expression>>,
        offset: Option<Handle<Expression>>,
        sparse: bool,
    },
    ImageQuery {
        image: Handle<Expression>,
        query: ImageQuery,
    },
    /// A pointer to one texel of a storage image, for `Interlocked*` on
    /// `RWTexture*`/`RWBuffer` elements. `image` must be the pointer to the
    /// image global (or a `Load` of it); the expression's type is a
    /// `Pointer` to the texel scalar (its address space is ignored: SPIR-V
    /// puts texel pointers in the `Image` storage class).
    ImageTexelPointer {
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        sample: Handle<Expression>,
    },
    /// `CheckAccessFullyMapped(status)` → OpImageSparseTexelsResident.
    SparseTexelsResident {
        code: Handle<Expression>,
    },
    /// `NonUniformResourceIndex(value)`: the value itself, asserted not to
    /// be dynamically uniform. Used as an index into a resource array, it
    /// makes the backend decorate the access chain and what is loaded
    /// through it `NonUniform` (Vulkan "Descriptor indexing").
    NonUniform {
        value: Handle<Expression>,
    },
    /// Converts a `uint64_t` address to a `PhysicalStorage` pointer
    /// (OpConvertUToPtr), such a pointer to its address (OpConvertPtrToU),
    /// or one such pointer to another (OpBitcast; nothing when only the
    /// alignment differs). The result type is the expression's type.
    AddressCast {
        value: Handle<Expression>,
    },
    /// Number of elements of the runtime array that the pointer (to a
    /// storage buffer block) ends with; `member` is its index in the block.
    ArrayLength {
        pointer: Handle<Expression>,
        member: u32,
    },
    /// The result of the `Call` statement that names this expression.
    CallResult(Handle<Function>),
    /// The result of an `Atomic` statement.
    AtomicResult,
    /// The result of a `Subgroup` statement.
    SubgroupResult,
    /// The result of a `Ray` statement.
    RayResult,
    /// The result of a `Node` statement.
    NodeResult,
    /// The result of a `Spirv` statement.
    SpirvResult,
    /// A value that merges at a point of the structured control flow: the
    /// result of the `Merge` or `Carry` statement that names it (SPIR-V
    /// `OpPhi`).
    Phi,
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

pub type Block = Vec<Statement>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SelectionControl {
    #[default]
    None,
    /// `[flatten]`
    Flatten,
    /// `[branch]`
    DontFlatten,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LoopControl {
    #[default]
    None,
    /// `[unroll]` (with an optional count: `[unroll(4)]`).
    Unroll(Option<u32>),
    /// `[loop]`
    DontUnroll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwitchValue {
    I32(i32),
    U32(u32),
    Default,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    pub value: SwitchValue,
    pub body: Block,
    /// Control falls into the next case at the end of `body`.
    pub fall_through: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicFunction {
    Add,
    Subtract,
    And,
    InclusiveOr,
    ExclusiveOr,
    Min,
    Max,
    Exchange,
    /// Compare and exchange; `compare` holds the comparator.
    CompareExchange,
    Store,
}

/// Memory made visible by a barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct BarrierMemory {
    /// groupshared
    pub workgroup: bool,
    /// buffers (UAVs)
    pub device: bool,
    /// storage images
    pub image: bool,
}

/// Wave (subgroup) operations, SM 6.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupOperation {
    GetLaneCount,
    GetLaneIndex,
    IsFirstLane,
    AnyTrue,
    AllTrue,
    /// `WaveActiveAllEqual`
    AllEqual,
    /// `WaveActiveBallot`: uint4
    Ballot,
    ReadLaneAt,
    ReadLaneFirst,
    Sum,
    Product,
    BitAnd,
    BitOr,
    BitXor,
    Min,
    Max,
    CountBits,
    PrefixSum,
    PrefixProduct,
    PrefixCountBits,
    QuadReadAcrossX,
    QuadReadAcrossY,
    QuadReadAcrossDiagonal,
    QuadReadLaneAt,
    /// `IsHelperLane()` in a pixel shader: whether this invocation is a
    /// helper (OpIsHelperInvocationEXT); not a subgroup operation in
    /// SPIR-V, but like them its value depends on where it is evaluated.
    IsHelperLane,
    /// `vk::ReadClock(scope)`: the device's (`device`) or the subgroup's
    /// 64-bit clock (OpReadClockKHR); like `IsHelperLane`, a value that
    /// depends on where it is read.
    ReadClock {
        device: bool,
    },
    /// SM 6.5 `WaveMatch(value)`: the uint4 mask of the lanes holding the
    /// same value (OpGroupNonUniformPartitionNV).
    Match,
    /// SM 6.5 `WaveMultiPrefix*(value, mask)`: exclusive scans within the
    /// lanes of a partition mask (PartitionedExclusiveScanNV).
    MultiPrefixSum,
    MultiPrefixProduct,
    MultiPrefixBitAnd,
    MultiPrefixBitOr,
    MultiPrefixBitXor,
    /// `WaveMultiPrefixCountBits(bool, mask)`: the lanes of the partition
    /// below this one whose value is true.
    MultiPrefixCountBits,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// Evaluates the expressions in the range, in order.
    Emit(Range<Expression>),
    Block(Block),
    If {
        condition: Handle<Expression>,
        accept: Block,
        reject: Block,
        control: SelectionControl,
    },
    /// `selector` is a 32-bit integer; exactly one case is `Default`.
    Switch {
        selector: Handle<Expression>,
        cases: Vec<SwitchCase>,
    },
    /// Runs `body`, then `continuing` (where `continue` in `body` goes), then
    /// leaves if `break_if` is true, else repeats. `Break` inside `body`
    /// leaves the loop.
    Loop {
        body: Block,
        continuing: Block,
        break_if: Option<Handle<Expression>>,
        control: LoopControl,
    },
    Break,
    Continue,
    Return {
        value: Option<Handle<Expression>>,
    },
    /// `discard`
    Kill,
    /// Memory barrier, and with `execution` also a workgroup execution
    /// barrier (`GroupMemoryBarrierWithGroupSync`…).
    Barrier {
        memory: BarrierMemory,
        execution: bool,
    },
    Store {
        pointer: Handle<Expression>,
        value: Handle<Expression>,
    },
    /// A write to a storage image or texel buffer element.
    ImageStore {
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        value: Handle<Expression>,
    },
    /// An atomic read-modify-write; `result` is an `AtomicResult`
    /// expression (the original value) when used.
    Atomic {
        pointer: Handle<Expression>,
        fun: AtomicFunction,
        value: Option<Handle<Expression>>,
        compare: Option<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    },
    Call {
        function: Handle<Function>,
        arguments: Vec<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    },
    /// A wave operation; `result` is a `SubgroupResult` expression.
    Subgroup {
        op: SubgroupOperation,
        args: Vec<Handle<Expression>>,
        result: Handle<Expression>,
    },
    /// `printf(format, args…)`: NonSemantic.DebugPrintf (the format as an
    /// OpString).
    DebugPrintf {
        format: String,
        args: Vec<Handle<Expression>>,
    },
    /// `DebugBreak()`: NonSemantic.DebugBreak.
    DebugBreak,
    /// Geometry shader `Append` on a stream (after its outputs were stored):
    /// `None` when the shader has one stream (`OpEmitVertex`), else the
    /// stream's number (`OpEmitStreamVertex`, which SPIR-V requires for
    /// every stream once there are several).
    EmitVertex {
        stream: Option<u32>,
    },
    /// Geometry shader `RestartStrip`; `stream` as for `EmitVertex`.
    EndPrimitive {
        stream: Option<u32>,
    },
    /// Mesh shader `SetMeshOutputCounts(vertices, primitives)`
    /// (`OpSetMeshOutputsEXT`); both are `uint`.
    SetMeshOutputs {
        vertices: Handle<Expression>,
        primitives: Handle<Expression>,
    },
    /// Amplification shader `DispatchMesh(x, y, z, payload)`
    /// (`OpEmitMeshTasksEXT`): ends the invocation. The counts are `uint`;
    /// `payload` is a pointer to the `TaskPayload` variable.
    EmitMeshTasks {
        x: Handle<Expression>,
        y: Handle<Expression>,
        z: Handle<Expression>,
        payload: Option<Handle<Expression>>,
    },
    /// A ray tracing or ray query operation (SPV_KHR_ray_tracing,
    /// SPV_KHR_ray_query); `result` is a `RayResult` expression when the
    /// operation gives a value. Its operands are in `args`, as
    /// [`RayOperation`] lists them.
    Ray {
        op: RayOperation,
        args: Vec<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    },
    /// A terminator of any-hit shaders: `IgnoreHit` and
    /// `AcceptHitAndEndSearch` end the invocation (OpIgnoreIntersectionKHR,
    /// OpTerminateRayKHR).
    EndHit {
        /// `AcceptHitAndEndSearch` (else `IgnoreHit`).
        accept: bool,
    },
    /// A barrier with explicit scopes and semantics (SM 6.8
    /// `Barrier(…)`): with `execution`, an OpControlBarrier of that
    /// execution scope, else an OpMemoryBarrier.
    ScopedBarrier {
        execution: Option<spirv::Scope>,
        memory: spirv::Scope,
        semantics: spirv::MemorySemantics,
    },
    /// A work graph operation (SPV_AMDX_shader_enqueue); `result` is a
    /// `NodeResult` expression when the operation gives a value. Its
    /// operands are in `args`, as [`NodeOperation`] lists them.
    Node {
        op: NodeOperation,
        args: Vec<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    },
    /// A raw SPIR-V instruction (a call of a `[[vk::ext_instruction]]`
    /// function): its id operands are `args`, in the order the
    /// instruction's `Arg` operands name them; `result` is a `SpirvResult`
    /// expression when it gives a value. Passes keep it as it is: it may
    /// read or write anything.
    Spirv {
        inst: Box<SpirvInstruction>,
        args: Vec<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    },
    /// A value that merges where an `if` ends (an `OpPhi` at the start of
    /// its merge block): `result` (a `Phi` expression) is `accept`'s
    /// value when the `then` block ran to its end, `reject`'s when the
    /// `else` block did. Each operand is a value visible at the end of its
    /// block, and `None` exactly when that block never runs to its end
    /// (it ends with `break`, `continue` or `return`). A `Merge` stands
    /// right after its `if` or after another `Merge` of the same `if`.
    Merge {
        result: Handle<Expression>,
        accept: Option<Handle<Expression>>,
        reject: Option<Handle<Expression>>,
    },
    /// A value carried around a loop (an `OpPhi` in the loop header):
    /// `result` (a `Phi` expression) is `init` when the loop starts and
    /// `latch`'s value at the end of the `continuing` block on each later
    /// iteration. `init` is visible before the loop; `latch` is visible at
    /// the end of `continuing`. A `Carry` stands right before its loop or
    /// before another `Carry` of the same loop; its result is visible in
    /// the loop and after it.
    Carry {
        result: Handle<Expression>,
        init: Handle<Expression>,
        latch: Handle<Expression>,
    },
    /// Source-level debug information (`-Zi`): no effect on what the shader
    /// computes. Sema writes these only when debug information is asked
    /// for; passes keep them in order with the code around them, and the
    /// backend writes them as NonSemantic.Shader.DebugInfo.100.
    Debug(DebugInfo),
}

impl Statement {
    /// Whether nothing after this statement in its block runs: `break`,
    /// `continue`, and the statements that leave the function
    /// ([`Statement::leaves_function`]). The one list of terminators that
    /// lowering, the passes and the validator ask.
    pub fn ends_block(&self) -> bool {
        matches!(self, Statement::Break | Statement::Continue) || self.leaves_function()
    }

    /// Whether this statement leaves the function on every path: `return`,
    /// and the ones that end the invocation (`discard`, `DispatchMesh`,
    /// `IgnoreHit`/`AcceptHitAndEndSearch`).
    pub fn leaves_function(&self) -> bool {
        matches!(
            self,
            Statement::Return { .. }
                | Statement::Kill
                | Statement::EmitMeshTasks { .. }
                | Statement::EndHit { .. }
        )
    }
}

/// A ray tracing or ray query operation of [`Statement::Ray`], with the
/// operands it takes in `args`, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RayOperation {
    /// `TraceRay`: acceleration structure, ray flags, cull mask, SBT
    /// offset, SBT stride, miss index, origin, tmin, direction, tmax, and
    /// the payload: a `GlobalVariable` in `Ray(Payload)` storage.
    TraceRay,
    /// `ReportHit`: hit t, hit kind (the attributes were stored to the
    /// `Ray(HitAttribute)` global before). Gives a bool.
    ReportHit,
    /// `CallShader`: the SBT index and the data, a `GlobalVariable` in
    /// `Ray(CallableData)` storage.
    ExecuteCallable,
    /// `q.TraceRayInline`: query pointer, acceleration structure, ray
    /// flags, cull mask, origin, tmin, direction, tmax.
    QueryInitialize,
    /// `q.Proceed()`: query pointer. Gives a bool.
    QueryProceed,
    /// `q.Abort()`: query pointer.
    QueryTerminate,
    /// `q.CommitNonOpaqueTriangleHit()`: query pointer.
    QueryConfirmIntersection,
    /// `q.CommitProceduralPrimitiveHit(t)`: query pointer, hit t.
    QueryGenerateIntersection,
    /// A `Committed*`/`Candidate*`/ray getter: query pointer, then (for
    /// the intersection getters) nothing more; `committed` picks the
    /// committed (1) or candidate (0) intersection where the getter has one.
    QueryGet {
        what: RayQueryValue,
        committed: bool,
    },
}

/// A work graph operation of [`Statement::Node`], with the operands it
/// takes in `args`, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeOperation {
    /// `Get{Thread,Group}NodeOutputRecords(count)`, `{Thread,Group}IncrementOutputCount(count)`:
    /// the record count and the node index (`uint`s). Gives a pointer
    /// (`NodePayload`) to a payload array whose type names the node;
    /// `group` picks the Workgroup visibility (else Invocation).
    Allocate { group: bool },
    /// `OutputComplete()`: the pointer an `Allocate` gave.
    Enqueue,
    /// `IsValid()` of an output: the node index; gives a bool. `payload`
    /// is the output's payload array type.
    IsValid { payload: Handle<Type> },
    /// `FinishedCrossGroupSharing()`: the pointer to the input variable;
    /// gives a bool.
    FinishWriting,
    /// `Count()`: the pointer to a payload array; gives a uint.
    Count,
}

/// What a ray query getter reads (SPV_KHR_ray_query's
/// `OpRayQueryGet*KHR` instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RayQueryValue {
    /// `CommittedStatus`/`CandidateType`: uint.
    IntersectionType,
    RayTMin,
    RayFlags,
    WorldRayOrigin,
    WorldRayDirection,
    /// `CommittedRayT` (and the candidate's, for triangles).
    T,
    InstanceCustomIndex,
    InstanceId,
    InstanceSbtOffset,
    GeometryIndex,
    PrimitiveIndex,
    Barycentrics,
    FrontFace,
    /// `CandidateProceduralPrimitiveNonOpaque`: the negation of
    /// OpRayQueryGetIntersectionCandidateAABBOpaqueKHR (sema negates).
    CandidateAabbOpaque,
    ObjectRayDirection,
    ObjectRayOrigin,
    /// A 4x3 matrix (SPIR-V: 4 columns of 3).
    ObjectToWorld,
    WorldToObject,
}

/// What a [`Statement::Debug`] says about the code around it.
///
/// `Begin`/`End` pairs nest inside one block; an `End` that a pass dropped
/// (code after a `return` is removed) is implied by the end of the block
/// its `Begin` stands in.
#[derive(Clone, Debug, PartialEq)]
pub enum DebugInfo {
    /// The statements that follow, up to the next `Line` in this block or
    /// the end of the block, come from the source at `span`.
    Line(Span),
    /// A scope starts: the statements that follow, up to the matching
    /// `End`, are in it.
    Begin(DebugScope),
    /// The innermost open scope ends.
    End,
    /// A source variable comes into view: `value` is a pointer to a local
    /// (or to what an `out` parameter names) holding it, or its value.
    Variable {
        value: Handle<Expression>,
        name: String,
        /// Where it is declared.
        span: Span,
        /// For a parameter: its number, from 1.
        arg: Option<u32>,
    },
}

/// A scope of source-level debug information.
#[derive(Clone, Debug, PartialEq)]
pub enum DebugScope {
    /// A `{ … }` block of the source (`span` is the block).
    Lexical(Span),
    /// The body of `function`, inlined at a call (`call` is the span of the
    /// calling statement). The function may be gone after inlining, so its
    /// name and declaration are kept here.
    Inlined {
        function: String,
        decl: Span,
        call: Span,
    },
}

// ---------------------------------------------------------------------------
// Functions, entry points, module
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub struct LocalVariable {
    pub name: Option<String>,
    pub ty: Handle<Type>,
    /// A constant initial value (else the variable starts undefined and
    /// sema stores into it): an expression of the function's arena that is
    /// a `Literal`, `Constant`, `ZeroValue`, or a `Compose`/`Splat` of
    /// those; it needs no `Emit`.
    pub init: Option<Handle<Expression>>,
    /// Declared `precise`.
    pub precise: bool,
    /// Declared `[[vk::aliased_pointer]]`: a device pointer held here may
    /// point where other such pointers do (`AliasedPointer`; otherwise it
    /// is `RestrictPointer`, as buffer pointers are by default).
    pub aliased: bool,
    /// Decorations the shader wrote on it (`vk::ext_decorate*`): passes
    /// keep such a local, and every store into it, where it stands.
    pub spirv_decorations: Vec<SpirvDecoration>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionArgument {
    pub name: Option<String>,
    /// A pointer type for `out`/`inout` parameters and resources passed by
    /// reference.
    pub ty: Handle<Type>,
    /// Declared `precise` (for `out` parameters: stores through it are
    /// precise).
    pub precise: bool,
    /// Decorations the shader wrote on the parameter
    /// (`vk::ext_decorate*`); a function with some is not inlined.
    pub spirv_decorations: Vec<SpirvDecoration>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionResult {
    pub ty: Handle<Type>,
    /// The return value is precise (declared `precise`, or this function is
    /// a precise specialisation made by the precise pass).
    pub precise: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    pub name: String,
    pub arguments: Vec<FunctionArgument>,
    pub result: Option<FunctionResult>,
    pub local_variables: Arena<LocalVariable>,
    pub expressions: Arena<Expression>,
    /// The type of each expression, at the same index.
    pub expr_types: Vec<Handle<Type>>,
    /// The source span of each expression, at the same index, for
    /// diagnostics reported by passes (e.g. constant division by zero).
    /// May be shorter than `expressions`: the rest have no span.
    pub expr_spans: Vec<Span>,
    pub body: Block,
    /// Where the function is declared (its name), for debug information;
    /// `Span::default()` for functions that have no source.
    pub span: Span,
    /// `export` in HLSL: the name a linker sees (SPIR-V LinkageAttributes
    /// with the Export type). An exported function is kept even when no
    /// entry point calls it.
    pub export: Option<String>,
    /// Decorations the shader wrote on it (`vk::ext_decorate*`).
    pub spirv_decorations: Vec<SpirvDecoration>,
}

impl Function {
    /// Appends an expression with its type.
    #[inline]
    pub fn add_expression(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.expr_types.push(ty);
        self.expressions.append(expr)
    }
    #[inline]
    pub fn expr_type(&self, h: Handle<Expression>) -> Handle<Type> {
        self.expr_types[h.index()]
    }
    /// The source span of an expression (`Span::default()` when unknown).
    #[inline]
    pub fn expr_span(&self, h: Handle<Expression>) -> Span {
        self.expr_spans.get(h.index()).copied().unwrap_or_default()
    }
    /// Records the source span of an expression.
    #[inline]
    pub fn set_expr_span(&mut self, h: Handle<Expression>, span: Span) {
        // Usually the expression just appended: one push.
        if self.expr_spans.len() == h.index() {
            self.expr_spans.push(span);
            return;
        }
        if self.expr_spans.len() <= h.index() {
            self.expr_spans.resize(h.index() + 1, Span::default());
        }
        self.expr_spans[h.index()] = span;
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    /// The name in `OpEntryPoint`.
    pub name: String,
    pub stage: Stage,
    /// The entry function: no arguments and no result; it reads and writes
    /// Input/Output globals.
    pub function: Handle<Function>,
    /// `[numthreads(x, y, z)]` (compute, mesh, amplification, nodes).
    pub workgroup_size: [u32; 3],
    /// A work graph node's attributes (stage `Node`).
    pub node: Option<Box<NodeEntry>>,
    /// Other execution modes with their literal operands (`OutputVertices 3`,
    /// `Triangles`, `OriginUpperLeft`, `DenormPreserve 32`…).
    pub execution_modes: Vec<(spirv::ExecutionMode, Vec<u32>)>,
    /// For hull shaders: the patch-constant function, called by the entry
    /// function (already part of its body); kept for reflection.
    pub patch_constant_function: Option<Handle<Function>>,
    /// Geometry shaders: the output variables of each stream, by stream
    /// number (one list per `*Stream<T>` parameter). With several streams
    /// the backend decorates each variable `Stream N`. Empty for other
    /// stages.
    pub streams: Vec<Vec<Handle<GlobalVariable>>>,
}

/// How a work graph node is launched (`[NodeLaunch("…")]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeLaunch {
    /// One record is shared by every thread group of a dispatch grid.
    Broadcasting,
    /// Each thread group gets up to `[MaxRecords]` records
    /// (`CoalescingAMDX`).
    Coalescing,
    /// Each thread gets one record: a coalescing group of one thread.
    Thread,
}

/// A work graph node's attributes, written as SPV_AMDX_shader_enqueue
/// execution modes (their operands are ids of constants).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeEntry {
    pub launch: NodeLaunch,
    /// `[NodeIsProgramEntry]` → `IsApiEntryAMDX true`.
    pub program_entry: bool,
    /// The `[NodeID]` index → `ShaderIndexAMDX`.
    pub index: Option<u32>,
    /// `[NodeShareInputOf(name, index)]` → `SharesInputWithAMDX`.
    pub share_input: Option<(String, u32)>,
    /// `[NodeDispatchGrid]` → `StaticNumWorkgroupsAMDX`.
    pub dispatch_grid: Option<[u32; 3]>,
    /// `[NodeMaxDispatchGrid]` → `MaxNumWorkgroupsAMDX`.
    pub max_dispatch_grid: Option<[u32; 3]>,
    /// `[NodeMaxRecursionDepth]` → `MaxNodeRecursionAMDX`.
    pub max_recursion: Option<u32>,
    /// The payload array types of its outputs, in parameter order: the
    /// backend declares them even when no record is allocated, since
    /// they say which nodes this one feeds.
    pub outputs: Vec<Handle<Type>>,
}

/// NVIDIA's extensions instead of the cross-vendor ones, for the features
/// both have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vendor {
    /// SPV_NV_mesh_shader (`MeshNV`/`TaskNV`) instead of SPV_EXT_mesh_shader.
    pub mesh_nv: bool,
    /// SPV_NV_ray_tracing instead of SPV_KHR_ray_tracing.
    pub ray_tracing_nv: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub types: UniqueArena<Type>,
    /// Module-level constant expressions (only `Literal`, `ZeroValue`,
    /// `Compose`, `Splat` and `Constant`), used by global initialisers and by
    /// `Expression::Constant`.
    pub const_expressions: Arena<Expression>,
    /// The type of each constant expression, at the same index.
    pub const_types: Vec<Handle<Type>>,
    pub globals: Arena<GlobalVariable>,
    pub functions: Arena<Function>,
    pub entry_points: Vec<EntryPoint>,
    /// SPIR-V capabilities and extensions the shader asks for itself
    /// (`[[vk::ext_capability]]`, `[[vk::ext_extension]]`); the backend
    /// derives the rest from what the module uses
    /// (`back/spv/requirements.rs`).
    pub required_capabilities: Vec<spirv::Capability>,
    pub required_extensions: Vec<String>,
    /// Which vendor's extension the module's mesh and ray tracing
    /// shaders are written for, as sema chose from the options.
    pub vendor: Vendor,
    /// Specialization constants (`[[vk::constant_id(N)]]`): module constant
    /// expressions (scalar `Literal`s, their default values) that the
    /// backend writes as `OpSpecConstant*` decorated `SpecId N`. Their
    /// value is only known when the pipeline is created: passes must not
    /// fold them.
    pub spec_constants: Vec<SpecConstant>,
    /// Decorations of stage variables that their `Binding` does not say:
    /// `Centroid` or `Sample` on a barycentric built-in (`SV_Barycentrics`
    /// with `centroid`/`sample`), `PerVertexKHR` on a pixel input read one
    /// vertex at a time (`GetAttributeAtVertex`).
    pub io_decorations: Vec<(Handle<GlobalVariable>, spirv::Decoration)>,
    /// Decorations of work graph record structs: `TrackFinishWritingAMDX`
    /// on a struct (member `None`), `PayloadDispatchIndirectAMDX` on its
    /// `SV_DispatchGrid` member.
    pub record_decorations: Vec<(Handle<Type>, Option<u32>, spirv::Decoration)>,
    /// Where user declarations stand, for debug information (`-Zi`).
    pub decl_spans: DeclSpans,
    /// Decorations the shader wrote on global variables
    /// (`vk::ext_decorate*`).
    pub spirv_decorations: Vec<(Handle<GlobalVariable>, SpirvDecoration)>,
    /// Execution modes function bodies asked for
    /// (`vk::ext_execution_mode*`), for every entry point.
    pub spirv_execution_modes: Vec<SpirvExecutionMode>,
}

/// Declaration sites of globals and struct types (the IR's own types and
/// globals carry no spans: types are deduplicated by value). Only debug
/// information reads them; passes leave them alone (they never renumber
/// globals or types).
#[derive(Clone, Debug, Default)]
pub struct DeclSpans {
    /// A user global's declaration: a `static`, a resource, a cbuffer.
    pub globals: rustc_hash::FxHashMap<Handle<GlobalVariable>, Span>,
    /// A struct type's declaration (the first, when two identical ones
    /// share a type).
    pub types: rustc_hash::FxHashMap<Handle<Type>, Span>,
    /// A struct member's declaration: (struct type, member index).
    pub members: rustc_hash::FxHashMap<(Handle<Type>, u32), Span>,
}

impl DeclSpans {
    /// Records where struct type `ty` and its members are declared (the
    /// first declaration wins).
    pub fn set_struct(&mut self, ty: Handle<Type>, span: Span, members: &[Option<Span>]) {
        if self.types.contains_key(&ty) || span.is_dummy() {
            return;
        }
        self.types.insert(ty, span);
        for (i, m) in members.iter().enumerate() {
            if let Some(m) = m.filter(|m| !m.is_dummy()) {
                self.members.insert((ty, i as u32), m);
            }
        }
    }

    /// Records where global `g` is declared.
    pub fn set_global(&mut self, g: Handle<GlobalVariable>, span: Span) {
        if !span.is_dummy() {
            self.globals.insert(g, span);
        }
    }
}

/// A specialization constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    /// The `SpecId`.
    pub id: u32,
    /// Its default value: a `Literal` in `Module::const_expressions`.
    pub value: Handle<Expression>,
    pub name: Option<String>,
}

impl Module {
    /// The specialization constant whose value is constant expression `h`.
    pub fn spec_constant(&self, h: Handle<Expression>) -> Option<&SpecConstant> {
        self.spec_constants.iter().find(|s| s.value == h)
    }
    pub fn add_const_expression(
        &mut self,
        expr: Expression,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.const_types.push(ty);
        self.const_expressions.append(expr)
    }
    /// The handle of a type, inserting it if new.
    pub fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.types.insert(Type { name: None, inner })
    }
    pub fn scalar_type(&mut self, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Scalar(scalar))
    }
    /// A test's shorthand for `ty(TypeInner::Vector { .. })`.
    #[cfg(test)]
    pub fn vector_type(&mut self, size: u8, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Vector { size, scalar })
    }
}
