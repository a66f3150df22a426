//! Geometry shaders (SPIR-V.rst, "Geometry Shaders"): `[maxvertexcount]`
//! and `[instance]`, the input primitive (`point`, `line`, `triangle`,
//! `lineadj`, `triangleadj` vertex arrays) and the output streams as
//! execution modes, and the streams' output variables. Each stream gets an
//! IR function `append.N(vertex)` that stores the vertex to the stream's
//! output variables and emits it; `Append` on a stream calls it.

use super::VkLoc;
use super::io::Io;
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::place::Val;
use crate::sema::body::{FnBuilder, FnCtx};
use crate::sema::types::scope::{FuncDeclId, GLOBAL_SCOPE};
use crate::sema::types::{self, StreamKind, Ty, TyId};
use crate::sema::{Dir, ParamSig, Sema, StreamOut};
use crate::span::Span;
use spirv::ExecutionMode as EM;

/// A geometry shader input primitive: its modifier, the vertices it has
/// and its execution mode.
pub(super) fn input_primitive(m: &ast::Modifiers) -> Option<(&'static str, u32, EM, Span)> {
    m.list.iter().find_map(|&(m, span)| {
        Some(match m {
            ast::Modifier::Point => ("point", 1, EM::InputPoints, span),
            ast::Modifier::Line => ("line", 2, EM::InputLines, span),
            ast::Modifier::Triangle => ("triangle", 3, EM::Triangles, span),
            ast::Modifier::LineAdj => ("lineadj", 4, EM::InputLinesAdjacency, span),
            ast::Modifier::TriangleAdj => ("triangleadj", 6, EM::InputTrianglesAdjacency, span),
            _ => return None,
        })
    })
}

