//! Resource globals: textures, samplers, buffers and their blocks, push
//! constant blocks, counters, image formats and the binding attributes
//! (`[[vk::binding]]`, `register`).

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir;
use crate::sema::decl::{find_attr, parse_register_slot, parse_space};
use crate::sema::types::layout::{BufferKind, Rule, struct_members};
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::GlobalId;
use crate::sema::types::scope::ScopeId;
use crate::sema::types::{ResKind, Ty, TyId};
use crate::sema::{GlobalInfo, GlobalKind, ReadOnly, ResourceDecl, ResourceId, Sema};
use crate::span::Span;

impl<'a> Sema<'a> {
    /// A block whose members are those of struct `elem` (its base first),
    /// laid out under `rule`, named `name`.
    pub fn struct_block(&mut self, elem: TyId, name: String, rule: Rule) -> ir::Handle<ir::Type> {
        let members = match self.types.as_struct(elem) {
            Some(sid) => struct_members(&self.types, self.types.struct_info(sid)),
            None => Vec::new(),
        };
        self.layouts
            .structure(
                &mut self.types,
                &mut self.module,
                Some(name),
                &members,
                rule,
            )
            .ty
    }

    /// Textures, samplers, buffers, `ConstantBuffer<T>` and arrays of them.
    pub(in crate::sema) fn declare_resource_global(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        row_major: bool,
        scope: ScopeId,
        info: GlobalInfo,
    ) {
        let mut res = ty;
        while let Ty::Array(e, _) = *self.types.get(res) {
            res = e;
        }
        if let Ty::Resource(_, Some(elem)) = *self.types.get(res) {
            self.check_int_matrices(elem, row_major, d.name.span);
        }
        self.resource_global(vd, d, ty, scope, info, false);
    }

