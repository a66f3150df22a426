//! The worklist of function bodies: a function's IR shell is made, and its
//! body queued, on its first use; bodies are lowered first come first
//! served, so that only what the entry point reaches becomes IR.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::ir;
use crate::sema::types::TyId;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::{FuncDeclId, ScopeId};
use crate::sema::{Dir, FuncInstance, Pending, Sema, Sig, TArg};

impl<'a> Sema<'a> {
    /// The IR function of a non-template function declaration, creating it
    /// (and queueing its body) on first use.
    pub fn func_ir(&mut self, id: FuncDeclId) -> Option<ir::Handle<ir::Function>> {
        if let Some(h) = self.decls.funcs[id].ir {
            return Some(h);
        }
        // Borrowed out of the declaration while the shell is made (nothing
        // there reads a signature), not copied.
        let sig = self.decls.funcs[id].sig.take()?;
        let scope = self.decls.funcs[id].scope;
        let h = self.new_ir_function(id, &sig, None);
        self.decls.funcs[id].sig = Some(sig);
        self.decls.funcs[id].ir = Some(h);
        self.work.queue(Pending {
            func: h,
            decl: id,
            env: scope,
            inst: None,
        });
        Some(h)
    }

    /// Queues a template instance's body.
    pub fn queue_instance(
        &mut self,
        id: FuncDeclId,
        args: Vec<TArg>,
        env: ScopeId,
        sig: Sig<'a>,
    ) -> ir::Handle<ir::Function> {
        if let Some(inst) = self.decls.funcs[id].instances.get(&args) {
            return inst.ir;
        }
        let h = self.new_ir_function(id, &sig, Some(&args));
        self.decls.funcs[id]
            .instances
            .insert(args.clone(), FuncInstance { env, sig, ir: h });
        self.work.queue(Pending {
            func: h,
            decl: id,
            env,
            inst: Some(args),
        });
        h
    }

