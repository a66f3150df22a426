//! Function bodies in the text form.

use super::{Names, literal_to_string, unique_names};
use crate::ir::*;
use std::fmt::Write;

/// Prints one function body; holds the per-function names.
struct FunctionWriter<'a> {
    module: &'a Module,
    names: &'a Names,
    function: &'a Function,
    locals: Vec<String>,
    arguments: Vec<String>,
    out: &'a mut String,
}

pub(super) fn write_function(
    out: &mut String,
    module: &Module,
    names: &Names,
    h: Handle<Function>,
) {
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
            E::ImageSample(sampling) => {
                let ImageSampling {
                    image,
                    sampler,
                    coordinate,
                    offset,
                    level,
                    depth_ref,
                    clamp,
                    gather,
                    sparse,
                } = &**sampling;
                let mut s = match sampler {
                    Some(smp) => format!("sample {}, {}, {}", o(*image), o(*smp), o(*coordinate)),
                    None => format!("sample {}, {}", o(*image), o(*coordinate)),
                };
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
                    "image_query lod{} {}, {}{}",
                    if *clamped { "" } else { "_unclamped" },
                    o(*image),
                    sampler.map_or(String::new(), |smp| format!("{}, ", o(smp))),
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
            E::NonUniform { value } => format!("nonuniform {}", o(*value)),
            E::AddressCast { value } => format!("address_cast {}", o(*value)),
            E::ArrayLength { pointer, member } => {
                format!("array_length {} member({member})", o(*pointer))
            }
            E::CallResult(_) => "call_result".into(),
            E::AtomicResult => "atomic_result".into(),
            E::SubgroupResult => "subgroup_result".into(),
            E::RayResult => "ray_result".into(),
            E::NodeResult => "node_result".into(),
            E::SpirvResult => "spirv_result".into(),
            E::Phi => "phi".into(),
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
            Statement::SetMeshOutputs {
                vertices,
                primitives,
            } => format!("set_mesh_outputs {}, {}", o(*vertices), o(*primitives)),
            Statement::EmitMeshTasks { x, y, z, payload } => {
                let mut t = format!("emit_mesh_tasks {}, {}, {}", o(*x), o(*y), o(*z));
                if let Some(p) = payload {
                    t.push_str(&format!(", {}", o(*p)));
                }
                t
            }
            Statement::EndHit { accept: false } => "ignore_hit".into(),
            Statement::EndHit { accept: true } => "accept_hit_and_end_search".into(),
            Statement::Ray {
                op,
                args,
                result: r,
            } => {
                let mut t = format!("{}ray {}", result(*r), ray_operation_name(op));
                if !args.is_empty() {
                    let _ = write!(t, " {}", self.operands(args));
                }
                t
            }
            Statement::ScopedBarrier {
                execution,
                memory,
                semantics,
            } => match execution {
                Some(e) => format!("control_barrier {e:?}, {memory:?}, {:#x}", semantics.bits()),
                None => format!("memory_barrier {memory:?}, {:#x}", semantics.bits()),
            },
            Statement::Node {
                op,
                args,
                result: r,
            } => {
                let name = match op {
                    crate::ir::NodeOperation::Allocate { group: true } => {
                        "allocate_group".to_string()
                    }
                    crate::ir::NodeOperation::Allocate { group: false } => {
                        "allocate_thread".to_string()
                    }
                    crate::ir::NodeOperation::Enqueue => "enqueue".to_string(),
                    crate::ir::NodeOperation::IsValid { payload } => {
                        format!("is_valid %type{}", payload.index())
                    }
                    crate::ir::NodeOperation::FinishWriting => "finish_writing".to_string(),
                    crate::ir::NodeOperation::Count => "count".to_string(),
                };
                let mut t = format!("{}node {name}", result(*r));
                if !args.is_empty() {
                    let _ = write!(t, " {}", self.operands(args));
                }
                t
            }
            Statement::Merge {
                result: r,
                accept,
                reject,
            } => {
                let side = |v: &Option<Handle<Expression>>| v.map_or("-".to_string(), o);
                format!("{}merge {}, {}", result(Some(*r)), side(accept), side(reject))
            }
            Statement::Carry {
                result: r,
                init,
                latch,
            } => format!("{}carry {}, {}", result(Some(*r)), o(*init), o(*latch)),
            Statement::Spirv {
                inst,
                args,
                result: r,
            } => {
                let mut t = format!("{}spirv", result(*r));
                if let Some(set) = &inst.set {
                    let _ = write!(t, " {set:?}");
                }
                let _ = write!(t, " {}", inst.opcode);
                for op in &inst.operands {
                    match *op {
                        crate::ir::SpirvOperand::Arg(i) => match args.get(i as usize) {
                            Some(&a) => {
                                let _ = write!(t, " {}", o(a));
                            }
                            None => t.push_str(" ?"),
                        },
                        crate::ir::SpirvOperand::Literal(v) => {
                            let _ = write!(t, " #{v}");
                        }
                        crate::ir::SpirvOperand::Type(h) => {
                            let _ = write!(t, " type {}", self.ty(h));
                        }
                    }
                }
                t
            }
            Statement::Debug(d) => debug_info(d, o),
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
            Statement::DebugPrintf { format, args } => {
                let mut t = format!("printf {format:?}");
                if !args.is_empty() {
                    let _ = write!(t, " {}", self.operands(args));
                }
                t
            }
            Statement::DebugBreak => "debug_break".into(),
            Statement::EmitVertex { stream: None } => "emit_vertex".into(),
            Statement::EmitVertex { stream: Some(n) } => format!("emit_vertex stream {n}"),
            Statement::EndPrimitive { stream: None } => "end_primitive".into(),
            Statement::EndPrimitive { stream: Some(n) } => format!("end_primitive stream {n}"),
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

/// The text of a debug statement; spans as raw locations (the IR dump has
/// no source map).
fn debug_info(d: &DebugInfo, o: impl Fn(Handle<Expression>) -> String) -> String {
    let span = |s: &crate::span::Span| format!("@{}..{}", s.lo.0, s.hi.0);
    match d {
        DebugInfo::Line(s) => format!("debug line {}", span(s)),
        DebugInfo::Begin(DebugScope::Lexical(s)) => format!("debug begin block {}", span(s)),
        DebugInfo::Begin(DebugScope::Inlined { function, call, .. }) => {
            format!("debug begin inlined {function} at {}", span(call))
        }
        DebugInfo::End => "debug end".into(),
        DebugInfo::Variable {
            value, name, arg, ..
        } => match arg {
            Some(n) => format!("debug param {n} {name} = {}", o(*value)),
            None => format!("debug var {name} = {}", o(*value)),
        },
    }
}

/// The text of a ray tracing or ray query operation.
fn ray_operation_name(op: &crate::ir::RayOperation) -> String {
    use crate::ir::RayOperation as R;
    match op {
        R::TraceRay => "trace_ray".into(),
        R::ReportHit => "report_hit".into(),
        R::ExecuteCallable => "execute_callable".into(),
        R::QueryInitialize => "query_initialize".into(),
        R::QueryProceed => "query_proceed".into(),
        R::QueryTerminate => "query_terminate".into(),
        R::QueryConfirmIntersection => "query_confirm_intersection".into(),
        R::QueryGenerateIntersection => "query_generate_intersection".into(),
        R::QueryGet { what, committed } => format!(
            "query_get {}{}",
            format!("{what:?}").to_lowercase(),
            if *committed { " committed" } else { "" }
        ),
    }
}
