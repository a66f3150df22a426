//! Image operations: every sampling form, fetches, storage reads and
//! writes, queries, gathers, texel-pointer atomics, and the capabilities
//! each image type needs.

use super::*;
use crate::ir::{
    AtomicFunction, BinaryOperator as B, ImageClass, ImageDim, ImageFormat, ImageQuery,
    ImageSampling, SampleLevel,
};
use crate::options::Stage;
use spirv::Capability;

struct ImageKit {
    mb: ModuleBuilder,
    f32_ty: Handle<Type>,
    u32_ty: Handle<Type>,
    i32_ty: Handle<Type>,
    vec2: Handle<Type>,
    vec4: Handle<Type>,
    uvec2: Handle<Type>,
    ivec2: Handle<Type>,
    next_binding: u32,
}

impl ImageKit {
    fn new() -> Self {
        let mut mb = ModuleBuilder::new();
        ImageKit {
            f32_ty: mb.f32(),
            u32_ty: mb.u32(),
            i32_ty: mb.i32(),
            vec2: mb.vec(2, Scalar::F32),
            vec4: mb.vec(4, Scalar::F32),
            uvec2: mb.vec(2, Scalar::U32),
            ivec2: mb.vec(2, Scalar::I32),
            next_binding: 0,
            mb,
        }
    }

    /// A global of an image or sampler type, and the pointer type to it.
    fn handle(
        &mut self,
        name: &str,
        inner: TypeInner,
    ) -> (Handle<ir::GlobalVariable>, Handle<Type>) {
        let ty = self.mb.ty(inner);
        let binding = self.next_binding;
        self.next_binding += 1;
        let g = self.mb.resource(name, AddressSpace::Handle, ty, 0, binding);
        (g, self.mb.ptr(ty, AddressSpace::Handle))
    }

    fn image(dim: ImageDim, arrayed: bool, multisampled: bool, class: ImageClass) -> TypeInner {
        Self::typed_image(dim, arrayed, multisampled, class, Scalar::F32)
    }

    fn typed_image(
        dim: ImageDim,
        arrayed: bool,
        multisampled: bool,
        class: ImageClass,
        sampled: Scalar,
    ) -> TypeInner {
        TypeInner::Image {
            dim,
            arrayed,
            multisampled,
            sampled,
            class,
        }
    }
}

fn sample(
    f: &mut FunctionBuilder,
    image: Handle<Expression>,
    sampler: Handle<Expression>,
    coordinate: Handle<Expression>,
    level: SampleLevel,
    ty: Handle<Type>,
) -> Handle<Expression> {
    f.emit(
        Expression::ImageSample(Box::new(ImageSampling {
            image,
            sampler: Some(sampler),
            coordinate,
            offset: None,
            level,
            depth_ref: None,
            clamp: None,
            gather: None,
            sparse: false,
        })),
        ty,
    )
}

