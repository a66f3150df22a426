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
        let _ = writeln!(out, " = {}", names.const_expr(module, c));
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
            stage_name(ep.stage),
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
        out.push('\n');
    }
    for (h, _) in module.functions.iter() {
        out.push('\n');
        write_function(&mut out, module, &names, h);
    }
    out
}

/// Prints one function (with the module for type and global names).
pub fn function_to_string(module: &Module, function: Handle<Function>) -> String {
    let names = Names::new(module);
    let mut out = String::new();
    write_function(&mut out, module, &names, function);
    out
}

/// The text of a literal (see the module docs).
pub fn literal_to_string(lit: Literal) -> String {
    match lit {
        Literal::Bool(b) => b.to_string(),
        Literal::I16(v) => format!("{v}i16"),
        Literal::U16(v) => format!("{v}u16"),
        Literal::I32(v) => format!("{v}i32"),
        Literal::U32(v) => format!("{v}u32"),
        Literal::I64(v) => format!("{v}i64"),
        Literal::U64(v) => format!("{v}u64"),
        Literal::F16(b) => {
            let v = float::f16_to_f64(b);
            let denormal = b & 0x7c00 == 0 && b & 0x3ff != 0;
            float_text(v, "f16", || format!("{b:#06x}"), denormal)
        }
        Literal::F32(b) => {
            let v = f32::from_bits(b);
            let denormal = v.is_subnormal();
            float_text(v as f64, "f32", || format!("{b:#010x}"), denormal)
                .replace("DEC", &format!("{v:?}"))
        }
        Literal::F64(b) => {
            let v = f64::from_bits(b);
            float_text(v, "f64", || format!("{b:#018x}"), v.is_subnormal())
                .replace("DEC", &format!("{v:?}"))
        }
    }
}

/// `inf_f32`, `nan_f32(bits)`, or `DEC<suffix>[(bits)]`, where `DEC` is
/// replaced by the caller's shortest decimal (computed here for f16).
fn float_text(v: f64, suffix: &str, bits: impl Fn() -> String, denormal: bool) -> String {
    if v.is_nan() {
        return format!("nan_{suffix}({})", bits());
    }
    if v.is_infinite() {
        let sign = if v < 0.0 { "-" } else { "" };
        return format!("{sign}inf_{suffix}");
    }
    let dec = if suffix == "f16" {
        shortest_f16_decimal(v)
    } else {
        "DEC".to_string()
    };
    if denormal {
        format!("{dec}{suffix}({})", bits())
    } else {
        format!("{dec}{suffix}")
    }
}

/// The shortest decimal that narrows back to the same binary16 value.
fn shortest_f16_decimal(v: f64) -> String {
    let target = float::f64_to_f16(v);
    for digits in 1..=17 {
        let s = format!("{:.*e}", digits - 1, v);
        if let Ok(p) = s.parse::<f64>()
            && float::f64_to_f16(p) == target
        {
            // Up to 6 significant digits read back exactly from f32's
            // shortest form, which prints in Rust's usual style.
            if let Ok(f) = s.parse::<f32>() {
                return format!("{f:?}");
            }
            return s;
        }
    }
    format!("{v:?}")
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vertex",
        Stage::Pixel => "pixel",
        Stage::Geometry => "geometry",
        Stage::Hull => "hull",
        Stage::Domain => "domain",
        Stage::Compute => "compute",
        Stage::Mesh => "mesh",
        Stage::Amplification => "amplification",
        Stage::Library => "library",
    }
}

/// The text of an address space.
pub fn space_name(s: AddressSpace) -> &'static str {
    match s {
        AddressSpace::Function => "Function",
        AddressSpace::Private => "Private",
        AddressSpace::Workgroup => "Workgroup",
        AddressSpace::Uniform => "Uniform",
        AddressSpace::Storage { writable: false } => "Storage",
        AddressSpace::Storage { writable: true } => "StorageRW",
        AddressSpace::PushConstant => "PushConstant",
        AddressSpace::Input => "Input",
        AddressSpace::Output => "Output",
        AddressSpace::Handle => "Handle",
    }
}