    /// A resource global named `info.name`. With `member`, it is a resource
    /// member of a flattened global struct (declared by `vd`/`d`): it takes
    /// none of the declaration's attributes, register or initializer, and
    /// is reached through the struct's name, not a name of its own.
    pub(in crate::sema) fn resource_global(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        scope: ScopeId,
        mut info: GlobalInfo,
        member: bool,
    ) -> GlobalId {
        let env = Env::at(scope);
        let attrs: &'a [ast::Attribute] = if member { &[] } else { &vd.attrs };
        let name = info.name;
        // Peel arrays: a resource array is one binding.
        let mut dims = Vec::new();
        let mut elem = ty;
        while let Ty::Array(e, n) = *self.types.get(elem) {
            dims.push(n);
            elem = e;
        }
        if d.init.is_some() && !member {
            self.unsupported("initializers on resource variables", d.span);
        }
        if find_attr(attrs, Attr::VkPushConstant).is_some() && dims.is_empty() {
            let id = self.decls.globals.next_id();
            self.declare_push_constant(vd, d, ty, scope, info);
            return id;
        }
        if super::shader_record::shader_record_attr(attrs).is_some() && dims.is_empty() {
            let id = self.decls.globals.next_id();
            self.declare_shader_record(vd, d, ty, scope, info);
            return id;
        }
        let (mem, space, hlsl_ty, read_only) = match self.types.get(elem).clone() {
            Ty::Resource(ResKind::ConstantBuffer, Some(t))
            | Ty::Resource(ResKind::TextureBuffer, Some(t)) => {
                let is_cb = matches!(
                    self.types.get(elem),
                    Ty::Resource(ResKind::ConstantBuffer, _)
                );
                if self.types.as_struct(t).is_none() {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!(
                            "the element type of `{}` must be a struct",
                            self.ty_name(elem)
                        ),
                        vd.ty.span,
                        "not a struct",
                    );
                    return self.finish_resource_global(info, scope, d, member);
                }
                let (rule, prefix, space) = if is_cb {
                    (
                        Rule::for_buffer(self.opts.layout, BufferKind::Uniform),
                        "ConstantBuffer",
                        ir::AddressSpace::Uniform,
                    )
                } else {
                    (
                        Rule::for_buffer(self.opts.layout, BufferKind::Storage),
                        "TextureBuffer",
                        ir::AddressSpace::Storage { writable: false },
                    )
                };
                let name = format!("type.{prefix}.{}", self.ty_name(t));
                let block = self.struct_block(t, name, rule);
                // An array of them is an array of blocks: in HLSL terms an
                // array of the struct, each element one block.
                let mut hlsl_ty = t;
                for n in dims.iter().rev() {
                    hlsl_ty = self.types.array(hlsl_ty, *n);
                }
                (block, space, hlsl_ty, Some(ReadOnly::CBuffer(d.name.span)))
            }
            Ty::Resource(kind, _) if kind.is_structured() || kind.is_byte_address() => {
                let block = self.buffer_block(elem);
                let ro = (!kind.is_rw()).then_some(ReadOnly::Resource(d.name.span));
                (
                    block,
                    ir::AddressSpace::Storage {
                        writable: kind.is_rw(),
                    },
                    ty,
                    ro,
                )
            }
            Ty::Resource(kind, e) => {
                let mut t = self.ir_ty(elem);
                if let Some(fmt) = find_attr(attrs, Attr::VkImageFormat)
                    && let Some(f) = self.image_format_attr(fmt)
                    && let Some(ir::TypeInner::Image {
                        dim,
                        arrayed,
                        multisampled,
                        sampled,
                        class: ir::ImageClass::Storage { .. },
                    }) = crate::sema::types::image_of(&self.types, kind, e)
                {
                    // The format's numeric type must be the sampled type's
                    // (Vulkan "Format and type matching").
                    let (want, width) = format_numeric(f);
                    let have = e.and_then(|e| self.types.component(e));
                    if f != ir::ImageFormat::Unknown
                        && have.is_some_and(|c| c.kind() != want || c.width() as u32 * 8 != width)
                    {
                        self.push(
                            Diagnostic::error(
                                codes::BAD_ATTRIBUTE,
                                "the image format and the element type are not compatible",
                            )
                            .label(fmt.span, "this format")
                            .label(vd.ty.span, "this element type")
                            .note("see https://docs.vulkan.org/spec/latest/appendices/spirvenv.html#spirvenv-format-type-matching"),
                        );
                    }
                    t = self.module.ty(ir::TypeInner::Image {
                        dim,
                        arrayed,
                        multisampled,
                        sampled,
                        class: ir::ImageClass::Storage { format: f },
                    });
                }
                let ro = (!kind.is_rw()).then_some(ReadOnly::Resource(d.name.span));
                (t, ir::AddressSpace::Handle, ty, ro)
            }
            Ty::Sampler { .. } => {
                let t = self.ir_ty(elem);
                (
                    t,
                    ir::AddressSpace::Handle,
                    ty,
                    Some(ReadOnly::Resource(d.name.span)),
                )
            }
            _ => return self.finish_resource_global(info, scope, d, member),
        };
        // Wrap the arrays around the element's memory type.
        let mut gty = mem;
        for n in dims.iter().rev() {
            gty = self.module.ty(ir::TypeInner::Array {
                base: gty,
                size: match n {
                    Some(n) => ir::ArraySize::Constant(*n),
                    None => ir::ArraySize::Runtime,
                },
                stride: None,
            });
        }
        let gv = ir::build::add_global(&mut self.module, name.as_str(), space, gty);
        // Only `-fspv-reflect` writes the name out; while indexing, the
        // names its template arguments use are recorded as before.
        if self.opts.spv_reflect || self.index.is_some() {
            self.module.globals[gv].user_type = self.user_type(vd, elem, &env);
        }
        let class = match self.types.get(elem) {
            Ty::Resource(k, _) => k.register_class(),
            _ => crate::sema::options::RegisterClass::S,
        };
        let (vk_binding, counter_binding) = self.binding_attrs(attrs, &env);
        let (register, input_attachment) = if member {
            (None, None)
        } else {
            (
                self.register_annotation(&d.annotations, space),
                self.input_attachment_attr(vd, elem, &env),
            )
        };
        let rindex = self.res.decls.push(ResourceDecl {
            gv,
            name,
            vk_binding,
            register,
            counter_binding,
            input_attachment,
            class,
            counter_of: None,
            in_struct: member,
            combined: find_attr(attrs, Attr::VkCombinedImageSampler).map(|a| a.span),
            span: d.name.span,
        });
        info.ty = hlsl_ty;
        info.kind = GlobalKind::Var { gv, mem: gty };
        info.read_only = read_only;
        info.resource = Some(rindex);
        // Append/Consume buffers always have their counter, right after them.
        if let Ty::Resource(k, _) = *self.types.get(elem)
            && matches!(
                k,
                ResKind::AppendStructuredBuffer | ResKind::ConsumeStructuredBuffer
            )
        {
            let c = self.make_counter(gv, rindex, name, d.name.span);
            info.counter = Some(c);
        }
        // DXC: the counters of multi-dimensional arrays of counted buffers
        // have no mapping to Vulkan.
        if dims.len() > 1
            && let Ty::Resource(k, _) = *self.types.get(elem)
            && k.is_structured()
            && !matches!(k, ResKind::StructuredBuffer)
        {
            self.error(
                codes::RESOURCE_MISUSE,
                format!(
                    "multi-dimensional arrays of `{}` are not supported in Vulkan (their counters cannot be arrays of arrays)",
                    k.name()
                ),
                d.span,
                "declared here",
            );
        } else if dims.len() > 1 && !self.opts.target_env.is_universal() {
            // A descriptor is one resource or an array of them in Vulkan
            // (VUID-StandaloneSpirv-UniformConstant-04655, -Uniform-06807).
            let inner: u64 = dims[1..].iter().map(|n| u64::from(n.unwrap_or(1))).product();
            self.push(
                Diagnostic::error(
                    codes::RESOURCE_MISUSE,
                    format!("`{name}` is an array of arrays of resources, which Vulkan does not have"),
                )
                .label(d.span, "declared here")
                .note(format!(
                    "declare one dimension and index it as `{name}[i * {inner} + j]`, or target `universal1.5`"
                )),
            );
        }
        self.finish_resource_global(info, scope, d, member)
    }

    /// Declares a resource global's name, or (a flattened struct member)
    /// only records it.
    fn finish_resource_global(
        &mut self,
        info: GlobalInfo,
        scope: ScopeId,
        d: &ast::Declarator,
        member: bool,
    ) -> GlobalId {
        if member {
            self.hidden_global(info)
        } else {
            self.new_global(info, scope, d.name)
        }
    }

    /// The `UserTypeGOOGLE` string of a resource for `-fspv-reflect`
    /// (SPIR-V.rst, "HLSL User Types"): the type's name in lower case,
    /// then, when the declaration writes template arguments, `:<` the
    /// arguments without spaces `>` (`texture2dmsarray:<float4,64>`,
    /// `texture1d`). Samplers have none.
    fn user_type(&mut self, vd: &'a ast::VarDecl, elem: TyId, env: &Env) -> Option<String> {
        let Ty::Resource(kind, e) = *self.types.get(elem) else {
            return None;
        };
        let name = kind.name().to_lowercase();
        let ast::TypeSpecKind::Named {
            args: Some(args), ..
        } = &vd.ty.kind
        else {
            return Some(name);
        };
        if args.is_empty() {
            return Some(name);
        }
        let mut written = Vec::new();
        if let Some(e) = e {
            written.push(self.ty_name(e).replace(' ', ""));
        }
        for a in args.iter().skip(1) {
            if let ast::TemplateArg::Expr(x) = a
                && let Ok(k) = self.const_eval(x, env)
            {
                written.push(k.as_i64().to_string());
            }
        }
        Some(format!("{name}:<{}>", written.join(",")))
    }

    /// The counter buffer of a RW/Append/Consume structured buffer: a block
    /// `{ int }` with its own binding (SPIR-V.rst, "Counter buffers"); for
    /// an array of buffers, an array of blocks of the same shape.
    pub fn make_counter(
        &mut self,
        of: ir::Handle<ir::GlobalVariable>,
        rindex: ResourceId,
        name: Symbol,
        span: Span,
    ) -> ir::Handle<ir::GlobalVariable> {
        let mut block = self.counter_block_type();
        // The buffer's array dimensions, outermost first.
        let mut dims = Vec::new();
        let mut t = self.module.globals[of].ty;
        while let ir::TypeInner::Array { base, size, .. } = self.module.types[t].inner {
            dims.push(size);
            t = base;
        }
        for size in dims.into_iter().rev() {
            block = self.module.ty(ir::TypeInner::Array {
                base: block,
                size,
                stride: None,
            });
        }
        let gv = ir::build::add_global(
            &mut self.module,
            &format!("counter.var.{name}"),
            ir::AddressSpace::Storage { writable: true },
            block,
        );
        self.module.globals[of].counter = Some(gv);
        let main = self.res.decls[rindex].clone();
        self.res.decls.push(ResourceDecl {
            gv,
            name,
            vk_binding: main.vk_binding.map(|(_, set)| (u32::MAX, set)),
            register: main.register,
            counter_binding: main.counter_binding,
            input_attachment: None,
            class: main.class,
            counter_of: Some(rindex),
            in_struct: false,
            combined: None,
            span,
        });
        gv
    }

    /// `type.ACSBuffer.counter { int counter; }`.
    pub fn counter_block_type(&mut self) -> ir::Handle<ir::Type> {
        let int = self.module.scalar_type(ir::Scalar::I32);
        self.module.types.insert(ir::Type {
            name: Some("type.ACSBuffer.counter".into()),
            inner: ir::TypeInner::Struct {
                members: vec![ir::StructMember {
                    name: Some("counter".into()),
                    ty: int,
                    offset: Some(0),
                    matrix_layout: None,
                    precise: false,
                    binding: None,
                    decorations: Vec::new(),
                }],
                size: 4,
            },
        })
    }

    /// The storage block of a structured or byte-address buffer:
    /// `type.RWStructuredBuffer.T { T[] }`, `type.ByteAddressBuffer { uint[] }`.
    pub fn buffer_block(&mut self, res: TyId) -> ir::Handle<ir::Type> {
        let Ty::Resource(kind, elem) = self.types.get(res).clone() else {
            return self.module.scalar_type(ir::Scalar::U32);
        };
        let rule = Rule::for_buffer(self.opts.layout, BufferKind::Storage);
        let mut matrix_layout = None;
        let (arr, name) = match elem {
            Some(t) if kind.is_structured() => {
                let ra = self.types.array(t, None);
                let laid = self.layouts.layout(
                    &mut self.types,
                    &mut self.module,
                    ra,
                    rule,
                    self.decls.default_row_major(),
                );
                matrix_layout = laid.matrix;
                (laid.ty, format!("type.{}.{}", kind.name(), self.ty_name(t)))
            }
            _ => {
                let u = self.module.scalar_type(ir::Scalar::U32);
                let ra = self.module.ty(ir::TypeInner::Array {
                    base: u,
                    size: ir::ArraySize::Runtime,
                    stride: Some(4),
                });
                (ra, format!("type.{}", kind.name()))
            }
        };
        self.module.types.insert(ir::Type {
            name: Some(name),
            inner: ir::TypeInner::Struct {
                members: vec![ir::StructMember {
                    name: None,
                    ty: arr,
                    offset: Some(0),
                    matrix_layout,
                    precise: false,
                    binding: None,
                    decorations: Vec::new(),
                }],
                size: 0,
            },
        })
    }

    pub(in crate::sema) fn image_format_attr(
        &mut self,
        a: &ast::Attribute,
    ) -> Option<ir::ImageFormat> {
        use ir::ImageFormat as F;
        // The registry checked that the format is a string.
        let s = a.string_arg(0)?;
        Some(match s {
            "unknown" => F::Unknown,
            "rgba32f" => F::Rgba32f,
            "rgba16f" => F::Rgba16f,
            "r32f" => F::R32f,
            "rgba8" => F::Rgba8,
            "rgba8snorm" => F::Rgba8Snorm,
            "rg32f" => F::Rg32f,
            "rg16f" => F::Rg16f,
            "r11g11b10f" => F::R11fG11fB10f,
            "r16f" => F::R16f,
            "rgba16" => F::Rgba16,
            "rgb10a2" => F::Rgb10A2,
            "rg16" => F::Rg16,
            "rg8" => F::Rg8,
            "r16" => F::R16,
            "r8" => F::R8,
            "rgba16snorm" => F::Rgba16Snorm,
            "rg16snorm" => F::Rg16Snorm,
            "rg8snorm" => F::Rg8Snorm,
            "r16snorm" => F::R16Snorm,
            "r8snorm" => F::R8Snorm,
            "rgba32i" => F::Rgba32i,
            "rgba16i" => F::Rgba16i,
            "rgba8i" => F::Rgba8i,
            "r32i" => F::R32i,
            "rg32i" => F::Rg32i,
            "rg16i" => F::Rg16i,
            "rg8i" => F::Rg8i,
            "r16i" => F::R16i,
            "r8i" => F::R8i,
            "rgba32ui" => F::Rgba32ui,
            "rgba16ui" => F::Rgba16ui,
            "rgba8ui" => F::Rgba8ui,
            "r32ui" => F::R32ui,
            "rgb10a2ui" => F::Rgb10a2ui,
            "rg32ui" => F::Rg32ui,
            "rg16ui" => F::Rg16ui,
            "rg8ui" => F::Rg8ui,
            "r16ui" => F::R16ui,
            "r8ui" => F::R8ui,
            "r64ui" => F::R64ui,
            "r64i" => F::R64i,
            other => {
                self.error(
                    codes::BAD_ATTRIBUTE,
                    format!("unknown image format `{other}`"),
                    a.span,
                    "not a format name",
                );
                return None;
            }
        })
    }

    /// `[[vk::binding(b, s)]]` and `[[vk::counter_binding(c)]]`.
    /// `[[vk::input_attachment_index(i)]]` of a subpass input (`elem` is
    /// the declared type, arrays of it included); elsewhere an error.
    fn input_attachment_attr(
        &mut self,
        vd: &'a ast::VarDecl,
        elem: TyId,
        env: &Env,
    ) -> Option<u32> {
        let a = find_attr(&vd.attrs, Attr::VkInputAttachmentIndex)?;
        if !matches!(
            self.types.get(elem),
            Ty::Resource(ResKind::SubpassInput { .. }, _)
        ) {
            self.error(
                codes::BAD_ATTRIBUTE,
                "`vk::input_attachment_index` is for subpass inputs",
                a.span,
                "not a `SubpassInput` or `SubpassInputMS`",
            );
            return None;
        }
        let i = self.const_int(a.args.first()?, env)?;
        match u32::try_from(i) {
            Ok(i) => Some(i),
            Err(_) => {
                self.error(
                    codes::BAD_ATTRIBUTE,
                    "an input attachment index is not negative",
                    a.span,
                    "negative index",
                );
                None
            }
        }
    }

    pub(in crate::sema) fn binding_attrs(
        &mut self,
        attrs: &'a [ast::Attribute],
        env: &Env,
    ) -> (Option<(u32, u32)>, Option<u32>) {
        let mut b = None;
        // No arguments: the registry's check reported it.
        if let Some(a) = find_attr(attrs, Attr::VkBinding).filter(|a| !a.args.is_empty()) {
            let binding = a.args.first().and_then(|e| self.const_int(e, env));
            let set = match a.args.get(1) {
                Some(e) => self.const_int(e, env),
                None => Some(i64::from(self.opts.default_space)),
            };
            match (binding, set) {
                (Some(bi), Some(se)) if bi >= 0 && se >= 0 => b = Some((bi as u32, se as u32)),
                _ => {
                    self.error(
                        codes::BAD_ATTRIBUTE,
                        "vk::binding takes a binding number and an optional set",
                        a.span,
                        "invalid arguments",
                    );
                }
            }
        }
        let c = find_attr(attrs, Attr::VkCounterBinding)
            .and_then(|a| a.args.first())
            .and_then(|e| self.const_int(e, env))
            .map(|v| v as u32);
        (b, c)
    }

    /// `register(t3, space1)`: class, number, space. `register(space2)`
    /// gives no class and number `u32::MAX` (implicit binding in that set).
    pub fn register_annotation(
        &mut self,
        ann: &ast::Annotations,
        _space: ir::AddressSpace,
    ) -> Option<(Option<char>, u32, u32)> {
        for r in &ann.registers {
            if r.profile.is_some() {
                // Profile-specific registers (`register(ps_5_0, t0)`) do not
                // apply to the SPIR-V target.
                continue;
            }
            let space = match r.space {
                Some(s) => match parse_space(s.name.as_str()) {
                    Some(n) => n,
                    None => {
                        self.error(
                            codes::BAD_REGISTER,
                            format!("invalid register space `{}`", s.name),
                            s.span,
                            "expected `spaceN`",
                        );
                        return None;
                    }
                },
                None => self.opts.default_space,
            };
            match r.slot {
                Some(slot) => match parse_register_slot(slot.name.as_str()) {
                    Some((c, n)) if "btusc".contains(c) => return Some((Some(c), n, space)),
                    _ => {
                        // `register(space1)` parsed as the slot.
                        if let Some(sp) = parse_space(slot.name.as_str()) {
                            return Some((None, u32::MAX, sp));
                        }
                        self.error(
                            codes::BAD_REGISTER,
                            format!("invalid register `{}`", slot.name),
                            slot.span,
                            "expected b, t, u or s and a number",
                        );
                        return None;
                    }
                },
                None => return Some((None, u32::MAX, space)),
            }
        }
        None
    }
}

/// The numeric type of an image format's texels: kind and width in bits.
fn format_numeric(f: ir::ImageFormat) -> (crate::sema::types::ScKind, u32) {
    use crate::sema::types::ScKind as K;
    use ir::ImageFormat as F;
    match f {
        F::Rgba32i
        | F::Rgba16i
        | F::Rgba8i
        | F::R32i
        | F::Rg32i
        | F::Rg16i
        | F::Rg8i
        | F::R16i
        | F::R8i => (K::Sint, 32),
        F::Rgba32ui
        | F::Rgba16ui
        | F::Rgba8ui
        | F::R32ui
        | F::Rgb10a2ui
        | F::Rg32ui
        | F::Rg16ui
        | F::Rg8ui
        | F::R16ui
        | F::R8ui => (K::Uint, 32),
        F::R64i => (K::Sint, 64),
        F::R64ui => (K::Uint, 64),
        _ => (K::Float, 32),
    }
}
