//! A readable text form of the IR (`hlslc --emit ir`), used by pass tests.
//!
//! The form is stable (the same module always prints the same text) and
//! line-oriented, so that `// check:` lines can match pieces of it. It is
//! for reading and matching, not for parsing back.
//!
//! # Format
//!
//! A module prints its struct types, constants, globals, entry points and
//! functions, in that order:
//!
//! ```text
//! struct S {
//!     pos: float4 offset(0)
//!     depth: float offset(16) precise
//! }
//! const @c0:float = 0.5f32
//! global @gid:uint3 Input builtin(GlobalInvocationId)
//! global @buf:struct S StorageRW set(0) binding(1)
//! entry "main" compute fn main numthreads(8, 1, 1) modes(DenormPreserve 32)
//!
//! fn main() {
//!     local $acc:float precise
//!     local $v:float2 = compose(0.0f32, 1.0f32)
//!     %4:uint3 = load @gid
//!     %5:uint = access %4[0]
//!     %7:float = precise mul %6, 2.0f32
//!     store $acc, %7
//!     if %9 {
//!         return
//!     }
//! }
//! ```
//!
//! **Types** print by their HLSL names: `bool`, `int`, `uint`, `half`,
//! `float`, `double`, `int16_t`, `uint16_t`, `int64_t`, `uint64_t`, vectors
//! `float4`, matrices `float3x4` (rows x columns as HLSL writes them),
//! arrays `float[4]` / `float[]` (runtime) / `float[4 stride=16]` (laid out),
//! `struct S` (`struct S#7` when two struct types share the name, `struct #7`
//! when unnamed), pointers `ptr<Function, float>`, images
//! `image2d<float>`, `image2d_array_ms<float>`, `rwimage2d<float, rgba8>`,
//! `image_buffer<uint>`, `sampler`, `sampler_cmp`, `sampled_image<…>`,
//! `accel`. Address spaces: `Function`, `Private`, `Workgroup`, `Uniform`,
//! `Storage` (read-only), `StorageRW`, `PushConstant`, `Input`, `Output`,
//! `Handle`.
//!
//! **Names.** Globals are `@name`, locals `$name`, arguments `%name`
//! (`@name.N` / `$name.N` with the arena index when a name repeats; `@gN`,
//! `$lN`, `%argN` when unnamed); module constants `@cN`; functions by name
//! (`name#N` when repeated). Expressions are `%N`, their index in the
//! function's arena.
//!
//! **Expressions** that need evaluation print one per line where their
//! `Emit` stands: `%N:type = [precise ]op operands`. The word `precise`
//! follows `=` exactly when the expression's flag is set (so `// not:
//! precise` checks that nothing was marked). Expressions that need no
//! evaluation (literals, constants, zero values, variable and argument
//! references) print inline where they are used. Operations: `add sub mul
//! div mod matmul eq ne lt le gt ge and or xor land lor shl shr`, `neg not
//! bitnot`, `compose`, `splat`, `swizzle %v.zyx`, `access %b[2]` (constant
//! index) / `access %b[%i]` (dynamic), `load`, `select`, `convert` /
//! `bitcast` (the target is the result type), math functions and
//! relational functions by their lower-cased IR names (`fma`, `dot`,
//! `inversesqrt`, `isnan`), `ddx`/`ddy`/`fwidth` with `_coarse`/`_fine`,
//! `sample`, `image_load`, `image_query`, `texel_pointer`,
//! `sparse_resident`, `array_length`.
//!
//! **Literals** carry their type as a suffix: `true`, `3i32`, `3u32`,
//! `-1i16`, `7u64`, and floats as the shortest decimal that reads back to
//! the same bits: `0.1f32`, `-0.0f32`, `1e-45f32`, `0.0999755859375f16`
//! prints as `0.09998f16`. Infinities print `inf_f32` / `-inf_f32`; NaNs
//! `nan_f32(0x7fc00000)` with their bits (the payload and sign are part of
//! the value); denormals get their bits too: `1e-45f32(0x00000001)`. Zero
//! values print `zero<float4>`.
//!
//! Locals print `local $name:type [precise] [= init]`, the initialiser
//! written out (`compose(…)`, `splat(…)`, literals, constants).
//!
//! **Statements**: `store P, V`, `image_store I, C, V`, `return [V]`,
//! `break`, `continue`, `kill`, `barrier(workgroup, device, image)
//! [execution]`, `[%N:T = ]call f(args)`, `[%N:T = ]atomic add P, V[, C]`,
//! `%N:T = subgroup sum args`, `emit_vertex 0`, `end_primitive 0`, and the
//! structured ones, with their bodies indented by four spaces:
//! `if [flatten] %c { … } else { … }` (no `else` when it is empty),
//! `loop [unroll(4)] { … } continuing { … } break_if %x`, `switch %s {
//! case 1i32 { … } fallthrough  default { … } }`, `{ … }` for a block.