/// Every sampling form in a pixel shader.
#[test]
fn sampling_forms() {
    let mut k = ImageKit::new();
    let (tex, tex_ptr) = k.handle(
        "tex",
        ImageKit::image(ImageDim::D2, false, false, ImageClass::Sampled),
    );
    let (arr, arr_ptr) = k.handle(
        "arr",
        ImageKit::image(ImageDim::D2, true, false, ImageClass::Sampled),
    );
    let (cube, cube_ptr) = k.handle(
        "cubes",
        ImageKit::image(ImageDim::Cube, true, false, ImageClass::Sampled),
    );
    let (line, line_ptr) = k.handle(
        "line",
        ImageKit::image(ImageDim::D1, false, false, ImageClass::Sampled),
    );
    let (smp, smp_ptr) = k.handle("smp", TypeInner::Sampler { comparison: false });
    let (cmp, cmp_ptr) = k.handle("cmp", TypeInner::Sampler { comparison: true });
    let vec3 = k.mb.vec(3, Scalar::F32);
    let vec4 = k.vec4;
    let f32_ty = k.f32_ty;
    let vec2 = k.vec2;
    let ivec2 = k.ivec2;
    let uv_in = k.mb.location("in.var.UV", AddressSpace::Input, vec4, 0);
    let target =
        k.mb.location("out.var.SV_Target", AddressSpace::Output, vec4, 0);
    let in_ptr = k.mb.ptr(vec4, AddressSpace::Input);
    let out_ptr = k.mb.ptr(vec4, AddressSpace::Output);

    let mut f = FunctionBuilder::new("main");
    let gtex = f.global(tex, tex_ptr);
    let garr = f.global(arr, arr_ptr);
    let gcube = f.global(cube, cube_ptr);
    let gline = f.global(line, line_ptr);
    let gsmp = f.global(smp, smp_ptr);
    let gcmp = f.global(cmp, cmp_ptr);
    let guv = f.global(uv_in, in_ptr);
    let gout = f.global(target, out_ptr);
    let half = f.lit(lit_f32(0.5), f32_ty);
    let m1 = f.lit(Literal::I32(-1), k.i32_ty);
    let offset = f.emit(
        Expression::Compose {
            ty: ivec2,
            components: vec![m1, m1],
        },
        ivec2,
    );
    let uv4 = f.load(guv, vec4);
    let uv = f.emit(
        Expression::Swizzle {
            size: 2,
            vector: uv4,
            pattern: [
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::Y,
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::X,
            ],
        },
        vec2,
    );
    let uvw = f.emit(
        Expression::Swizzle {
            size: 3,
            vector: uv4,
            pattern: [
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::Y,
                ir::SwizzleComponent::Z,
                ir::SwizzleComponent::X,
            ],
        },
        vec3,
    );
    let u = f.index(uv4, 0, f32_ty);
    let a = sample(&mut f, gtex, gsmp, uv, SampleLevel::Bias(half), vec4);
    let b = sample(&mut f, gtex, gsmp, uv, SampleLevel::Exact(half), vec4);
    let c = sample(
        &mut f,
        gtex,
        gsmp,
        uv,
        SampleLevel::Gradient { x: uv, y: uv },
        vec4,
    );
    let d = sample(&mut f, garr, gsmp, uvw, SampleLevel::Auto, vec4);
    let e = sample(&mut f, gcube, gsmp, uv4, SampleLevel::Exact(half), vec4);
    let l = sample(&mut f, gline, gsmp, u, SampleLevel::Auto, vec4);
    let cmp_sample = |f: &mut FunctionBuilder, level, gather| {
        f.emit(
            Expression::ImageSample(Box::new(ImageSampling {
                image: gtex,
                sampler: Some(gcmp),
                coordinate: uv,
                offset: None,
                level,
                depth_ref: Some(half),
                clamp: None,
                gather,
                sparse: false,
            })),
            if gather.is_some() { vec4 } else { f32_ty },
        )
    };
    let dref = cmp_sample(&mut f, SampleLevel::Auto, None);
    let dref0 = cmp_sample(&mut f, SampleLevel::Zero, None);
    let dgather = cmp_sample(&mut f, SampleLevel::Zero, Some(0));
    let gather = f.emit(
        Expression::ImageSample(Box::new(ImageSampling {
            image: gtex,
            sampler: Some(gsmp),
            coordinate: uv,
            offset: Some(offset),
            level: SampleLevel::Zero,
            depth_ref: None,
            clamp: None,
            gather: Some(1),
            sparse: false,
        })),
        vec4,
    );
    let lod = f.emit(
        Expression::ImageQuery {
            image: gtex,
            query: ImageQuery::Lod {
                sampler: Some(gsmp),
                coordinate: uv,
                clamped: true,
            },
        },
        f32_ty,
    );
    let mut acc = a;
    for v in [b, c, d, e, l, gather, dgather] {
        acc = f.binary(B::Add, acc, v, vec4);
    }
    for s in [dref, dref0, lod] {
        acc = f.binary(B::Multiply, acc, s, vec4);
    }
    f.store(gout, acc);
    let main = k.mb.add_function(f);
    k.mb.entry("main", Stage::Pixel, main, [0; 3]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&k.mb.m, env);
        assert_eq!(w.count(Op::ImageSampleImplicitLod), 3, "bias, array, 1D");
        assert_eq!(
            w.count(Op::ImageSampleExplicitLod),
            3,
            "lod, grad, cube lod"
        );
        assert_eq!(w.count(Op::ImageSampleDrefImplicitLod), 1);
        assert_eq!(w.count(Op::ImageSampleDrefExplicitLod), 1);
        assert_eq!(w.count(Op::ImageGather), 1);
        assert_eq!(w.count(Op::ImageDrefGather), 1);
        assert_eq!(w.count(Op::ImageQueryLod), 1);
        let operands: Vec<spirv::ImageOperands> = w
            .all(Op::ImageSampleExplicitLod)
            .iter()
            .map(|i| match i.operands[2] {
                Operand::ImageOperands(o) => o,
                _ => panic!("image operands"),
            })
            .collect();
        assert_eq!(
            operands,
            vec![
                spirv::ImageOperands::LOD,
                spirv::ImageOperands::GRAD,
                spirv::ImageOperands::LOD
            ]
        );
        let g = &w.all(Op::ImageGather)[0];
        assert_eq!(w.const_u32(g.operands[2].unwrap_id_ref()), 1, "GatherGreen");
        assert_eq!(
            g.operands[3],
            Operand::ImageOperands(spirv::ImageOperands::CONST_OFFSET),
            "gathers take no level operand"
        );
        for cap in [
            Capability::Sampled1D,
            Capability::SampledCubeArray,
            Capability::ImageQuery,
            Capability::ImageGatherExtended,
        ] {
            assert!(w.has_capability(cap), "{cap:?}");
        }
        // One OpTypeSampledImage per image type sampled, never duplicated.
        assert_eq!(w.count(Op::TypeSampledImage), 4);
        assert_eq!(w.count(Op::TypeSampler), 1);
    }
}

