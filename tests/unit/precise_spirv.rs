//! `precise` and multiply-add fusion in the SPIR-V hlslc writes for HLSL
//! (compiled with `crate::compile`, validated with spirv-val).
//!
//! The main check is exact: the set of instructions decorated
//! `NoContraction` must equal the set of floating-point arithmetic
//! instructions that contribute to the precise values, computed here
//! independently by slicing the SPIR-V backwards from the stores of those
//! values (through composites member by member, function-local and private
//! variables, calls, parameters and out parameters). Nothing outside the
//! slice may be decorated, and nothing inside it may be left out.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::common;
use rspirv::dr::{Instruction, Module, Operand};
use rustc_hash::{FxHashMap, FxHashSet};
use spirv::{Decoration, Op, StorageClass};

/// A compiled, validated module.
struct Spv {
    module: Module,
    text: String,
    /// Definitions by result id: the instruction and its function (index
    /// into `module.functions`, `None` for globals).
    defs: FxHashMap<u32, (Instruction, Option<usize>)>,
    /// Every instruction of every function, with the function index.
    code: Vec<(usize, Instruction)>,
    no_contraction: FxHashSet<u32>,
    glsl_std: Option<u32>,
}

fn compile(src: &str, profile: &str, level: u8) -> Spv {
    let (loader, path) = common::single_file(src);
    let mut o = common::options_for(profile);
    o.opt_level = level;
    o.target_env = TargetEnv::Vulkan1_1;
    let c = crate::compile(&path, &loader, &o);
    let diags = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("-O{level}: does not compile:\n{diags}\n{src}");
    };
    let text = crate::back::spv::disassemble(&a.spirv);
    if let Err(e) = common::spirv_val(&a.spirv, "vulkan1.1") {
        panic!("-O{level}: invalid SPIR-V: {e}\n{text}");
    }
    let module = rspirv::dr::load_words(&a.spirv).expect("rspirv reads the module");
    let mut defs = FxHashMap::default();
    for i in module.all_inst_iter() {
        if let Some(id) = i.result_id {
            defs.insert(id, (i.clone(), None));
        }
    }
    let mut code = Vec::new();
    for (fi, f) in module.functions.iter().enumerate() {
        for i in f.all_inst_iter() {
            if let Some(id) = i.result_id {
                defs.insert(id, (i.clone(), Some(fi)));
            }
            code.push((fi, i.clone()));
        }
    }
    let no_contraction = module
        .annotations
        .iter()
        .filter(|i| {
            i.class.opcode == Op::Decorate
                && i.operands[1] == Operand::Decoration(Decoration::NoContraction)
        })
        .map(|i| i.operands[0].unwrap_id_ref())
        .collect();
    let glsl_std = module
        .ext_inst_imports
        .iter()
        .find(|i| matches!(&i.operands[0], Operand::LiteralString(s) if s == "GLSL.std.450"))
        .and_then(|i| i.result_id);
    Spv {
        module,
        text,
        defs,
        code,
        no_contraction,
        glsl_std,
    }
}

/// One step into a composite (`None`: a dynamic index, any part).
type Path = Vec<Option<u32>>;

fn overlaps(a: &[Option<u32>], b: &[Option<u32>]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| !matches!((x, y), (Some(i), Some(j)) if i != j))
}

/// GLSL.std.450 instruction numbers.
const FMA: u32 = 50;