use super::*;
use rustc_hash::FxHashMap;
use std::fmt::Write;

mod function;
mod literal;

use function::write_function;
pub use literal::literal_to_string;

/// Prints a whole module.
pub fn module_to_string(module: &Module) -> String {
    let names = Names::new(module);
    let mut out = String::new();
    for (h, ty) in module.types.iter() {
        if let TypeInner::Struct { members, size } = &ty.inner {
            let _ = write!(out, "{}", names.type_name(module, h));
            if *size != 0 {
                let _ = write!(out, " size({size})");
            }
            out.push_str(" {\n");
            for (i, m) in members.iter().enumerate() {
                let _ = write!(
                    out,
                    "    {}: {}",
                    m.name.clone().unwrap_or_else(|| format!("_{i}")),
                    names.type_name(module, m.ty)
                );
                if let Some(o) = m.offset {
                    let _ = write!(out, " offset({o})");
                }
                if let Some(l) = m.matrix_layout {
                    let major = if l.row_major {
                        "row_major"
                    } else {
                        "column_major"
                    };
                    let _ = write!(out, " {major} stride({})", l.stride);
                }
                if let Some(b) = &m.binding {
                    let _ = write!(out, " {}", binding_to_string(b));
                }
                if m.precise {
                    out.push_str(" precise");
                }
                out.push('\n');
            }
            out.push_str("}\n");
        }
    }
    for (h, c) in module.const_expressions.iter() {
        let ty = module.const_types.get(h.index()).copied();
        let _ = write!(out, "const @c{}", h.index());
        if let Some(ty) = ty.filter(|t| t.index() < module.types.len()) {
            let _ = write!(out, ":{}", names.type_name(module, ty));
        }
        let _ = write!(out, " = {}", names.const_expr(module, c));
        if let Some(sc) = module.spec_constant(h) {
            let _ = write!(out, " spec_id({})", sc.id);
        }
        out.push('\n');
    }
    for (h, g) in module.globals.iter() {
        let _ = write!(
            out,
            "global {}:{} {}",
            names.global(h),
            names.type_name(module, g.ty),
            space_name(g.space)
        );
        if let Some(b) = g.binding {
            let _ = write!(out, " set({}) binding({})", b.set, b.binding);
        }
        if let Some(io) = &g.io {
            let _ = write!(out, " {}", binding_to_string(io));
        }
        if g.precise {
            out.push_str(" precise");
        }
        if g.invariant {
            out.push_str(" invariant");
        }
        if let Some(s) = &g.semantic {
            let _ = write!(out, " semantic({s})");
        }
        if let Some(c) = g.counter {
            let _ = write!(out, " counter({})", names.global(c));
        }
        if let Some(i) = g.init {
            let _ = write!(out, " = @c{}", i.index());
        }
        out.push('\n');
    }
    for ep in &module.entry_points {
        let _ = write!(
            out,
            "entry {:?} {} fn {}",
            ep.name,
            ep.stage.name(),
            names.function(ep.function)
        );
        if matches!(
            ep.stage,
            Stage::Compute | Stage::Mesh | Stage::Amplification
        ) {
            let [x, y, z] = ep.workgroup_size;
            let _ = write!(out, " numthreads({x}, {y}, {z})");
        }
        if !ep.execution_modes.is_empty() {
            let modes: Vec<String> = ep
                .execution_modes
                .iter()
                .map(|(m, ops)| {
                    let mut s = format!("{m:?}");
                    for o in ops {
                        let _ = write!(s, " {o}");
                    }
                    s
                })
                .collect();
            let _ = write!(out, " modes({})", modes.join(", "));
        }
        if let Some(p) = ep.patch_constant_function {
            let _ = write!(out, " patch_constant {}", names.function(p));
        }
        for (n, outs) in ep.streams.iter().enumerate() {
            let list: Vec<String> = outs.iter().map(|&g| names.global(g)).collect();
            let _ = write!(out, " stream{n}({})", list.join(", "));
        }
        out.push('\n');
    }
    for (h, _) in module.functions.iter() {
        out.push('\n');
        write_function(&mut out, module, &names, h);
    }
    out
}