    /// Makes the IR function shell for a signature: arguments (by value for
    /// `in`, Function pointers for `out`/`inout`, pointers for resources),
    /// `this` first for methods, and the result.
    pub(in crate::sema) fn new_ir_function(
        &mut self,
        id: FuncDeclId,
        sig: &Sig<'a>,
        args: Option<&[TArg]>,
    ) -> ir::Handle<ir::Function> {
        let decl = &self.decls.funcs[id];
        let (attrs, scope): (&'a [ast::Attribute], _) = (&decl.ast.attrs, decl.scope);
        self.require_spirv_features(attrs, &Env::at(scope));
        let decl = &self.decls.funcs[id];
        let mut name = self.scopes.qualified_name(decl.scope);
        if !name.is_empty() {
            name.push_str("::");
        }
        name.push_str(decl.name.as_str());
        if let Some(args) = args {
            let parts = self.targs_display(args);
            if decl.is_template {
                name.push_str(&format!("<{parts}>"));
            } else if !args.is_empty() {
                name.push_str(&format!("({parts})"));
            }
        }
        let specialized = args.is_some_and(|a| {
            a.iter()
                .any(|t| matches!(t, TArg::Res(_) | TArg::NoRes | TArg::ResIndexed { .. }))
        });
        let this_ty = decl.this_ty;
        let span = decl.ast.name.span;
        // `export`: the linker's name is the function's own (DXC's too).
        let export =
            (self.is_exported(id) && args.is_none()).then(|| decl.name.as_str().to_owned());
        let agg_this = args.is_some_and(|a| a.contains(&TArg::AggThis));
        // Room for `this` and the parameters, the usual arguments.
        let mut arguments = Vec::with_capacity(sig.params.len() + 1);
        if let (Some(t), true) = (this_ty, agg_this) {
            // One pointer per data member of the aggregate `this`.
            for (i, (slot, is_res)) in self.agg_slots(t).into_iter().enumerate() {
                if is_res {
                    continue;
                }
                let base = self.ir_ty(slot);
                let ptr = self.module.ty(ir::TypeInner::Pointer {
                    base,
                    space: ir::AddressSpace::Function,
                });
                arguments.push(ir::FunctionArgument {
                    name: Some(format!("this.{i}")),
                    ty: ptr,
                    precise: false,
                    spirv_decorations: Vec::new(),
                });
            }
        } else if let Some(t) = this_ty {
            let base = self.ir_ty(t);
            let ptr = self.module.ty(ir::TypeInner::Pointer {
                base,
                space: ir::AddressSpace::Function,
            });
            arguments.push(ir::FunctionArgument {
                name: Some("this".into()),
                ty: ptr,
                precise: false,
                spirv_decorations: Vec::new(),
            });
        }
        for p in &sig.params {
            // Resource parameters of a specialized function are not
            // arguments: the body names the resources directly.
            if specialized && self.types.is_resource(p.ty) {
                continue;
            }
            // A struct holding resources: one pointer per data member (the
            // caller's copies), its resources named by the instance.
            if specialized && self.types.is_agg(p.ty) {
                let pname = p.name.map(|n| n.as_str().to_owned()).unwrap_or_default();
                for (i, (slot, is_res)) in self.agg_slots(p.ty).into_iter().enumerate() {
                    if is_res {
                        continue;
                    }
                    let base = self.ir_ty(slot);
                    let ptr = self.module.ty(ir::TypeInner::Pointer {
                        base,
                        space: ir::AddressSpace::Function,
                    });
                    arguments.push(ir::FunctionArgument {
                        name: Some(format!("{pname}.{i}")),
                        ty: ptr,
                        precise: false,
                        spirv_decorations: Vec::new(),
                    });
                }
                continue;
            }
            let ty = self.param_ir_type(p.ty, p.dir);
            arguments.push(ir::FunctionArgument {
                name: p.name.map(|n| n.as_str().to_owned()),
                ty,
                precise: p.precise,
                spirv_decorations: self.spirv_decorations(p.attrs, &Env::at(scope)),
            });
        }
        // A struct holding resources is returned through one pointer per
        // data member (its resources are known at compile time).
        let agg_ret = self.types.is_agg(sig.ret);
        if agg_ret {
            for (i, (slot, is_res)) in self.agg_slots(sig.ret).into_iter().enumerate() {
                if is_res {
                    continue;
                }
                let base = self.ir_ty(slot);
                let ty = self.module.ty(ir::TypeInner::Pointer {
                    base,
                    space: ir::AddressSpace::Function,
                });
                arguments.push(ir::FunctionArgument {
                    name: Some(format!("result.{i}")),
                    ty,
                    precise: false,
                    spirv_decorations: Vec::new(),
                });
            }
        }
        // The indices of resources chosen at run time, last.
        for a in args.unwrap_or_default() {
            if let TArg::ResIndexed { count, .. } = a {
                let u = self.ir_ty(crate::sema::types::UINT);
                for k in 0..*count {
                    arguments.push(ir::FunctionArgument {
                        name: Some(format!("index.{k}")),
                        ty: u,
                        precise: false,
                        spirv_decorations: Vec::new(),
                    });
                }
            }
        }
        let result =
            if sig.ret == crate::sema::types::VOID || self.types.is_resource(sig.ret) || agg_ret {
                None
            } else {
                Some(ir::FunctionResult {
                    ty: self.ir_ty(sig.ret),
                    precise: sig.ret_precise,
                })
            };
        let h = self.module.functions.append(ir::Function {
            name: name.clone(),
            arguments,
            result,
            span,
            export,
            ..Default::default()
        });
        self.work.set_name(h, name, span);
        self.module.functions[h].spirv_decorations = self.spirv_decorations(attrs, &Env::at(scope));
        h
    }

    /// Whether a function is declared `export` (on its prototype or its
    /// definition).
    pub(in crate::sema) fn is_exported(&self, id: FuncDeclId) -> bool {
        let d = &self.decls.funcs[id];
        let export = crate::front::ast::Modifier::Export;
        d.ast.modifiers.has(export) || d.def.is_some_and(|f| f.modifiers.has(export))
    }

    /// The IR type of a parameter: a value for `in`, a Function pointer for
    /// `out`/`inout`, and for resources the pointer to the resource.
    pub fn param_ir_type(&mut self, ty: TyId, dir: Dir) -> ir::Handle<ir::Type> {
        if self.types.is_resource(ty) {
            return self.resource_pointer_type(ty);
        }
        let base = self.ir_ty(ty);
        // A ray query is an object: passed by reference, whatever the
        // direction (DXC inlines the callee on it).
        let by_reference = matches!(self.types.get(ty), super::super::types::Ty::RayQuery(_));
        match dir {
            Dir::In if !by_reference => base,
            Dir::In => self.module.ty(ir::TypeInner::Pointer {
                base,
                space: ir::AddressSpace::Function,
            }),
            Dir::Out | Dir::InOut => self.module.ty(ir::TypeInner::Pointer {
                base,
                space: ir::AddressSpace::Function,
            }),
        }
    }

    pub(in crate::sema) fn drain_worklist(&mut self) {
        while let Some(p) = self.work.next() {
            self.lower_function_body(p.func, p.decl, p.env, p.inst, false);
        }
    }

    /// Lowers a queued function now (a function returning a resource: its
    /// callers need to know which).
    pub fn lower_now(&mut self, func: ir::Handle<ir::Function>) {
        if let Some(p) = self.work.take(func) {
            self.lower_function_body(p.func, p.decl, p.env, p.inst, false);
        }
    }

    /// Lowers the functions the entry point does not reach, for their
    /// language errors only (as DXC's front end checks every function), and
    /// throws the code away. Problems that depend on the stage, the target
    /// or code generation ("not supported yet", stage-only statements and
    /// intrinsics, recursion, undefined callees) are not reported for them:
    /// they are no problem in code that is never emitted.
    pub(in crate::sema) fn check_unused_functions(&mut self) {
        let unused = self.unused_functions();
        if unused.is_empty() {
            return;
        }
        // What lowering adds to the module is cut off after, and the little
        // it may change in place is restored from a copy.
        let mark = ModuleMark::of(&self.module);
        let kept = self.module.functions.len();
        let from = self.diagnostic_mark();
        // Functions checked later may call these: their signatures stay
        // until the end, their bodies go as soon as they are lowered, with
        // no copy made to shrink them first (on a large file, keeping every
        // unused body until the end was the peak of the compiler's memory).
        // With `verify`, the functions found clean whose lowering reported
        // a language diagnostic all the same.
        let mut misjudged = Vec::new();
        for id in unused {
            // Lowering one that certainly reports nothing is skipped (not
            // while indexing, which records what lowering resolves). One
            // lowered already, for a caller checked before it, is left as
            // it is (`func_ir` queues nothing then).
            let clean = self.index.is_none()
                && self.decls.funcs[id].ir.is_none()
                && self.body_is_clean(id);
            if clean && !self.opts.verify {
                continue;
            }
            let start = self.module.functions.len();
            let before = self.diagnostic_mark();
            self.func_ir(id);
            while let Some(p) = self.work.next() {
                self.lower_function_body(p.func, p.decl, p.env, p.inst, true);
            }
            if clean
                && self.diagnostics_since(before).iter().any(|d| language_diagnostic(d.code))
            {
                misjudged.push(self.decls.funcs[id].ast.name.span);
            }
            // A function lowered early for its caller (`lower_now`) and the
            // helpers that lowering made itself (a stream's `Append`) were
            // built whole.
            for (_, f) in self.module.functions.iter_mut().skip(start) {
                *f = super::free_body(std::mem::take(f));
            }
        }
        self.module.functions.truncate(kept);
        mark.restore(&mut self.module);
        self.types.forget_ir_types_from(self.module.types.len());
        self.drop_diagnostics_since(from, |d| !language_diagnostic(d.code));
        for span in misjudged {
            self.push(
                Diagnostic::error(
                    codes::INTERNAL,
                    "internal error: this function was found free of problems without \
                     lowering it (--verify-ir), but lowering it reports one",
                )
                .label(span, "checked without lowering"),
            );
        }
    }

    /// The functions with a body that nothing lowered (templates aside).
    pub(in crate::sema) fn unused_functions(&self) -> Vec<FuncDeclId> {
        self.decls
            .funcs
            .iter()
            .filter(|(_, f)| f.def.is_some() && !f.is_template && f.ir.is_none() && f.sig.is_some())
            .map(|(id, _)| id)
            .collect()
    }
}

/// The module as it was before functions were lowered only to be checked:
/// the length of what lowering only appends to, and a copy of what it may
/// change in place (a global's counter, the entry point). Lowering the
/// functions a large file does not use is then not preceded by a copy of
/// the whole module.
struct ModuleMark {
    types: usize,
    const_expressions: usize,
    globals: ir::Arena<ir::GlobalVariable>,
    entry_points: Vec<ir::EntryPoint>,
    required_capabilities: usize,
    required_extensions: usize,
    vendor: ir::Vendor,
    spec_constants: usize,
    io_decorations: usize,
    record_decorations: usize,
    spirv_decorations: usize,
    spirv_execution_modes: usize,
}

impl ModuleMark {
    fn of(m: &ir::Module) -> Self {
        // Every field named: a new one must be considered here.
        let ir::Module {
            types,
            const_expressions,
            const_types: _,
            globals,
            functions: _,
            entry_points,
            required_capabilities,
            required_extensions,
            vendor,
            spec_constants,
            io_decorations,
            record_decorations,
            decl_spans: _,
            spirv_decorations,
            spirv_execution_modes,
        } = m;
        ModuleMark {
            types: types.len(),
            const_expressions: const_expressions.len(),
            globals: globals.clone(),
            entry_points: entry_points.clone(),
            required_capabilities: required_capabilities.len(),
            required_extensions: required_extensions.len(),
            vendor: *vendor,
            spec_constants: spec_constants.len(),
            io_decorations: io_decorations.len(),
            record_decorations: record_decorations.len(),
            spirv_decorations: spirv_decorations.len(),
            spirv_execution_modes: spirv_execution_modes.len(),
        }
    }