impl Spv {
    fn def(&self, id: u32) -> Option<&Instruction> {
        self.defs.get(&id).map(|(i, _)| i)
    }
    fn function_of(&self, id: u32) -> Option<usize> {
        self.defs.get(&id).and_then(|(_, f)| *f)
    }
    fn function_id(&self, f: usize) -> u32 {
        self.module.functions[f]
            .def
            .as_ref()
            .and_then(|d| d.result_id)
            .unwrap_or(0)
    }
    /// The constant value of an integer constant id.
    fn constant(&self, id: u32) -> Option<u32> {
        match self.def(id) {
            Some(i) if i.class.opcode == Op::Constant => match i.operands[0] {
                Operand::LiteralBit32(v) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }
    /// The variable (or parameter) a pointer starts from and the path.
    fn pointer_root(&self, mut p: u32) -> (u32, Path) {
        let mut path = Vec::new();
        loop {
            match self.def(p) {
                Some(i) if matches!(i.class.opcode, Op::AccessChain | Op::InBoundsAccessChain) => {
                    let idx: Vec<u32> = i.operands[1..].iter().map(|o| o.unwrap_id_ref()).collect();
                    for &x in idx.iter().rev() {
                        path.push(self.constant(x));
                    }
                    p = i.operands[0].unwrap_id_ref();
                }
                _ => {
                    path.reverse();
                    return (p, path);
                }
            }
        }
    }
    fn storage_class(&self, var: u32) -> Option<StorageClass> {
        match self.def(var) {
            Some(i) if i.class.opcode == Op::Variable => match i.operands[0] {
                Operand::StorageClass(c) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }
    /// Is `id` floating-point arithmetic (what NoContraction is about)?
    fn is_float_arith(&self, id: u32) -> bool {
        let Some(i) = self.def(id) else { return false };
        match i.class.opcode {
            Op::FAdd
            | Op::FSub
            | Op::FMul
            | Op::FDiv
            | Op::FRem
            | Op::FMod
            | Op::FNegate
            | Op::VectorTimesScalar
            | Op::MatrixTimesScalar
            | Op::VectorTimesMatrix
            | Op::MatrixTimesVector
            | Op::MatrixTimesMatrix
            | Op::Dot => true,
            Op::ExtInst => Some(i.operands[0].unwrap_id_ref()) == self.glsl_std,
            _ => false,
        }
    }
    fn is_fma(&self, id: u32) -> bool {
        self.def(id).is_some_and(|i| {
            i.class.opcode == Op::ExtInst
                && Some(i.operands[0].unwrap_id_ref()) == self.glsl_std
                && i.operands[1] == Operand::LiteralExtInstInteger(FMA)
        })
    }

    /// Every float arithmetic instruction the values of `roots` (value
    /// ids, each with the part of it that matters) depend on.
    fn slice(&self, roots: &[(u32, Path)]) -> FxHashSet<u32> {
        let mut seen: FxHashSet<(u32, Path)> = FxHashSet::default();
        let mut work: Vec<(u32, Path)> = roots.to_vec();
        let mut out = FxHashSet::default();
        while let Some((id, path)) = work.pop() {
            if !seen.insert((id, path.clone())) {
                continue;
            }
            if self.is_float_arith(id) {
                out.insert(id);
            }
            let Some(i) = self.def(id) else { continue };
            match i.class.opcode {
                Op::CompositeConstruct if !path.is_empty() => {
                    let vector = self
                        .def(i.result_type.unwrap_or(0))
                        .is_some_and(|t| t.class.opcode == Op::TypeVector);
                    match path[0] {
                        Some(k) if !vector => {
                            if let Some(o) = i.operands.get(k as usize) {
                                work.push((o.unwrap_id_ref(), path[1..].to_vec()));
                            }
                        }
                        _ => work.extend(i.operands.iter().map(|o| (o.unwrap_id_ref(), vec![]))),
                    }
                }
                Op::CompositeExtract => {
                    let mut p: Path = i.operands[1..]
                        .iter()
                        .map(|o| match o {
                            Operand::LiteralBit32(v) => Some(*v),
                            _ => None,
                        })
                        .collect();
                    p.extend(path);
                    work.push((i.operands[0].unwrap_id_ref(), p));
                }
                Op::Load => {
                    let (var, mut p) = self.pointer_root(i.operands[0].unwrap_id_ref());
                    p.extend(path);
                    self.memory(var, &p, &mut work);
                }
                Op::FunctionParameter => {
                    self.parameter_arguments(id, &mut work);
                }
                Op::FunctionCall => {
                    let callee = i.operands[0].unwrap_id_ref();
                    for (fi, r) in &self.code {
                        if r.class.opcode == Op::ReturnValue && self.function_id(*fi) == callee {
                            work.push((r.operands[0].unwrap_id_ref(), path.clone()));
                        }
                    }
                }
                _ => {
                    for o in &i.operands {
                        if let Operand::IdRef(x) = o {
                            work.push((*x, vec![]));
                        }
                    }
                }
            }
        }
        out
    }

    /// A read of `var` at `path`: what the stores there (and calls writing
    /// it through an out parameter) put there.
    fn memory(&self, var: u32, path: &[Option<u32>], work: &mut Vec<(u32, Path)>) {
        let param = self
            .def(var)
            .is_some_and(|i| i.class.opcode == Op::FunctionParameter);
        if !param
            && !matches!(
                self.storage_class(var),
                Some(StorageClass::Function | StorageClass::Private | StorageClass::Workgroup)
            )
        {
            return;
        }
        for (fi, s) in &self.code {
            match s.class.opcode {
                Op::Store => {
                    let (v, p) = self.pointer_root(s.operands[0].unwrap_id_ref());
                    if v == var && overlaps(&p, path) {
                        let rest = path.get(p.len()..).map(|r| r.to_vec()).unwrap_or_default();
                        work.push((s.operands[1].unwrap_id_ref(), rest));
                    }
                }
                Op::FunctionCall => {
                    // A pointer into `var` passed to a callee: its stores
                    // through that parameter.
                    for (k, a) in s.operands[1..].iter().enumerate() {
                        let (v, _) = self.pointer_root(a.unwrap_id_ref());
                        if v != var {
                            continue;
                        }
                        let callee = s.operands[0].unwrap_id_ref();
                        if let Some(param) = self.parameter(callee, k) {
                            self.memory(param, &[], work);
                        }
                    }
                }
                _ => {}
            }
            let _ = fi;
        }
    }

    /// Parameter `k` of the function with id `f`.
    fn parameter(&self, f: u32, k: usize) -> Option<u32> {
        let func = self
            .module
            .functions
            .iter()
            .find(|g| g.def.as_ref().and_then(|d| d.result_id) == Some(f))?;
        func.parameters.get(k).and_then(|p| p.result_id)
    }

    /// The arguments passed for parameter `param` at every call site.
    fn parameter_arguments(&self, param: u32, work: &mut Vec<(u32, Path)>) {
        let Some(fi) = self.function_of(param) else {
            return;
        };
        let f = &self.module.functions[fi];
        let Some(k) = f.parameters.iter().position(|p| p.result_id == Some(param)) else {
            return;
        };
        let fid = self.function_id(fi);
        for (_, c) in &self.code {
            if c.class.opcode == Op::FunctionCall && c.operands[0].unwrap_id_ref() == fid {
                work.push((c.operands[1 + k].unwrap_id_ref(), vec![]));
            }
        }
    }

    /// The values stored by `OpStore`s whose target satisfies `pick`.
    fn stored_values(&self, pick: impl Fn(&Spv, u32, &[Option<u32>]) -> bool) -> Vec<u32> {
        self.code
            .iter()
            .filter(|(_, s)| s.class.opcode == Op::Store)
            .filter(|(_, s)| {
                let (v, p) = self.pointer_root(s.operands[0].unwrap_id_ref());
                pick(self, v, &p)
            })
            .map(|(_, s)| s.operands[1].unwrap_id_ref())
            .collect()
    }

    /// The values stored into element `k` of the storage buffer named
    /// `name` (DXC layout: the array is member 0 of the block).
    fn buffer_stores(&self, name: &str, k: u32) -> Vec<u32> {
        let var = self.named(name);
        self.stored_values(|_, v, p| v == var && p.len() >= 2 && p[1] == Some(k))
    }

    fn named(&self, name: &str) -> u32 {
        self.module
            .debug_names
            .iter()
            .find(|i| {
                i.class.opcode == Op::Name
                    && matches!(&i.operands[1], Operand::LiteralString(s) if s == name)
            })
            .map(|i| i.operands[0].unwrap_id_ref())
            .unwrap_or_else(|| panic!("no OpName {name} in\n{}", self.text))
    }

    /// All float arithmetic instructions.
    fn arithmetic(&self) -> FxHashSet<u32> {
        self.code
            .iter()
            .filter_map(|(_, i)| i.result_id)
            .filter(|&id| self.is_float_arith(id))
            .collect()
    }

    /// Asserts that NoContraction is on exactly the float arithmetic of the
    /// slice of `roots`, and that the slice is not empty.
    fn assert_no_contraction_exactly(&self, roots: &[(u32, Path)], what: &str) {
        assert!(!roots.is_empty(), "{what}: no roots\n{}", self.text);
        let slice = self.slice(roots);
        assert!(!slice.is_empty(), "{what}: nothing to mark\n{}", self.text);
        let mut missing: Vec<u32> = slice.difference(&self.no_contraction).copied().collect();
        let mut extra: Vec<u32> = self.no_contraction.difference(&slice).copied().collect();
        missing.sort();
        extra.sort();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{what}: NoContraction missing on {missing:?}, extra on {extra:?}\n{}",
            self.text
        );
        // Every decorated id is arithmetic (a decoration on a load or a
        // composite would be meaningless).
        assert!(
            self.no_contraction
                .iter()
                .all(|&id| self.is_float_arith(id))
        );
    }

    fn count(&self, op: Op) -> usize {
        self.code
            .iter()
            .filter(|(_, i)| i.class.opcode == op)
            .count()
    }
    fn fmas(&self) -> Vec<u32> {
        self.code
            .iter()
            .filter_map(|(_, i)| i.result_id)
            .filter(|&id| self.is_fma(id))
            .collect()
    }
}

fn roots(ids: Vec<u32>) -> Vec<(u32, Path)> {
    ids.into_iter().map(|v| (v, vec![])).collect()
}

/// A precise local next to its plain twin; the plain one is the fused one.
const TWIN: &str = r#"
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float a = buf[0];
    float b = buf[1];
    float c = buf[2];
    precise float p = a * b + c;
    float q = a * b + c;
    buf[3] = p;
    buf[4] = q;
}
"#;

#[test]
fn no_contraction_on_the_precise_twin_only_and_fma_for_the_other() {
    for level in 0..=3 {
        let w = compile(TWIN, "cs_6_0", level);
        let what = format!("-O{level}");
        w.assert_no_contraction_exactly(&roots(w.buffer_stores("buf", 3)), &what);
        // The precise value: one FMul and one FAdd, both decorated.
        let precise_ops: Vec<Op> = {
            let mut v: Vec<Op> = w
                .no_contraction
                .iter()
                .map(|&id| w.def(id).map_or(Op::Nop, |i| i.class.opcode))
                .collect();
            v.sort_by_key(|o| *o as u32);
            v
        };
        assert_eq!(precise_ops, vec![Op::FAdd, Op::FMul], "{what}\n{}", w.text);
        // The plain value: an undecorated Fma from -O1 on, separate below.
        let plain = w.slice(&roots(w.buffer_stores("buf", 4)));
        let fmas = w.fmas();
        if level >= 1 {
            assert_eq!(fmas.len(), 1, "{what}\n{}", w.text);
            assert!(plain.contains(&fmas[0]), "{what}\n{}", w.text);
            assert!(!w.no_contraction.contains(&fmas[0]));
            assert_eq!(
                w.count(Op::FMul),
                1,
                "{what}: only the precise multiply\n{}",
                w.text
            );
        } else {
            assert!(fmas.is_empty(), "{what}\n{}", w.text);
            assert_eq!(w.count(Op::FMul), 2, "{what}\n{}", w.text);
            assert_eq!(w.count(Op::FAdd), 2, "{what}\n{}", w.text);
        }
    }
}

/// DXC issue 8423: a precise value computed in a called function.
const CALLED: &str = r#"
RWStructuredBuffer<float> buf : register(u0);

float mad3(float a, float b, float c) {
    return a * b + c;
}
float scaled(float a, float b, float c) {
    float t = mad3(a, b, c);
    return t * 0.5f;
}

[numthreads(1, 1, 1)]
void main() {
    precise float p = scaled(buf[0], buf[1], buf[2]);
    buf[3] = p;
    buf[4] = scaled(buf[5], buf[6], buf[7]);
}
"#;

#[test]
fn no_contraction_through_called_functions() {
    for level in 0..=3 {
        let w = compile(CALLED, "cs_6_0", level);
        let what = format!("-O{level}");
        w.assert_no_contraction_exactly(&roots(w.buffer_stores("buf", 3)), &what);
        // mul, add and the scaling: three decorated operations.
        assert_eq!(w.no_contraction.len(), 3, "{what}\n{}", w.text);
        if level == 0 {
            // Calls stay: the precise specialisations are separate functions.
            assert!(w.text.contains("mad3.precise"), "{what}\n{}", w.text);
            assert!(w.text.contains("scaled.precise"), "{what}\n{}", w.text);
        } else {
            assert_eq!(
                w.fmas().len(),
                1,
                "{what}: the plain call fuses\n{}",
                w.text
            );
        }
    }
}

#[test]
fn no_contraction_on_vectors_and_matrices() {
    let src = r#"
RWStructuredBuffer<float4> buf : register(u0);
cbuffer C { float4x4 m; };

[numthreads(1, 1, 1)]
void main() {
    float4 a = buf[0];
    float4 b = buf[1];
    precise float4 p = mul(m, a) * 2.0f + b;
    precise float d = dot(a, b) - length(a);
    buf[2] = p;
    buf[3] = d;
    buf[4] = mul(m, a) * 2.0f + b;
    buf[5] = dot(a, b) - length(a);
}
"#;
    for level in [0, 3] {
        let w = compile(src, "cs_6_0", level);
        let what = format!("-O{level}");
        let mut r = roots(w.buffer_stores("buf", 2));
        r.extend(roots(w.buffer_stores("buf", 3)));
        w.assert_no_contraction_exactly(&r, &what);
        assert!(
            w.no_contraction
                .iter()
                .any(|&id| w.def(id).is_some_and(|i| matches!(
                    i.class.opcode,
                    Op::MatrixTimesVector | Op::VectorTimesMatrix
                ))),
            "{what}\n{}",
            w.text
        );
        assert!(
            w.no_contraction
                .iter()
                .any(|&id| w.def(id).is_some_and(|i| i.class.opcode == Op::Dot)),
            "{what}\n{}",
            w.text
        );
    }
}

#[test]
fn no_contraction_on_a_precise_struct_field_only() {
    let src = r#"
struct Pair {
    precise float exact;
    float fast;
};
RWStructuredBuffer<float> buf : register(u0);
RWStructuredBuffer<Pair> pairs : register(u1);

[numthreads(1, 1, 1)]
void main() {
    float a = buf[0];
    float b = buf[1];
    float c = buf[2];
    Pair p;
    p.exact = a * b + c;
    p.fast = a * b + c * 2.0f;
    pairs[0] = p;
}
"#;
    for level in 0..=3 {
        let w = compile(src, "cs_6_0", level);
        let what = format!("-O{level}");
        let var = w.named("pairs");
        // The stored struct, member 0 (`exact`) only; or stores straight
        // into the member.
        let mut r: Vec<(u32, Path)> = Vec::new();
        for (_, s) in w.code.iter().filter(|(_, s)| s.class.opcode == Op::Store) {
            let (v, p) = w.pointer_root(s.operands[0].unwrap_id_ref());
            if v != var {
                continue;
            }
            let rest: Path = if p.len() > 2 { vec![] } else { vec![Some(0)] };
            if p.len() <= 2 || p[2] == Some(0) {
                r.push((s.operands[1].unwrap_id_ref(), rest));
            }
        }
        w.assert_no_contraction_exactly(&r, &what);
        assert_eq!(w.no_contraction.len(), 2, "{what}\n{}", w.text);
        if level >= 1 {
            assert_eq!(w.fmas().len(), 1, "{what}: `fast` fuses\n{}", w.text);
        }
    }
}

#[test]
fn no_contraction_through_out_parameters() {
    let src = r#"
RWStructuredBuffer<float> buf : register(u0);

void exact(out precise float r, float a, float b, float c) {
    r = a * b + c;
}
void plain(out float r, float a, float b, float c) {
    r = a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    float x, y;
    exact(x, buf[0], buf[1], buf[2]);
    precise float w;
    plain(w, buf[3], buf[4], buf[5]);
    plain(y, buf[6], buf[7], buf[8]);
    buf[9] = x;
    buf[10] = w;
    buf[11] = y;
}
"#;
    for level in 0..=3 {
        let w = compile(src, "cs_6_0", level);
        let what = format!("-O{level}");
        let mut r = roots(w.buffer_stores("buf", 9));
        r.extend(roots(w.buffer_stores("buf", 10)));
        w.assert_no_contraction_exactly(&r, &what);
        assert_eq!(w.no_contraction.len(), 4, "{what}\n{}", w.text);
        if level >= 1 {
            assert_eq!(w.fmas().len(), 1, "{what}: `y` fuses\n{}", w.text);
        }
    }
}

#[test]
fn no_contraction_on_precise_return_values() {
    let src = r#"
RWStructuredBuffer<float> buf : register(u0);

precise float exact(float a, float b, float c) {
    return a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    float e = exact(buf[0], buf[1], buf[2]);
    buf[3] = e;
    buf[4] = e * e + e;
}
"#;
    for level in 0..=3 {
        let w = compile(src, "cs_6_0", level);
        let what = format!("-O{level}");
        w.assert_no_contraction_exactly(&roots(w.buffer_stores("buf", 3)), &what);
        assert_eq!(w.no_contraction.len(), 2, "{what}\n{}", w.text);
    }
}

/// A precise output (a precise member of the vertex output struct, and a
/// precise pixel shader return value).
#[test]
fn no_contraction_on_precise_outputs() {
    let vs = r#"
struct VSOut {
    precise float4 pos : SV_Position;
    float4 color : COLOR0;
};
float4x4 mvp;

VSOut main(float4 p : POSITION, float4 c : COLOR0) {
    VSOut o;
    o.pos = mul(mvp, p) + p * 0.5;
    o.color = mul(mvp, c) + c * 0.5;
    return o;
}
"#;
    let ps = r#"
precise float4 main(float4 a : A, float4 b : B) : SV_Target {
    return a * b + a;
}
"#;
    for level in 0..=3 {
        let what = format!("-O{level}");
        let w = compile(vs, "vs_6_0", level);
        let position = w
            .module
            .annotations
            .iter()
            .find(|i| i.operands.get(2) == Some(&Operand::BuiltIn(spirv::BuiltIn::Position)))
            .map(|i| i.operands[0].unwrap_id_ref())
            .expect("a Position output");
        let r = roots(w.stored_values(|_, v, _| v == position));
        w.assert_no_contraction_exactly(&r, &format!("vs {what}"));
        assert_eq!(w.no_contraction.len(), 3, "vs {what}\n{}", w.text);
        let w = compile(ps, "ps_6_0", level);
        let target = w.named("out.var.SV_Target");
        let r = roots(w.stored_values(|_, v, _| v == target));
        w.assert_no_contraction_exactly(&r, &format!("ps {what}"));
        assert!(w.fmas().is_empty(), "ps {what}\n{}", w.text);
    }
}

/// `mad()` is an explicit fused multiply-add: Fma at every level; under
/// precise it stays an Fma and is decorated NoContraction, as DXC does.
#[test]
fn mad_is_fma_and_precise_mad_is_decorated() {
    let src = r#"
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float a = buf[0];
    float b = buf[1];
    float c = buf[2];
    precise float p = mad(a, b, c);
    buf[3] = p;
    buf[4] = mad(a, b, c);
}
"#;
    for level in 0..=3 {
        let w = compile(src, "cs_6_0", level);
        let what = format!("-O{level}");
        let fmas = w.fmas();
        assert_eq!(fmas.len(), 2, "{what}\n{}", w.text);
        let decorated: Vec<u32> = fmas
            .iter()
            .copied()
            .filter(|id| w.no_contraction.contains(id))
            .collect();
        assert_eq!(decorated.len(), 1, "{what}\n{}", w.text);
        w.assert_no_contraction_exactly(&roots(w.buffer_stores("buf", 3)), &what);
        assert_eq!(w.count(Op::FMul), 0, "{what}\n{}", w.text);
    }
}

/// `a * b + c` in every form fusion takes (scalar, vector, c + a * b) is
/// one GLSL.std.450 Fma at -O1 and above, separate at -O0.
#[test]
fn plain_multiply_add_is_fma_from_o1() {
    let src = r#"
RWStructuredBuffer<float4> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float4 a = buf[0];
    float4 b = buf[1];
    float4 c = buf[2];
    buf[3] = a * b + c;
    buf[4] = c + a * b;
    buf[5] = float4(a.x * b.x + c.x, 0, 0, 0);
}
"#;
    for level in 0..=3 {
        let w = compile(src, "cs_6_0", level);
        let what = format!("-O{level}");
        assert!(w.no_contraction.is_empty(), "{what}\n{}", w.text);
        let arith = w.arithmetic();
        if level >= 1 {
            // From -O2 on, CSE merges the commuted twin (a + b = b + a
            // exactly in IEEE arithmetic).
            let n = if level == 1 { 3 } else { 2 };
            assert_eq!(w.fmas().len(), n, "{what}\n{}", w.text);
            assert_eq!(arith.len(), n, "{what}: nothing but the fmas\n{}", w.text);
        } else {
            assert!(w.fmas().is_empty(), "{what}\n{}", w.text);
            assert_eq!(w.count(Op::FMul), 3, "{what}\n{}", w.text);
            assert_eq!(w.count(Op::FAdd), 3, "{what}\n{}", w.text);
        }
    }
}

/// The modules of `runtime_fma` (which runs without spirv-tools, so that it
/// can run on the GPU machine) are valid.
#[test]
fn fma_probe_is_valid() {
    for level in crate::tests::runtime_fma::LEVELS {
        let words = crate::tests::runtime_fma::compile(level);
        if let Err(e) = common::spirv_val(&words, "vulkan1.1") {
            panic!("-O{level}: {e}\n{}", crate::back::spv::disassemble(&words));
        }
    }
}