impl<'a> Sema<'a> {
    /// The geometry shader's execution modes: `Invocations`, the input
    /// primitive, the output primitive, `OutputVertices`.
    pub(super) fn geometry_modes(
        &mut self,
        id: FuncDeclId,
        params: &[ParamSig<'a>],
    ) -> Vec<(EM, Vec<u32>)> {
        let env = crate::sema::types::resolve::Env::at(self.decls.funcs[id].scope);
        let mut modes = Vec::new();
        let mut invocations = 1;
        if let Some(a) = self.entry_attr(id, Attr::Instance) {
            match a.args.as_slice() {
                [e] => {
                    if let Some(n) = self.const_int(e, &env) {
                        if n < 1 {
                            self.push(
                                Diagnostic::error(
                                    codes::BAD_ATTRIBUTE,
                                    format!("a geometry shader runs at least 1 instance, not {n}"),
                                )
                                .label(e.span, "out of range"),
                            );
                        } else {
                            if n > 32 {
                                // DXC accepts it; Vulkan devices promise 32
                                // (maxGeometryShaderInvocations).
                                self.push(
                                    Diagnostic::warning(
                                        codes::IGNORED_SYNTAX,
                                        format!("{n} geometry shader instances are more than the 32 of D3D and of every Vulkan device"),
                                    )
                                    .label(e.span, "more than 32"),
                                );
                            }
                            invocations = n.min(u32::MAX as i64) as u32;
                        }
                    }
                }
                _ => {
                    self.error(
                        codes::BAD_ATTRIBUTE,
                        "`instance` takes one integer argument",
                        a.span,
                        "expected `instance(N)`",
                    );
                }
            }
        }
        modes.push((EM::Invocations, vec![invocations]));
        // The input primitive: one kind for every vertex array.
        let fspan = self.decls.funcs[id].ast.name.span;
        let mut input: Option<(&str, EM, Span)> = None;
        for p in params {
            let Some((name, n, mode, mspan)) = input_primitive(&p.modifiers) else {
                continue;
            };
            match input {
                Some((first, _, fs)) if first != name => {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_SEMANTIC,
                            format!("a geometry shader takes one input primitive, but this is `{name}` and another parameter is `{first}`"),
                        )
                        .label(mspan, "second primitive type")
                        .label(fs, "first primitive type"),
                    );
                }
                Some(_) => {}
                None => {
                    input = Some((name, mode, mspan));
                    modes.push((mode, Vec::new()));
                }
            }
            match *self.types.get(p.ty) {
                Ty::Array(_, Some(k)) if k == n => {}
                ref t => {
                    let elem = match *t {
                        Ty::Array(e, _) => self.ty_name(e),
                        _ => self.ty_name(p.ty),
                    };
                    let pname = p.name.map(|s| s.to_string()).unwrap_or_else(|| "v".into());
                    self.push(
                        Diagnostic::error(
                            codes::SEMANTIC_TYPE,
                            format!(
                                "a `{name}` input of a geometry shader is an array of {n} {}, not `{}`",
                                if n == 1 { "vertex" } else { "vertices" },
                                self.ty_name(p.ty)
                            ),
                        )
                        .label(p.span, format!("declare it as `{name} {elem} {pname}[{n}]`")),
                    );
                }
            }
        }
        if input.is_none() {
            self.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "geometry shader entry point `{}` has no input primitive",
                        self.decls.funcs[id].name
                    ),
                )
                .label(fspan, "declared here")
                .note("mark the vertex array parameter `point`, `line`, `triangle`, `lineadj` or `triangleadj`, e.g. `triangle VSOut input[3]`"),
            );
        }
        // The output primitive, from the streams.
        let mut out: Option<(StreamKind, Span)> = None;
        for p in params {
            let Ty::Stream(kind, _) = *self.types.get(p.ty) else {
                continue;
            };
            if p.dir != Dir::InOut {
                self.error(
                    codes::BAD_SEMANTIC,
                    "a geometry shader's output stream must be an `inout` parameter",
                    p.span,
                    "add `inout`",
                );
            }
            match out {
                Some((k, s)) if k != kind => {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_SEMANTIC,
                            format!(
                                "the output streams of a geometry shader make one kind of primitive, but this is a `{}` and another a `{}`",
                                kind.name(),
                                k.name()
                            ),
                        )
                        .label(p.span, "second stream")
                        .label(s, "first stream"),
                    );
                }
                Some(_) => {}
                None => {
                    out = Some((kind, p.span));
                    modes.push((
                        match kind {
                            StreamKind::Point => EM::OutputPoints,
                            StreamKind::Line => EM::OutputLineStrip,
                            StreamKind::Triangle => EM::OutputTriangleStrip,
                        },
                        Vec::new(),
                    ));
                }
            }
        }
        if out.is_none() {
            self.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "geometry shader entry point `{}` has no output stream",
                        self.decls.funcs[id].name
                    ),
                )
                .label(fspan, "declared here")
                .note("add a parameter such as `inout TriangleStream<PSIn> stream`"),
            );
        }
        match self.entry_attr(id, Attr::MaxVertexCount) {
            None => self.missing_entry_attr(id, Attr::MaxVertexCount, "[maxvertexcount(3)]"),
            Some(a) => match a.args.as_slice() {
                [e] => {
                    if let Some(n) = self.const_int(e, &env) {
                        if (1..=1024).contains(&n) {
                            modes.push((EM::OutputVertices, vec![n as u32]));
                        } else {
                            self.push(
                                Diagnostic::error(
                                    codes::BAD_ATTRIBUTE,
                                    format!("a geometry shader emits 1 to 1024 vertices, not {n}"),
                                )
                                .label(e.span, "out of range"),
                            );
                        }
                    }
                }
                _ => {
                    self.error(
                        codes::BAD_ATTRIBUTE,
                        "`maxvertexcount` takes one integer argument",
                        a.span,
                        "expected `maxvertexcount(N)`",
                    );
                }
            },
        }
        modes
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Makes the output variables and the `append.N` function of every
    /// stream parameter, in parameter order (stream N is the N-th).
    pub(super) fn setup_streams(&mut self, io: &mut Io, params: &[ParamSig<'a>], entry: &str) {
        let streams: Vec<(usize, TyId, Span, String)> = params
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match *self.s.types.get(p.ty) {
                Ty::Stream(_, e) => Some((
                    i,
                    e,
                    p.span,
                    p.name.map(|n| n.to_string()).unwrap_or_default(),
                )),
                _ => None,
            })
            .collect();
        let several = streams.len() > 1;
        for (number, (param, elem, span, pname)) in streams.into_iter().enumerate() {
            let number = number as u32;
            let stream = several.then_some(number);
            let it = self.s.ir_ty(elem);
            let h = self.s.module.functions.append(ir::Function {
                name: format!("{entry}.append.{number}"),
                arguments: vec![ir::FunctionArgument {
                    name: Some("vertex".into()),
                    ty: it,
                    precise: false,
                    spirv_decorations: Vec::new(),
                }],
                span,
                ..Default::default()
            });
            self.s.work.set_name(h, format!("{pname}.Append"), span);
            let shell = std::mem::take(&mut self.s.module.functions[h]);
            let fb = FnBuilder::new(shell, h, types::VOID, GLOBAL_SCOPE);
            let before = self.s.module.globals.len();
            let mut acx = FnCtx::new(&mut *self.s, fb);
            let arg = acx.add(ir::Expression::FunctionArgument(0), it);
            acx.stage_output(
                io,
                arg,
                elem,
                None,
                (None, None),
                false,
                VkLoc::default(),
                &pname,
                span,
            );
            acx.stmt(ir::Statement::EmitVertex { stream });
            acx.stmt(ir::Statement::Return { value: None });
            let f = acx.finish();
            self.s.module.functions[h] = f;
            let outputs = self
                .s
                .module
                .globals
                .iter()
                .filter(|(g, v)| g.index() >= before && v.space == ir::AddressSpace::Output)
                .map(|(g, _)| g)
                .collect();
            self.s.entry.streams.push(StreamOut {
                elem,
                number,
                stream,
                append: h,
                param: Some(param),
                outputs,
            });
        }
    }

    /// `stream.Append(v)` and `stream.RestartStrip()`.
    pub(in crate::sema) fn stream_method(
        &mut self,
        obj: Val,
        elem: TyId,
        method: ast::Ident,
        args: Vec<crate::sema::calls::Arg>,
        span: Span,
    ) -> Val {
        let name = method.name.as_str();
        let append = match name {
            "Append" => true,
            "RestartStrip" => false,
            _ => {
                return self.error(
                    codes::NO_METHOD,
                    format!("`{}` has no method `{name}`", self.s.ty_name(obj.ty)),
                    method.span,
                    "streams have `Append` and `RestartStrip`",
                );
            }
        };
        let want = usize::from(append);
        if args.len() != want {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!(
                    "`{name}` takes {want} argument{}, {} given",
                    if want == 1 { "" } else { "s" },
                    args.len()
                ),
                span,
                if append {
                    "expected `Append(vertex)`"
                } else {
                    "expected `RestartStrip()`"
                },
            );
        }
        let vertex = if let Some(a) = args.into_iter().next() {
            if a.val.is_error() {
                return Val::error();
            }
            let structs = self.s.types.as_struct(elem).is_some()
                || self.s.types.as_struct(a.val.ty).is_some();
            if structs && a.val.ty != elem {
                return self.error(
                    codes::TYPE_MISMATCH,
                    format!(
                        "`Append` on a `{}` takes a `{}`, not a `{}`",
                        self.s.ty_name(obj.ty),
                        self.s.ty_name(elem),
                        self.s.ty_name(a.val.ty)
                    ),
                    a.span,
                    "the stream's vertex type is different",
                );
            }
            let v = self.convert(a.val, elem, a.span);
            match self.value(&v) {
                Some(h) => Some(h),
                None => return Val::error(),
            }
        } else {
            None
        };
        if self.s.stage != Stage::Geometry {
            return self.error(
                codes::STAGE_STATEMENT,
                format!(
                    "`{name}` writes a geometry shader's output stream; this is {} shader",
                    self.s.stage.with_article()
                ),
                method.span,
                "geometry shaders only",
            );
        }
        let streams: Vec<StreamOut> = self
            .s
            .entry
            .streams
            .iter()
            .filter(|s| s.elem == elem)
            .cloned()
            .collect();
        let Some(sv) = self.value(&obj) else {
            return Val::error();
        };
        let emit = |cx: &mut Self, s: &StreamOut| match vertex {
            Some(v) => {
                cx.s.work.record_call(cx.fb.handle, s.append, span);
                cx.stmt(ir::Statement::Call {
                    function: s.append,
                    arguments: vec![v],
                    result: None,
                });
            }
            None => cx.stmt(ir::Statement::EndPrimitive { stream: s.stream }),
        };
        match streams.as_slice() {
            [] => {}
            [s] => emit(self, s),
            // Several streams of this vertex type: the stream object's
            // value (its number) picks one.
            several => {
                let bool_ty = self.s.ir_ty(types::BOOL);
                for s in several {
                    let k = self.u32_lit(s.number);
                    let c = self.add(
                        ir::Expression::Binary {
                            op: ir::BinaryOperator::Equal,
                            left: sv,
                            right: k,
                            precise: false,
                        },
                        bool_ty,
                    );
                    self.push_block();
                    emit(self, s);
                    let accept = self.pop_block();
                    self.stmt(ir::Statement::If {
                        condition: c,
                        accept,
                        reject: Vec::new(),
                        control: ir::SelectionControl::None,
                    });
                }
            }
        }
        Val::void()
    }
}
