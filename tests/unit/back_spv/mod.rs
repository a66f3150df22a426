//! SPIR-V backend tests: IR modules built by hand, written with
//! `back::spv::write`, checked with `spirv-val` for the target environment
//! they were built for, and inspected instruction by instruction.

mod compute;
mod control_flow;
mod encode;
mod graphics;
mod images;
mod more;
mod precise;
mod runtime;
mod stages;

use crate::back::spv;
use crate::ir::build::{Body, add_global};
use crate::ir::{
    self, AddressSpace, Block, Expression, Function, Handle, Literal, Scalar, Statement, Type,
    TypeInner,
};
use crate::options::TargetEnv;
use rspirv::dr::{Instruction, Module, Operand};
use spirv::Op;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Builds the types and globals of an IR module.
#[derive(Default)]
pub struct ModuleBuilder {
    pub m: ir::Module,
}

impl ModuleBuilder {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.m.ty(inner)
    }
    pub fn named(&mut self, name: &str, inner: TypeInner) -> Handle<Type> {
        self.m.types.insert(Type {
            name: Some(name.to_string()),
            inner,
        })
    }
    pub fn scalar(&mut self, s: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Scalar(s))
    }
    pub fn f32(&mut self) -> Handle<Type> {
        self.scalar(Scalar::F32)
    }
    pub fn u32(&mut self) -> Handle<Type> {
        self.scalar(Scalar::U32)
    }
    pub fn i32(&mut self) -> Handle<Type> {
        self.scalar(Scalar::I32)
    }
    pub fn bool(&mut self) -> Handle<Type> {
        self.scalar(Scalar::BOOL)
    }
    pub fn vec(&mut self, size: u8, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Vector { size, scalar })
    }
    pub fn mat(&mut self, rows: u8, columns: u8) -> Handle<Type> {
        self.ty(TypeInner::Matrix {
            rows,
            columns,
            scalar: Scalar::F32,
        })
    }
    pub fn ptr(&mut self, base: Handle<Type>, space: AddressSpace) -> Handle<Type> {
        self.ty(TypeInner::Pointer { base, space })
    }
    pub fn global(
        &mut self,
        name: &str,
        space: AddressSpace,
        ty: Handle<Type>,
    ) -> Handle<ir::GlobalVariable> {
        add_global(&mut self.m, name, space, ty)
    }
    pub fn resource(
        &mut self,
        name: &str,
        space: AddressSpace,
        ty: Handle<Type>,
        set: u32,
        binding: u32,
    ) -> Handle<ir::GlobalVariable> {
        let g = self.global(name, space, ty);
        self.m.globals[g].binding = Some(ir::ResourceBinding {
            set,
            binding,
            input_attachment: None,
        });
        g
    }
    pub fn builtin(
        &mut self,
        name: &str,
        space: AddressSpace,
        ty: Handle<Type>,
        b: spirv::BuiltIn,
    ) -> Handle<ir::GlobalVariable> {
        let g = self.global(name, space, ty);
        self.m.globals[g].io = Some(ir::Binding::BuiltIn(b));
        g
    }
    pub fn location(
        &mut self,
        name: &str,
        space: AddressSpace,
        ty: Handle<Type>,
        location: u32,
    ) -> Handle<ir::GlobalVariable> {
        let g = self.global(name, space, ty);
        self.m.globals[g].io = Some(ir::Binding::Location {
            location,
            index: None,
            interpolation: None,
            sampling: None,
            patch: false,
        });
        g
    }
    /// A `RWStructuredBuffer<T>`-like block: a struct holding a runtime
    /// array of `element` with the given stride.
    pub fn structured_buffer(
        &mut self,
        name: &str,
        element: Handle<Type>,
        stride: u32,
    ) -> Handle<Type> {
        let arr = self.ty(TypeInner::Array {
            base: element,
            size: ir::ArraySize::Runtime,
            stride: Some(stride),
        });
        self.named(
            name,
            TypeInner::Struct {
                members: vec![member(None, arr, Some(0))],
                size: 0,
            },
        )
    }
    pub fn add_function(&mut self, f: FunctionBuilder) -> Handle<Function> {
        self.m.functions.append(f.finish())
    }
    pub fn entry(
        &mut self,
        name: &str,
        stage: crate::options::Stage,
        function: Handle<Function>,
        workgroup_size: [u32; 3],
    ) {
        self.m.entry_points.push(ir::EntryPoint {
            name: name.to_string(),
            stage,
            function,
            workgroup_size,
            node: None,
            execution_modes: Vec::new(),
            patch_constant_function: None,
            streams: Vec::new(),
        });
    }
}

pub fn member(name: Option<&str>, ty: Handle<Type>, offset: Option<u32>) -> ir::StructMember {
    ir::StructMember {
        name: name.map(str::to_string),
        ty,
        offset,
        matrix_layout: None,
        precise: false,
        binding: None,
        decorations: Vec::new(),
    }
}

/// Builds one function through [`Body`] (which keeps the `Emit`s right),
/// with every type given explicitly: the module is built beside it.
pub struct FunctionBuilder {
    pub body: Body,
}