/// The text of an address space.
pub fn space_name(s: AddressSpace) -> &'static str {
    match s {
        AddressSpace::Function => "Function",
        AddressSpace::Private => "Private",
        AddressSpace::Workgroup => "Workgroup",
        AddressSpace::TaskPayload => "TaskPayload",
        AddressSpace::Uniform => "Uniform",
        AddressSpace::Storage { writable: false } => "Storage",
        AddressSpace::Storage { writable: true } => "StorageRW",
        AddressSpace::PushConstant => "PushConstant",
        AddressSpace::Input => "Input",
        AddressSpace::Output => "Output",
        AddressSpace::Handle => "Handle",
        AddressSpace::Ray(r) => match r {
            crate::ir::RayStorage::Payload => "RayPayload",
            crate::ir::RayStorage::IncomingPayload => "IncomingRayPayload",
            crate::ir::RayStorage::HitAttribute => "HitAttribute",
            crate::ir::RayStorage::CallableData => "CallableData",
            crate::ir::RayStorage::IncomingCallableData => "IncomingCallableData",
            crate::ir::RayStorage::ShaderRecord => "ShaderRecord",
        },
        AddressSpace::NodePayload => "NodePayload",
        AddressSpace::PhysicalStorage { .. } => "PhysicalStorage",
        AddressSpace::Raw(_) => "SpirvStorageClass",
    }
}

fn binding_to_string(b: &Binding) -> String {
    match b {
        Binding::BuiltIn(bi) => format!("builtin({bi:?})"),
        Binding::PerTask { offset } => format!("per_task(offset {offset})"),
        Binding::Location {
            location,
            index,
            interpolation,
            sampling,
            patch,
        } => {
            let mut s = format!("location({location})");
            if let Some(i) = index {
                let _ = write!(s, " index({i})");
            }
            match interpolation {
                Some(Interpolation::Flat) => s.push_str(" flat"),
                Some(Interpolation::NoPerspective) => s.push_str(" noperspective"),
                Some(Interpolation::Perspective) | None => {}
            }
            match sampling {
                Some(Sampling::Centroid) => s.push_str(" centroid"),
                Some(Sampling::Sample) => s.push_str(" sample"),
                None => {}
            }
            if *patch {
                s.push_str(" patch");
            }
            s
        }
    }
}

fn scalar_name(s: Scalar) -> String {
    match (s.kind, s.width) {
        (ScalarKind::Bool, _) => "bool".into(),
        (ScalarKind::Sint, 4) => "int".into(),
        (ScalarKind::Uint, 4) => "uint".into(),
        (ScalarKind::Float, 2) => "half".into(),
        (ScalarKind::Float, 4) => "float".into(),
        (ScalarKind::Float, 8) => "double".into(),
        (ScalarKind::Sint, w) => format!("int{}_t", w as u32 * 8),
        (ScalarKind::Uint, w) => format!("uint{}_t", w as u32 * 8),
        (ScalarKind::Float, w) => format!("float{}_t", w as u32 * 8),
    }
}

/// Unique printed names for the things of a module.
struct Names {
    structs: FxHashMap<Handle<Type>, String>,
    globals: Vec<String>,
    functions: Vec<String>,
}

/// `prefix name`, `prefix name.index` when the name repeats, or
/// `prefix fallback index` when unnamed.
fn unique_names<'a>(
    items: impl Iterator<Item = Option<&'a str>>,
    prefix: &str,
    fallback: &str,
    sep: &str,
) -> Vec<String> {
    let items: Vec<Option<&str>> = items.collect();
    let mut count: FxHashMap<&str, u32> = FxHashMap::default();
    for n in items.iter().flatten() {
        *count.entry(n).or_default() += 1;
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, n)| match n {
            Some(n) if !n.is_empty() && count[n] == 1 => format!("{prefix}{n}"),
            Some(n) if !n.is_empty() => format!("{prefix}{n}{sep}{i}"),
            _ => format!("{prefix}{fallback}{i}"),
        })
        .collect()
}