/// Fetches, storage reads and writes, queries, and an atomic on a texel.
#[test]
fn loads_stores_queries_and_texel_atomics() {
    let mut k = ImageKit::new();
    let (tex, tex_ptr) = k.handle(
        "tex",
        ImageKit::image(ImageDim::D2, false, false, ImageClass::Sampled),
    );
    let (ms, ms_ptr) = k.handle(
        "ms",
        ImageKit::image(ImageDim::D2, false, true, ImageClass::Sampled),
    );
    let (buf, buf_ptr) = k.handle(
        "texels",
        ImageKit::image(ImageDim::Buffer, false, false, ImageClass::Sampled),
    );
    let (rw, rw_ptr) = k.handle(
        "rw",
        ImageKit::image(
            ImageDim::D2,
            false,
            false,
            ImageClass::Storage {
                format: ImageFormat::Unknown,
            },
        ),
    );
    let (rg, rg_ptr) = k.handle(
        "rg",
        ImageKit::image(
            ImageDim::D2,
            false,
            false,
            ImageClass::Storage {
                format: ImageFormat::Rg16f,
            },
        ),
    );
    let (counts, counts_ptr) = k.handle(
        "counts",
        ImageKit::typed_image(
            ImageDim::Buffer,
            false,
            false,
            ImageClass::Storage {
                format: ImageFormat::R32ui,
            },
            Scalar::U32,
        ),
    );
    let (f32_ty, u32_ty, vec4, uvec2, ivec2) = (k.f32_ty, k.u32_ty, k.vec4, k.uvec2, k.ivec2);
    let uvec3 = k.mb.vec(3, Scalar::U32);
    let id_in = k.mb.builtin(
        "id",
        AddressSpace::Input,
        uvec3,
        spirv::BuiltIn::GlobalInvocationId,
    );
    let id_ptr = k.mb.ptr(uvec3, AddressSpace::Input);
    let texel_ptr = k.mb.ptr(u32_ty, AddressSpace::Handle);

    let mut f = FunctionBuilder::new("main");
    let gtex = f.global(tex, tex_ptr);
    let gms = f.global(ms, ms_ptr);
    let gbuf = f.global(buf, buf_ptr);
    let grw = f.global(rw, rw_ptr);
    let grg = f.global(rg, rg_ptr);
    let gcounts = f.global(counts, counts_ptr);
    let gid = f.global(id_in, id_ptr);
    let zero = f.lit(Literal::U32(0), u32_ty);
    let one = f.lit(Literal::U32(1), u32_ty);
    let id3 = f.load(gid, uvec3);
    let xy = f.emit(
        Expression::Swizzle {
            size: 2,
            vector: id3,
            pattern: [
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::Y,
                ir::SwizzleComponent::X,
                ir::SwizzleComponent::X,
            ],
        },
        uvec2,
    );
    let pos = f.emit(
        Expression::As {
            expr: xy,
            kind: ir::ScalarKind::Sint,
            convert: None,
            precise: false,
        },
        ivec2,
    );
    let x = f.index(id3, 0, u32_ty);
    let load = |f: &mut FunctionBuilder, image, coordinate, level, sample| {
        f.emit(
            Expression::ImageLoad {
                image,
                coordinate,
                level,
                sample,
                offset: None,
                sparse: false,
            },
            vec4,
        )
    };
    // Texture2D.Load, Texture2DMS.Load(pos, sample), Buffer[x], RWTexture2D[pos].
    let a = load(&mut f, gtex, pos, Some(one), None);
    let b = load(&mut f, gms, pos, None, Some(zero));
    let c = load(&mut f, gbuf, x, None, None);
    let d = load(&mut f, grw, pos, None, None);
    let size = f.emit(
        Expression::ImageQuery {
            image: gtex,
            query: ImageQuery::Size { level: None },
        },
        uvec2,
    );
    let levels = f.emit(
        Expression::ImageQuery {
            image: gtex,
            query: ImageQuery::NumLevels,
        },
        u32_ty,
    );
    let samples = f.emit(
        Expression::ImageQuery {
            image: gms,
            query: ImageQuery::NumSamples,
        },
        u32_ty,
    );
    let rw_size = f.emit(
        Expression::ImageQuery {
            image: grw,
            query: ImageQuery::Size { level: None },
        },
        uvec2,
    );
    let s0 = f.index(size, 0, u32_ty);
    let s1 = f.index(rw_size, 1, u32_ty);
    let n = f.binary(B::Add, s0, s1, u32_ty);
    let n = f.binary(B::Add, n, levels, u32_ty);
    let n = f.binary(B::Add, n, samples, u32_ty);
    let nf = f.emit(
        Expression::As {
            expr: n,
            kind: ir::ScalarKind::Float,
            convert: Some(4),
            precise: false,
        },
        f32_ty,
    );
    let mut acc = f.binary(B::Add, a, b, vec4);
    acc = f.binary(B::Add, acc, c, vec4);
    acc = f.binary(B::Add, acc, d, vec4);
    acc = f.binary(B::Multiply, acc, nf, vec4);
    f.stmt(Statement::ImageStore {
        image: grw,
        coordinate: pos,
        value: acc,
    });
    f.stmt(Statement::ImageStore {
        image: grg,
        coordinate: pos,
        value: acc,
    });
    let texel = f.emit(
        Expression::ImageTexelPointer {
            image: gcounts,
            coordinate: x,
            sample: zero,
        },
        texel_ptr,
    );
    let old = f.add(Expression::AtomicResult, u32_ty);
    f.stmt(Statement::Atomic {
        pointer: texel,
        fun: AtomicFunction::Add,
        value: Some(one),
        compare: None,
        result: Some(old),
    });
    let main = k.mb.add_function(f);
    k.mb.entry("main", Stage::Compute, main, [8, 8, 1]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&k.mb.m, env);
        assert_eq!(w.count(Op::ImageFetch), 3);
        assert_eq!(w.count(Op::ImageRead), 1);
        assert_eq!(w.count(Op::ImageWrite), 2);
        // Level-less sampled 2D size is queried at level 0.
        assert_eq!(w.count(Op::ImageQuerySizeLod), 1);
        assert_eq!(w.count(Op::ImageQuerySize), 1);
        assert_eq!(w.count(Op::ImageQueryLevels), 1);
        assert_eq!(w.count(Op::ImageQuerySamples), 1);
        let fetch_ops: Vec<Option<spirv::ImageOperands>> = w
            .all(Op::ImageFetch)
            .iter()
            .map(|i| match i.operands.get(2) {
                Some(Operand::ImageOperands(o)) => Some(*o),
                _ => None,
            })
            .collect();
        assert_eq!(
            fetch_ops,
            vec![
                Some(spirv::ImageOperands::LOD),
                Some(spirv::ImageOperands::SAMPLE),
                None
            ]
        );
        let ptr = &w.all(Op::ImageTexelPointer)[0];
        let ptr_ty = w.def(ptr.result_type.unwrap());
        assert_eq!(
            ptr_ty.operands[0],
            Operand::StorageClass(spirv::StorageClass::Image)
        );
        let add = &w.all(Op::AtomicIAdd)[0];
        assert_eq!(add.operands[0], Operand::IdRef(ptr.result_id.unwrap()));
        assert_eq!(
            w.const_u32(add.operands[1].id_ref_any().unwrap()),
            1,
            "Device"
        );
        for cap in [
            Capability::SampledBuffer,
            Capability::ImageBuffer,
            Capability::StorageImageReadWithoutFormat,
            Capability::StorageImageWriteWithoutFormat,
            Capability::StorageImageExtendedFormats,
            Capability::ImageQuery,
        ] {
            assert!(w.has_capability(cap), "{cap:?}");
        }
        assert!(!w.has_capability(Capability::StorageImageMultisample));
    }
}