    /// Puts the module back as it was (but for its functions).
    fn restore(self, m: &mut ir::Module) {
        m.types.truncate(self.types);
        m.const_expressions.truncate(self.const_expressions);
        m.const_types.truncate(self.const_expressions);
        m.globals = self.globals;
        m.entry_points = self.entry_points;
        m.required_capabilities.truncate(self.required_capabilities);
        m.required_extensions.truncate(self.required_extensions);
        m.vendor = self.vendor;
        m.spec_constants.truncate(self.spec_constants);
        m.io_decorations.truncate(self.io_decorations);
        m.record_decorations.truncate(self.record_decorations);
        m.spirv_decorations.truncate(self.spirv_decorations);
        m.spirv_execution_modes.truncate(self.spirv_execution_modes);
        let (types, globals) = (self.types, m.globals.len());
        let spans = &mut m.decl_spans;
        spans.globals.retain(|g, _| g.index() < globals);
        spans.types.retain(|t, _| t.index() < types);
        spans.members.retain(|(t, _), _| t.index() < types);
    }
}

/// Whether a diagnostic is about the language (and so reported in
/// functions that are not emitted) rather than the stage, the target or
/// code generation.
pub(super) fn language_diagnostic(code: codes::Code) -> bool {
    use codes::*;
    [
        UNKNOWN_NAME,
        UNKNOWN_TYPE,
        REDEFINITION,
        TYPE_MISMATCH,
        NO_MEMBER,
        BAD_SWIZZLE,
        BAD_OPERANDS,
        NOT_INDEXABLE,
        NO_MATCHING_OVERLOAD,
        AMBIGUOUS_CALL,
        WRONG_ARG_COUNT,
        BAD_TEMPLATE_ARGS,
        NOT_A_VALUE,
        NOT_ASSIGNABLE,
        BAD_INITIALIZER,
        BAD_CAST,
        UNSIZED_ARRAY,
        NOT_CALLABLE,
        IMPLICIT_TRUNCATION,
        CONFLICTING_STORAGE,
        MODIFIER_NOT_ALLOWED,
        DUPLICATE_MODIFIER,
        CONST_UNINITIALIZED,
        ASSIGN_READ_ONLY,
        CONFLICTING_INTERPOLATION,
        ATOMIC_NOT_SHARED,
        MISSING_RETURN,
        BREAK_OUTSIDE,
        CONTINUE_OUTSIDE,
        BAD_RETURN,
        BAD_CASE,
        OUT_ARG_NOT_LVALUE,
        NO_METHOD,
        INTEGER_DIVISION_BY_ZERO,
        NOT_CONSTANT,
        BAD_ARRAY_SIZE,
    ]
    .contains(&code)
}