impl Names {
    fn new(module: &Module) -> Names {
        let struct_types: Vec<(Handle<Type>, Option<&str>)> = module
            .types
            .iter()
            .filter(|(_, t)| matches!(t.inner, TypeInner::Struct { .. }))
            .map(|(h, t)| (h, t.name.as_deref()))
            .collect();
        let mut count: FxHashMap<&str, u32> = FxHashMap::default();
        for (_, n) in &struct_types {
            if let Some(n) = n {
                *count.entry(n).or_default() += 1;
            }
        }
        let structs = struct_types
            .iter()
            .map(|&(h, n)| {
                let s = match n {
                    Some(n) if count[n] == 1 => format!("struct {n}"),
                    Some(n) => format!("struct {n}#{}", h.index()),
                    None => format!("struct #{}", h.index()),
                };
                (h, s)
            })
            .collect();
        Names {
            structs,
            globals: unique_names(
                module.globals.iter().map(|(_, g)| g.name.as_deref()),
                "@",
                "g",
                ".",
            ),
            functions: unique_names(
                module.functions.iter().map(|(_, f)| Some(f.name.as_str())),
                "",
                "fn",
                "#",
            ),
        }
    }

    fn global(&self, h: Handle<GlobalVariable>) -> String {
        self.globals
            .get(h.index())
            .cloned()
            .unwrap_or_else(|| format!("@bad_global{}", h.index()))
    }

    fn function(&self, h: Handle<Function>) -> String {
        self.functions
            .get(h.index())
            .cloned()
            .unwrap_or_else(|| format!("bad_function{}", h.index()))
    }

    fn type_name(&self, module: &Module, h: Handle<Type>) -> String {
        let Some(ty) = (h.index() < module.types.len()).then(|| &module.types[h]) else {
            return format!("bad_type{}", h.index());
        };
        match &ty.inner {
            TypeInner::Scalar(s) => scalar_name(*s),
            TypeInner::Vector { size, scalar } => format!("{}{size}", scalar_name(*scalar)),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => format!("{}{rows}x{columns}", scalar_name(*scalar)),
            TypeInner::Array { base, size, stride } => {
                let n = match size {
                    ArraySize::Constant(n) => n.to_string(),
                    ArraySize::Runtime => String::new(),
                };
                let sep = if n.is_empty() { "" } else { " " };
                match stride {
                    Some(s) => format!("{}[{n}{sep}stride={s}]", self.type_name(module, *base)),
                    None => format!("{}[{n}]", self.type_name(module, *base)),
                }
            }
            TypeInner::Struct { .. } => self
                .structs
                .get(&h)
                .cloned()
                .unwrap_or_else(|| "struct ?".into()),
            TypeInner::Image {
                dim,
                arrayed,
                multisampled,
                sampled,
                class,
            } => {
                let d = match dim {
                    ImageDim::D1 => "1d",
                    ImageDim::D2 => "2d",
                    ImageDim::D3 => "3d",
                    ImageDim::Cube => "cube",
                    ImageDim::Buffer => "_buffer",
                    ImageDim::SubpassData => "_subpass",
                };
                let mut s = match class {
                    ImageClass::Sampled => format!("image{d}"),
                    ImageClass::Storage { .. } => format!("rwimage{d}"),
                };
                if *arrayed {
                    s.push_str("_array");
                }
                if *multisampled {
                    s.push_str("_ms");
                }
                let _ = write!(s, "<{}", scalar_name(*sampled));
                if let ImageClass::Storage { format } = class
                    && *format != ImageFormat::Unknown
                {
                    let _ = write!(s, ", {}", format!("{format:?}").to_lowercase());
                }
                s.push('>');
                s
            }
            TypeInner::Sampler { comparison: false } => "sampler".into(),
            TypeInner::Sampler { comparison: true } => "sampler_cmp".into(),
            TypeInner::SampledImage { image } => {
                format!("sampled_image<{}>", self.type_name(module, *image))
            }
            TypeInner::AccelerationStructure => "accel".into(),
            TypeInner::RayQuery => "ray_query".into(),
            TypeInner::Spirv(t) => {
                let operands: Vec<String> = t
                    .operands
                    .iter()
                    .map(|o| match o {
                        crate::ir::SpirvTypeOperand::Type(h) => self.type_name(module, *h),
                        crate::ir::SpirvTypeOperand::Constant(_, v) => format!("const {v}"),
                        crate::ir::SpirvTypeOperand::Literal(w) => w.to_string(),
                    })
                    .collect();
                format!("spirv_type<{}; {}>", t.opcode, operands.join(", "))
            }
            TypeInner::NodePayloadArray {
                payload,
                max_payloads,
                output,
            } => {
                let mut t = format!("node_payloads<{}", self.type_name(module, *payload));
                if let Some(n) = max_payloads {
                    t.push_str(&format!(", max {n}"));
                }
                if let Some(o) = output {
                    t.push_str(&format!(", to \"{}\"", o.name));
                }
                t.push('>');
                t
            }
            TypeInner::Pointer { base, space } => {
                format!(
                    "ptr<{}, {}>",
                    space_name(*space),
                    self.type_name(module, *base)
                )
            }
        }
    }