/// `Texture2D fixed[4]` and an unbounded `Texture2D all[]`, indexed.
#[test]
fn arrays_of_textures() {
    let mut k = ImageKit::new();
    let image = k.mb.ty(ImageKit::image(
        ImageDim::D2,
        false,
        false,
        ImageClass::Sampled,
    ));
    let fixed_ty = k.mb.ty(TypeInner::Array {
        base: image,
        size: ir::ArraySize::Constant(4),
        stride: None,
    });
    let all_ty = k.mb.ty(TypeInner::Array {
        base: image,
        size: ir::ArraySize::Runtime,
        stride: None,
    });
    let fixed = k.mb.resource("fixed", AddressSpace::Handle, fixed_ty, 0, 0);
    let all = k.mb.resource("all", AddressSpace::Handle, all_ty, 1, 0);
    let (smp, smp_ptr) = k.handle("smp", TypeInner::Sampler { comparison: false });
    let (vec2, vec4, u32_ty) = (k.vec2, k.vec4, k.u32_ty);
    let index_in =
        k.mb.location("in.var.INDEX", AddressSpace::Input, u32_ty, 0);
    let target = k.mb.location("out", AddressSpace::Output, vec4, 0);
    let fixed_ptr = k.mb.ptr(fixed_ty, AddressSpace::Handle);
    let all_ptr = k.mb.ptr(all_ty, AddressSpace::Handle);
    let image_ptr = k.mb.ptr(image, AddressSpace::Handle);
    let u_in = k.mb.ptr(u32_ty, AddressSpace::Input);
    let v_out = k.mb.ptr(vec4, AddressSpace::Output);
    let mut f = FunctionBuilder::new("main");
    let gf = f.global(fixed, fixed_ptr);
    let ga = f.global(all, all_ptr);
    let gs = f.global(smp, smp_ptr);
    let gi = f.global(index_in, u_in);
    let go = f.global(target, v_out);
    let i = f.load(gi, u32_ty);
    let half = f.lit(lit_f32(0.5), k.f32_ty);
    let uv = f.emit(
        Expression::Splat {
            size: 2,
            value: half,
        },
        vec2,
    );
    let t1 = f.access(gf, i, image_ptr);
    let t2 = f.access(ga, i, image_ptr);
    let a = sample(&mut f, t1, gs, uv, SampleLevel::Zero, vec4);
    let b = sample(&mut f, t2, gs, uv, SampleLevel::Zero, vec4);
    let s = f.binary(B::Add, a, b, vec4);
    f.store(go, s);
    let main = k.mb.add_function(f);
    k.mb.entry("main", Stage::Pixel, main, [0; 3]);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&k.mb.m, env);
        assert!(w.has_capability(Capability::RuntimeDescriptorArray));
        assert_eq!(
            w.text.contains("SPV_EXT_descriptor_indexing"),
            env == TargetEnv::Vulkan1_0
        );
        assert_eq!(w.count(Op::TypeRuntimeArray), 1);
        assert!(
            !w.text.contains("ArrayStride"),
            "descriptor arrays have no stride"
        );
        // Each texture is loaded through an access chain into its array.
        assert_eq!(w.count(Op::AccessChain), 2);
    }
}