fn binding_to_string(b: &Binding) -> String {
    match b {
        Binding::BuiltIn(bi) => format!("builtin({bi:?})"),
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
                Some(Sampling::Center) | None => {}
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

/// Prints one function body; holds the per-function names.
struct FunctionWriter<'a> {
    module: &'a Module,
    names: &'a Names,
    function: &'a Function,
    locals: Vec<String>,
    arguments: Vec<String>,
    out: &'a mut String,
}

fn write_function(out: &mut String, module: &Module, names: &Names, h: Handle<Function>) {
    let function = &module.functions[h];
    let locals = unique_names(
        function
            .local_variables
            .iter()
            .map(|(_, l)| l.name.as_deref()),
        "$",
        "l",
        ".",
    );
    let arguments = unique_names(
        function.arguments.iter().map(|a| a.name.as_deref()),
        "%",
        "arg",
        ".",
    )
    .into_iter()
    .map(|n| {
        // `%3` would read as an expression: keep argument names apart.
        if n[1..].chars().all(|c| c.is_ascii_digit()) {
            format!("%arg{}", &n[1..])
        } else {
            n
        }
    })
    .collect();
    let mut w = FunctionWriter {
        module,
        names,
        function,
        locals,
        arguments,
        out,
    };
    w.header(h);
    w.block(&function.body, 1);
    w.out.push_str("}\n");
}

impl FunctionWriter<'_> {
    fn ty(&self, h: Handle<Type>) -> String {
        self.names.type_name(self.module, h)
    }

    fn header(&mut self, h: Handle<Function>) {
        let f = self.function;
        let args: Vec<String> = f
            .arguments
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut s = format!("{}:{}", self.arguments[i], self.ty(a.ty));
                if a.precise {
                    s.push_str(" precise");
                }
                s
            })
            .collect();
        let _ = write!(
            self.out,
            "fn {}({})",
            self.names.function(h),
            args.join(", ")
        );
        if let Some(r) = &f.result {
            let _ = write!(self.out, " -> {}", self.ty(r.ty));
            if r.precise {
                self.out.push_str(" precise");
            }
        }
        self.out.push_str(" {\n");
        for (lh, l) in f.local_variables.iter() {
            let _ = write!(
                self.out,
                "    local {}:{}",
                self.locals[lh.index()],
                self.ty(l.ty)
            );
            if l.precise {
                self.out.push_str(" precise");
            }
            if let Some(i) = l.init {
                let _ = write!(self.out, " = {}", self.init_text(i));
            }
            self.out.push('\n');
        }
    }

    /// A local's initialiser, written out: `compose(1.0f32, splat(0i32))`
    /// (depth-limited; initialisers are shallow).
    fn init_text(&self, h: Handle<Expression>) -> String {
        fn go(w: &FunctionWriter<'_>, h: Handle<Expression>, depth: u32) -> String {
            match w.function.expressions.get(h) {
                Some(Expression::Compose { components, .. }) if depth < 16 => {
                    let parts: Vec<String> =
                        components.iter().map(|&c| go(w, c, depth + 1)).collect();
                    format!("compose({})", parts.join(", "))
                }
                Some(Expression::Splat { value, .. }) if depth < 16 => {
                    format!("splat({})", go(w, *value, depth + 1))
                }
                _ => w.operand(h),
            }
        }
        go(self, h, 0)
    }

    /// How an expression reads where it is used.
    fn operand(&self, h: Handle<Expression>) -> String {
        let Some(e) = self.function.expressions.get(h) else {
            return format!("%bad{}", h.index());
        };
        match e {
            Expression::Literal(l) => literal_to_string(*l),
            Expression::Constant(c) => format!("@c{}", c.index()),
            Expression::ZeroValue(t) => format!("zero<{}>", self.ty(*t)),
            Expression::FunctionArgument(n) => self
                .arguments
                .get(*n as usize)
                .cloned()
                .unwrap_or_else(|| format!("%bad_arg{n}")),
            Expression::GlobalVariable(g) => self.names.global(*g),
            Expression::LocalVariable(l) => self
                .locals
                .get(l.index())
                .cloned()
                .unwrap_or_else(|| format!("$bad{}", l.index())),
            _ => format!("%{}", h.index()),
        }
    }

    fn operands(&self, hs: &[Handle<Expression>]) -> String {
        hs.iter()
            .map(|&h| self.operand(h))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `%N:type = `
    fn lhs(&self, h: Handle<Expression>) -> String {
        let ty = self
            .function
            .expr_types
            .get(h.index())
            .map(|&t| self.ty(t))
            .unwrap_or_else(|| "?".into());
        format!("%{}:{ty} = ", h.index())
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("    ");
        }
    }

    fn expression(&self, h: Handle<Expression>) -> String {
        use Expression as E;
        let Some(e) = self.function.expressions.get(h) else {
            return format!("%bad{}", h.index());
        };
        let o = |x: Handle<Expression>| self.operand(x);
        let mut s = self.lhs(h);
        if e.is_precise() {
            s.push_str("precise ");
        }
        let body = match e {
            E::Literal(_)
            | E::Constant(_)
            | E::ZeroValue(_)
            | E::FunctionArgument(_)
            | E::GlobalVariable(_)
            | E::LocalVariable(_) => o(h),
            E::Compose { components, .. } => format!("compose {}", self.operands(components)),
            E::Splat { value, .. } => format!("splat {}", o(*value)),
            E::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let p: String = pattern[..(*size as usize).min(4)]
                    .iter()
                    .map(|c| ['x', 'y', 'z', 'w'][*c as usize])
                    .collect();
                format!("swizzle {}.{p}", o(*vector))
            }
            E::AccessIndex { base, index } => format!("access {}[{index}]", o(*base)),
            E::Access { base, index } => format!("access {}[{}]", o(*base), o(*index)),
            E::Load { pointer } => format!("load {}", o(*pointer)),
            E::Unary { op, expr, .. } => {
                let n = match op {
                    UnaryOperator::Negate => "neg",
                    UnaryOperator::LogicalNot => "not",
                    UnaryOperator::BitwiseNot => "bitnot",
                };
                format!("{n} {}", o(*expr))
            }
            E::Binary {
                op, left, right, ..
            } => format!("{} {}, {}", binary_name(*op), o(*left), o(*right)),
            E::Select {
                condition,
                accept,
                reject,
            } => format!("select {}, {}, {}", o(*condition), o(*accept), o(*reject)),
            E::Relational { fun, argument } => {
                format!("{} {}", format!("{fun:?}").to_lowercase(), o(*argument))
            }
            E::Math { fun, args, .. } => {
                format!(
                    "{} {}",
                    format!("{fun:?}").to_lowercase(),
                    self.operands(args)
                )
            }
            E::As { expr, convert, .. } => {
                let n = if convert.is_some() {
                    "convert"
                } else {
                    "bitcast"
                };
                format!("{n} {}", o(*expr))
            }
            E::Derivative {
                axis,
                control,
                expr,
            } => {
                let a = match axis {
                    DerivativeAxis::X => "ddx",
                    DerivativeAxis::Y => "ddy",
                    DerivativeAxis::Width => "fwidth",
                };
                let c = match control {
                    DerivativeControl::None => "",
                    DerivativeControl::Coarse => "_coarse",
                    DerivativeControl::Fine => "_fine",
                };
                format!("{a}{c} {}", o(*expr))
            }
            E::ImageSample {
                image,
                sampler,
                coordinate,
                offset,
                level,
                depth_ref,
                clamp,
                gather,
                sparse,
            } => {
                let mut s = format!("sample {}, {}, {}", o(*image), o(*sampler), o(*coordinate));
                match level {
                    SampleLevel::Auto => {}
                    SampleLevel::Zero => s.push_str(" level_zero"),
                    SampleLevel::Exact(l) => {
                        let _ = write!(s, " level({})", o(*l));
                    }
                    SampleLevel::Bias(b) => {
                        let _ = write!(s, " bias({})", o(*b));
                    }
                    SampleLevel::Gradient { x, y } => {
                        let _ = write!(s, " grad({}, {})", o(*x), o(*y));
                    }
                }
                if let Some(x) = offset {
                    let _ = write!(s, " offset({})", o(*x));
                }
                if let Some(x) = depth_ref {
                    let _ = write!(s, " depth_ref({})", o(*x));
                }
                if let Some(x) = clamp {
                    let _ = write!(s, " clamp({})", o(*x));
                }
                if let Some(g) = gather {
                    let _ = write!(s, " gather({g})");
                }
                if *sparse {
                    s.push_str(" sparse");
                }
                s
            }
            E::ImageLoad {
                image,
                coordinate,
                level,
                sample,
                offset,
                sparse,
            } => {
                let mut s = format!("image_load {}, {}", o(*image), o(*coordinate));
                for (name, x) in [("level", level), ("sample", sample), ("offset", offset)] {
                    if let Some(x) = x {
                        let _ = write!(s, " {name}({})", o(*x));
                    }
                }
                if *sparse {
                    s.push_str(" sparse");
                }
                s
            }
            E::ImageQuery { image, query } => match query {
                ImageQuery::Size { level: None } => format!("image_query size {}", o(*image)),
                ImageQuery::Size { level: Some(l) } => {
                    format!("image_query size {} level({})", o(*image), o(*l))
                }
                ImageQuery::NumLevels => format!("image_query num_levels {}", o(*image)),
                ImageQuery::NumSamples => format!("image_query num_samples {}", o(*image)),
                ImageQuery::Lod {
                    sampler,
                    coordinate,
                    clamped,
                } => format!(
                    "image_query lod{} {}, {}, {}",
                    if *clamped { "" } else { "_unclamped" },
                    o(*image),
                    o(*sampler),
                    o(*coordinate)
                ),
            },
            E::ImageTexelPointer {
                image,
                coordinate,
                sample,
            } => format!(
                "texel_pointer {}, {}, {}",
                o(*image),
                o(*coordinate),
                o(*sample)
            ),
            E::SparseTexelsResident { code } => format!("sparse_resident {}", o(*code)),
            E::ArrayLength { pointer, member } => {
                format!("array_length {} member({member})", o(*pointer))
            }
            E::CallResult(_) => "call_result".into(),
            E::AtomicResult => "atomic_result".into(),
            E::SubgroupResult => "subgroup_result".into(),
        };
        s.push_str(&body);
        s
    }

    fn block(&mut self, block: &[Statement], depth: usize) {
        // Iterative over nesting, so a deeply nested body cannot overflow the
        // stack: each frame is a block being printed and what closes it.
        enum Frame<'b> {
            Statements(std::slice::Iter<'b, Statement>, usize),
            Text(String, usize),
        }
        let mut stack = vec![Frame::Statements(block.iter(), depth)];
        while let Some(frame) = stack.last_mut() {
            let (s, depth) = match frame {
                Frame::Text(t, d) => {
                    let (t, d) = (std::mem::take(t), *d);
                    stack.pop();
                    self.indent(d);
                    self.out.push_str(&t);
                    continue;
                }
                Frame::Statements(it, d) => match it.next() {
                    Some(s) => (s, *d),
                    None => {
                        stack.pop();
                        continue;
                    }
                },
            };
            // Frames are pushed in reverse: what prints last goes first.
            let mut push: Vec<Frame<'_>> = Vec::new();
            match s {
                Statement::Emit(r) => {
                    for h in r.iter() {
                        let line = self.expression(h);
                        self.indent(depth);
                        self.out.push_str(&line);
                        self.out.push('\n');
                    }
                }
                Statement::Block(b) => {
                    self.indent(depth);
                    self.out.push_str("{\n");
                    push.push(Frame::Statements(b.iter(), depth + 1));
                    push.push(Frame::Text("}\n".into(), depth));
                }
                Statement::If {
                    condition,
                    accept,
                    reject,
                    control,
                } => {
                    let c = match control {
                        SelectionControl::None => "",
                        SelectionControl::Flatten => "[flatten] ",
                        SelectionControl::DontFlatten => "[branch] ",
                    };
                    self.indent(depth);
                    let _ = writeln!(self.out, "if {c}{} {{", self.operand(*condition));
                    push.push(Frame::Statements(accept.iter(), depth + 1));
                    if !reject.is_empty() {
                        push.push(Frame::Text("} else {\n".into(), depth));
                        push.push(Frame::Statements(reject.iter(), depth + 1));
                    }
                    push.push(Frame::Text("}\n".into(), depth));
                }
                Statement::Switch { selector, cases } => {
                    self.indent(depth);
                    let _ = writeln!(self.out, "switch {} {{", self.operand(*selector));
                    for c in cases {
                        let v = match c.value {
                            SwitchValue::I32(v) => format!("case {v}i32 {{\n"),
                            SwitchValue::U32(v) => format!("case {v}u32 {{\n"),
                            SwitchValue::Default => "default {\n".into(),
                        };
                        push.push(Frame::Text(v, depth + 1));
                        push.push(Frame::Statements(c.body.iter(), depth + 2));
                        let close = if c.fall_through {
                            "} fallthrough\n"
                        } else {
                            "}\n"
                        };
                        push.push(Frame::Text(close.into(), depth + 1));
                    }
                    push.push(Frame::Text("}\n".into(), depth));
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                    control,
                } => {
                    let c = match control {
                        LoopControl::None => String::new(),
                        LoopControl::Unroll(None) => "[unroll] ".into(),
                        LoopControl::Unroll(Some(n)) => format!("[unroll({n})] "),
                        LoopControl::DontUnroll => "[loop] ".into(),
                    };
                    self.indent(depth);
                    let _ = writeln!(self.out, "loop {c}{{");
                    push.push(Frame::Statements(body.iter(), depth + 1));
                    if continuing.is_empty() && break_if.is_none() {
                        push.push(Frame::Text("}\n".into(), depth));
                    } else {
                        push.push(Frame::Text("} continuing {\n".into(), depth));
                        push.push(Frame::Statements(continuing.iter(), depth + 1));
                        let close = match break_if {
                            Some(b) => format!("}} break_if {}\n", self.operand(*b)),
                            None => "}\n".into(),
                        };
                        push.push(Frame::Text(close, depth));
                    }
                }
                other => {
                    let line = self.simple_statement(other);
                    self.indent(depth);
                    self.out.push_str(&line);
                    self.out.push('\n');
                }
            }
            stack.extend(push.into_iter().rev());
        }
    }

    fn simple_statement(&self, s: &Statement) -> String {
        let o = |x: Handle<Expression>| self.operand(x);
        let result = |r: Option<Handle<Expression>>| match r {
            Some(r) => self.lhs(r),
            None => String::new(),
        };
        match s {
            Statement::Break => "break".into(),
            Statement::Continue => "continue".into(),
            Statement::Kill => "kill".into(),
            Statement::Return { value: None } => "return".into(),
            Statement::Return { value: Some(v) } => format!("return {}", o(*v)),
            Statement::Barrier { memory, execution } => {
                let mut parts = Vec::new();
                if memory.workgroup {
                    parts.push("workgroup");
                }
                if memory.device {
                    parts.push("device");
                }
                if memory.image {
                    parts.push("image");
                }
                let mut t = format!("barrier({})", parts.join(", "));
                if *execution {
                    t.push_str(" execution");
                }
                t
            }
            Statement::Store { pointer, value } => format!("store {}, {}", o(*pointer), o(*value)),
            Statement::ImageStore {
                image,
                coordinate,
                value,
            } => format!(
                "image_store {}, {}, {}",
                o(*image),
                o(*coordinate),
                o(*value)
            ),
            Statement::Atomic {
                pointer,
                fun,
                value,
                compare,
                result: r,
            } => {
                let mut t = format!(
                    "{}atomic {} {}",
                    result(*r),
                    format!("{fun:?}").to_lowercase(),
                    o(*pointer)
                );
                for x in value.iter().chain(compare.iter()) {
                    let _ = write!(t, ", {}", o(*x));
                }
                t
            }
            Statement::Call {
                function,
                arguments,
                result: r,
            } => format!(
                "{}call {}({})",
                result(*r),
                self.names.function(*function),
                self.operands(arguments)
            ),
            Statement::Subgroup {
                op,
                args,
                result: r,
            } => {
                let mut t = format!(
                    "{}subgroup {}",
                    result(Some(*r)),
                    format!("{op:?}").to_lowercase()
                );
                if !args.is_empty() {
                    let _ = write!(t, " {}", self.operands(args));
                }
                t
            }
            Statement::EmitVertex { stream } => format!("emit_vertex {stream}"),
            Statement::EndPrimitive { stream } => format!("end_primitive {stream}"),
            Statement::Emit(_)
            | Statement::Block(_)
            | Statement::If { .. }
            | Statement::Switch { .. }
            | Statement::Loop { .. } => String::new(),
        }
    }
}

fn binary_name(op: BinaryOperator) -> &'static str {
    use BinaryOperator as B;
    match op {
        B::Add => "add",
        B::Subtract => "sub",
        B::Multiply => "mul",
        B::Divide => "div",
        B::Modulo => "mod",
        B::MatMul => "matmul",
        B::Equal => "eq",
        B::NotEqual => "ne",
        B::Less => "lt",
        B::LessEqual => "le",
        B::Greater => "gt",
        B::GreaterEqual => "ge",
        B::And => "and",
        B::InclusiveOr => "or",
        B::ExclusiveOr => "xor",
        B::LogicalAnd => "land",
        B::LogicalOr => "lor",
        B::ShiftLeft => "shl",
        B::ShiftRight => "shr",
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
        let u3 = m.ty(TypeInner::Vector {
            size: 3,
            scalar: Scalar::U32,
        });
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