    fn const_expr(&self, module: &Module, e: &Expression) -> String {
        match e {
            Expression::Literal(l) => literal_to_string(*l),
            Expression::ZeroValue(t) => format!("zero<{}>", self.type_name(module, *t)),
            Expression::Constant(c) => format!("@c{}", c.index()),
            Expression::Compose { components, .. } => {
                let parts: Vec<String> = components
                    .iter()
                    .map(|c| format!("@c{}", c.index()))
                    .collect();
                format!("compose {}", parts.join(", "))
            }
            Expression::Splat { value, .. } => format!("splat @c{}", value.index()),
            other => format!("<not a constant: {other:?}>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};

    #[test]
    fn float_literals_are_exact() {
        let cases = [
            (Literal::f32(0.1), "0.1f32"),
            (Literal::f32(-0.0), "-0.0f32"),
            (Literal::f32(0.0), "0.0f32"),
            (Literal::F32(1), "1e-45f32(0x00000001)"),
            (Literal::f32(f32::INFINITY), "inf_f32"),
            (Literal::f32(f32::NEG_INFINITY), "-inf_f32"),
            (Literal::F32(0x7fc0_0000), "nan_f32(0x7fc00000)"),
            (Literal::F32(0xffc0_0001), "nan_f32(0xffc00001)"),
            (Literal::f64(1.0 / 3.0), "0.3333333333333333f64"),
            (Literal::F16(0x3c00), "1.0f16"),
            (Literal::F16(0x2e66), "0.1f16"),
            (Literal::F16(0x8000), "-0.0f16"),
            (Literal::F16(0x0001), "6e-8f16(0x0001)"),
            (Literal::F16(0x7bff), "65500.0f16"),
            (Literal::F16(0x7e00), "nan_f16(0x7e00)"),
            (Literal::I32(-3), "-3i32"),
            (Literal::U64(7), "7u64"),
            (Literal::Bool(true), "true"),
        ];
        for (lit, text) in cases {
            assert_eq!(literal_to_string(lit), text, "{lit:?}");
        }
    }

    #[test]
    fn prints_a_small_compute_shader() {
        let mut m = Module::default();
        let u3 = m.vector_type(3, Scalar::U32);
        let float = m.scalar_type(Scalar::F32);
        let gid = add_global(&mut m, "gid", AddressSpace::Input, u3);
        m.globals[gid].io = Some(Binding::BuiltIn(spirv::BuiltIn::GlobalInvocationId));
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let acc = fb.local("acc", float, true);
        let g = fb.global(gid);
        let v = fb.load(g);
        let x = fb.access_index(v, 0);
        let xf = fb.cast(x, ScalarKind::Float, Some(4));
        let two = fb.f32(2.0);
        let p = fb.binary(BinaryOperator::Multiply, xf, two);
        fb.store(acc, p);
        let zero = fb.f32(0.0);
        let c = fb.binary(BinaryOperator::Less, p, zero);
        fb.if_(c, |fb| fb.ret(None, None), |_| {});
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        let text = module_to_string(&m);
        let expected = "\
global @gid:uint3 Input builtin(GlobalInvocationId)
entry \"main\" compute fn main numthreads(1, 1, 1)

fn main() {
    local $acc:float precise
    %2:uint3 = load @gid
    %3:uint = access %2[0]
    %4:float = convert %3
    %6:float = mul %4, 2.0f32
    store $acc, %6
    %8:bool = lt %6, 0.0f32
    if %8 {
        return
    }
}
";
        assert_eq!(text, expected);
    }
}