impl FunctionBuilder {
    pub fn new(name: &str) -> Self {
        FunctionBuilder {
            body: Body::new(Function {
                name: name.to_string(),
                ..Function::default()
            }),
        }
    }
    /// Adds an expression (evaluated here unless it is trivial).
    pub fn add(&mut self, e: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.body.add(e, ty)
    }
    /// Adds an expression evaluated here, in an `Emit` (a zero value too).
    pub fn emit(&mut self, e: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.body.add_in_run(e, ty)
    }
    pub fn stmt(&mut self, s: Statement) {
        self.body.push(s);
    }
    pub fn open(&mut self) {
        self.body.open();
    }
    pub fn close(&mut self) -> Block {
        self.body.close()
    }
    pub fn lit(&mut self, l: Literal, ty: Handle<Type>) -> Handle<Expression> {
        self.add(Expression::Literal(l), ty)
    }
    pub fn local(&mut self, name: &str, ty: Handle<Type>, ptr: Handle<Type>) -> Handle<Expression> {
        self.body.local(Some(name.to_string()), ty, false, ptr)
    }
    pub fn global(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        ptr: Handle<Type>,
    ) -> Handle<Expression> {
        self.add(Expression::GlobalVariable(g), ptr)
    }
    pub fn load(&mut self, pointer: Handle<Expression>, ty: Handle<Type>) -> Handle<Expression> {
        self.emit(Expression::Load { pointer }, ty)
    }
    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.stmt(Statement::Store { pointer, value });
    }
    pub fn binary(
        &mut self,
        op: ir::BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.emit(
            Expression::Binary {
                op,
                left,
                right,
                precise: false,
            },
            ty,
        )
    }
    pub fn index(
        &mut self,
        base: Handle<Expression>,
        index: u32,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.emit(Expression::AccessIndex { base, index }, ty)
    }
    pub fn access(
        &mut self,
        base: Handle<Expression>,
        index: Handle<Expression>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.emit(Expression::Access { base, index }, ty)
    }
    pub fn finish(self) -> Function {
        self.body.finish()
    }
}

pub fn options(env: TargetEnv) -> spv::Options {
    spv::Options {
        target_env: env,
        debug_names: true,
        ..spv::Options::default()
    }
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Runs `spirv-val` for `env` on `words`.
pub fn validate(words: &[u32], env: TargetEnv, extra: &[&str]) -> Result<(), String> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("hlslc-back-spv-{}-{n}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("spirv-val")
        .arg("--target-env")
        .arg(env.name())
        .args(extra)
        .arg(&path)
        .output()
        .map_err(|e| format!("could not run spirv-val: {e}"))?;
    let _ = std::fs::remove_file(&path);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "spirv-val --target-env {} failed:\n{}{}",
            env.name(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A written and validated module: its words, disassembly and parsed form.
pub struct Written {
    pub words: Vec<u32>,
    pub text: String,
    pub module: Module,
}

impl Written {
    /// All instructions with opcode `op`, in functions and global sections.
    pub fn all(&self, op: Op) -> Vec<&Instruction> {
        self.module
            .all_inst_iter()
            .filter(|i| i.class.opcode == op)
            .collect()
    }
    pub fn count(&self, op: Op) -> usize {
        self.all(op).len()
    }
    /// The instruction defining `id`.
    pub fn def(&self, id: u32) -> &Instruction {
        self.module
            .all_inst_iter()
            .find(|i| i.result_id == Some(id))
            .unwrap_or_else(|| panic!("no definition of %{id}"))
    }
    /// The value of a 32-bit integer constant.
    pub fn const_u32(&self, id: u32) -> u32 {
        let d = self.def(id);
        assert_eq!(d.class.opcode, Op::Constant, "%{id} is a constant");
        match d.operands[0] {
            Operand::LiteralBit32(v) => v,
            ref o => panic!("constant %{id} has operand {o:?}"),
        }
    }
    /// Ids decorated with `decoration` (no extra operands considered).
    pub fn decorated(&self, decoration: spirv::Decoration) -> Vec<u32> {
        self.module
            .annotations
            .iter()
            .filter(|i| {
                i.class.opcode == Op::Decorate && i.operands[1] == Operand::Decoration(decoration)
            })
            .map(|i| i.operands[0].unwrap_id_ref())
            .collect()
    }
    pub fn has_capability(&self, cap: spirv::Capability) -> bool {
        self.module
            .capabilities
            .iter()
            .any(|i| i.operands[0] == Operand::Capability(cap))
    }
    pub fn assert_text(&self, needle: &str) {
        assert!(
            self.text.contains(needle),
            "expected `{needle}` in:\n{}",
            self.text
        );
    }
}

/// Writes `m` for `env`, validates it, and parses it back.
pub fn write_valid(m: &ir::Module, env: TargetEnv) -> Written {
    write_valid_with(m, &options(env), &[])
}

pub fn write_valid_with(m: &ir::Module, opts: &spv::Options, val_args: &[&str]) -> Written {
    // The module built by hand must be valid IR, as the compiler's own
    // modules are when `--verify-ir` checks them.
    if let Err(errors) = ir::valid::validate(m) {
        panic!(
            "the test built invalid IR:\n{}",
            ir::valid::errors_to_string(&errors)
        );
    }
    let words = match spv::write(m, opts) {
        Ok(w) => w,
        Err(d) => panic!("write failed: {} {}\n{:?}", d.code, d.message, d.notes),
    };
    let text = spv::disassemble(&words);
    if let Err(e) = validate(&words, opts.target_env, val_args) {
        panic!("{e}\n{text}");
    }
    let again = spv::write(m, opts).expect("second write");
    assert_eq!(words, again, "writing twice gives the same words");
    let module = rspirv::dr::load_words(&words).expect("rspirv reads its own output");
    Written {
        words,
        text,
        module,
    }
}

pub fn lit_f32(v: f32) -> Literal {
    Literal::f32(v)
}

#[test]
fn the_validator_rejects_bad_modules() {
    // A module without OpMemoryModel and entry point is invalid.
    let words = vec![0x0723_0203, 0x0001_0000, 0, 1, 0];
    assert!(validate(&words, TargetEnv::Vulkan1_0, &[]).is_err());
}
