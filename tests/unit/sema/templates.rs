//! Templates: static members named through an instance (`S<T>::value`),
//! member types (`typename Trait<T>::type`), explicit and partial
//! specialisation, and the errors of incomplete and duplicate ones.

use super::*;
use rspirv::dr::Operand;
use spirv::Op;

/// A scalar constant as the module spells it: the type (`u64`, `i64`,
/// `f16`, …) and the literal's bits.
#[derive(Debug, PartialEq)]
struct Stored(String, u64);

/// Compiles the compute shader `src` (`cs_6_2`, `-enable-16bit-types`),
/// validates it, and lists the constant values that its `OpStore`s write,
/// in order, with their types.
fn stored_constants(src: &str) -> Vec<Stored> {
    let mut o = common::options_for("cs_6_2");
    o.enable_16bit_types = true;
    o.target_env = TargetEnv::Vulkan1_1;
    let words = compile_valid_words_with(src, &o);
    let spv = common::Spv {
        module: rspirv::dr::load_words(&words).expect("rspirv reads the module"),
    };
    let mut out = Vec::new();
    for st in spv.all(Op::Store) {
        let Operand::IdRef(v) = st.operands[1] else {
            continue;
        };
        let k = spv.def(v);
        if k.class.opcode != Op::Constant {
            continue;
        }
        let ty = spv.def(k.result_type.expect("a typed constant"));
        let name = match (ty.class.opcode, &ty.operands[..]) {
            (Op::TypeInt, [Operand::LiteralBit32(w), Operand::LiteralBit32(s)]) => {
                format!("{}{w}", if *s == 1 { 'i' } else { 'u' })
            }
            (Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => format!("f{w}"),
            other => panic!("unexpected constant type {other:?}"),
        };
        let bits = match k.operands[0] {
            Operand::LiteralBit32(b) => u64::from(b),
            Operand::LiteralBit64(b) => b,
            ref other => panic!("unexpected literal {other:?}"),
        };
        out.push(Stored(name, bits));
    }
    out
}

fn s(ty: &str, bits: u64) -> Stored {
    Stored(ty.to_string(), bits)
}

#[test]
fn static_members_of_instances_fold_to_constants_of_their_type() {
    let got = stored_constants(
        "template <typename T> struct Big { static const T value = (T)1 << 33; };
         template <typename T> struct Neg { static const T value = -2.5; typedef T type; };
         template <uint W> struct Twice { static const uint value = W * 2; };
         RWStructuredBuffer<uint64_t> a; RWStructuredBuffer<int64_t> b;
         RWStructuredBuffer<half> c; RWStructuredBuffer<uint> d;
         [numthreads(1, 1, 1)] void main() {
             a[0] = Big<uint64_t>::value;
             b[0] = Neg<int64_t>::value;
             c[0] = Neg<half>::value;
             Neg<half>::type h = 0.5;
             c[1] = h;
             d[0] = Twice<21>::value;
         }",
    );
    assert_eq!(
        got,
        vec![
            s("u64", 1 << 33),
            s("i64", (-2i64) as u64),
            s("f16", 0xc100),
            s("f16", 0x3800),
            s("u32", 42),
        ]
    );
}

#[test]
fn member_types_and_nested_qualified_names() {
    let got = stored_constants(
        "template <typename T> struct Box {
             typedef T type;
             static const int size = sizeof(T);
             struct Inner { static const uint depth = 7; };
         };
         template <typename T> uint bytes() {
             typename Box<T>::type zero = 0;
             return Box<Box<T> >::Inner::depth + Box<T>::size + (uint)zero;
         }
         RWStructuredBuffer<uint> o;
         [numthreads(1, 1, 1)] void main() {
             o[0] = bytes<uint64_t>();
             o[1] = Box<int16_t>::size;
         }",
    );
    // The call is inlined or not; the second store is the folded size.
    assert_eq!(got.last(), Some(&s("u32", 2)));
}

/// A trait declared for every type and defined per type, as engine code
/// dispatches on types at compile time.
const TRAITS: &str = "
    template <typename S> struct Trait;
    template <> struct Trait<half> {
        using type = half;
        static const uint32_t size = 2;
        static const half one = 1.0;
    };
    template <> struct Trait<uint64_t> {
        typedef uint64_t type;
        static const uint32_t size = 8;
        static const uint64_t one = 1;
    };
    template <typename T, int N> struct Trait<vector<T, N> > {
        typedef T type;
        static const uint32_t size = Trait<T>::size * N;
    };
    template <typename T, int R, int C> struct Trait<matrix<T, R, C> > {
        static const uint32_t size = Trait<T>::size * R * C;
    };
";

#[test]
fn specialisations_are_chosen_over_the_primary_template() {
    let got = stored_constants(&format!(
        "{TRAITS}
         RWStructuredBuffer<uint> sizes; RWStructuredBuffer<half> h;
         RWStructuredBuffer<uint64_t> l;
         template <typename T> typename Trait<T>::type first() {{ return Trait<T>::one; }}
         [numthreads(1, 1, 1)] void main() {{
             sizes[0] = Trait<half>::size;
             sizes[1] = Trait<uint64_t>::size;
             sizes[2] = Trait<vector<half, 3> >::size;
             sizes[3] = Trait<uint64_t2x4>::size;
             Trait<half3>::type x = Trait<half>::one;
             h[0] = x;
             l[0] = Trait<uint64_t>::one;
         }}"
    ));
    assert_eq!(
        got,
        vec![
            s("u32", 2),
            s("u32", 8),
            s("u32", 6),
            s("u32", 64),
            s("f16", 0x3c00),
            s("u64", 1),
        ]
    );
}

/// On Vulkan: sizes and values picked through explicit and partial
/// specialisations, and a `bool_type<false>` specialisation of a value
/// template (the primary template would give `true`).
#[test]
fn specialised_traits_on_vulkan() {
    let out = run_outputs(
        "template <typename T> struct Trait;
         template <> struct Trait<float> { static const uint size = 4; static const float scale = 0.5; };
         template <> struct Trait<uint> { static const uint size = 40; static const float scale = 3.0; };
         template <typename T, int N> struct Trait<vector<T, N> > {
             static const uint size = Trait<T>::size * N;
             static const float scale = Trait<T>::scale * N;
         };
         template <bool B> struct Flag { static const bool value = B; };
         template <> struct Flag<false> { static const bool value = true; };
         template <typename T> uint scaled(uint x) { return (uint)(x * Trait<T>::scale) + Trait<T>::size; }
         RWStructuredBuffer<uint> o;
         [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
             o[0] = Trait<float>::size;
             o[1] = Trait<uint3>::size;
             o[2] = scaled<float>(id.x + 10);
             o[3] = scaled<uint2>(id.y + 10);
             o[4] = Flag<false>::value ? 7 : 9;
             o[5] = Flag<true>::value ? 11 : 13;
         }",
        6,
    );
    assert_eq!(out, vec![4, 120, 9, 140, 7, 11]);
}

/// `template<> uint code<float>(float x)`: instances with those arguments
/// (deduced or explicit) run the specialisation's body; others the
/// primary template's.
#[test]
fn function_specialisations_replace_the_body() {
    let out = run_outputs(
        "template <typename T> uint code(T x) { return 1; }
         template <> uint code<float>(float x) { return 2 + (uint)x; }
         template <> uint code<uint>(uint x) { return 30 + x; }
         template <typename T, int N> uint width() { return N; }
         template <> uint width<float, 8>() { return 800; }
         RWStructuredBuffer<uint> o;
         [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
             o[0] = code(1.0f);
             o[1] = code(id.x + 3);
             o[2] = code<int>(5);
             o[3] = code<float>(2.0);
             o[4] = width<float, 4>() + width<float, 8>();
         }",
        5,
    );
    assert_eq!(out, vec![3, 33, 1, 4, 804]);
}

/// An instance naming itself (`S<T>` inside `S`) is the instance being
/// made; one naming ever deeper instances stops at the nesting limit,
/// quickly (each instance is made once).
#[test]
fn instances_naming_themselves_or_deeper_ones() {
    let got = stored_constants(
        "template <typename T> struct S { static const int v = 3; static const int w = S<T>::v + 1; };
         RWStructuredBuffer<int> o;
         [numthreads(1, 1, 1)] void main() { o[0] = S<int>::w; }",
    );
    assert_eq!(got, vec![s("i32", 4)]);
    let t = fails_with(
        "template <typename T> struct D { typedef D<D<T> > deeper; static const int v = D<D<T> >::v; };
         RWStructuredBuffer<int> o;
         [numthreads(1, 1, 1)] void main() { o[0] = D<int>::v; }",
        "E0312",
    );
    assert!(t.contains("nested too deeply"), "{t}");
}

#[test]
fn variable_templates_and_their_specialisations() {
    // A variable template is instantiated per argument list; partial and
    // explicit specialisations pick their own values.
    let src = "template <class, class> static const bool is_same_v = false;\n\
               template <class T> static const bool is_same_v<T, T> = true;\n\
               template <typename T> static const uint size_v = sizeof(T);\n\
               template <> static const uint size_v<bool> = 99;\n\
               RWStructuredBuffer<uint> o;\n\
               [numthreads(1,1,1)] void main() {\n\
                 o[0] = is_same_v<int, bool>; o[1] = is_same_v<float, float>;\n\
                 o[2] = size_v<float3>; o[3] = size_v<bool>;\n\
               }";
    assert_eq!(run_outputs(src, 4), vec![0, 1, 12, 99]);
}

#[test]
fn static_members_of_struct_templates_defined_out_of_line() {
    // `template<typename T> const static T Table<T>::values[3] = …;`
    // defines the member of every instance, before or after it is made.
    let src = "template <typename T> struct Table {\n\
                 const static T values[3];\n\
                 static T pick(uint i) { return values[i]; }\n\
               };\n\
               typedef Table<uint> TU;\n\
               template <typename U> const static U Table<U>::values[3] = { 1, 2, 3 };\n\
               RWStructuredBuffer<uint> o;\n\
               [numthreads(1,1,1)] void main(uint i : SV_GroupIndex) {\n\
                 o[0] = Table<uint>::values[2]; o[1] = asuint(Table<float>::pick(i + 1)); o[2] = TU::values[0];\n\
               }";
    assert_eq!(run_outputs(src, 3), vec![3, 2.0f32.to_bits(), 1]);
    // Never instantiated: nothing to define.
    compile_valid(
        "template <typename T> struct S { const static T a[2]; };\n\
         template <typename T> const static T S<T>::a[2] = { 1, 2 };\n\
         [numthreads(1,1,1)] void main() { }",
        &[TargetEnv::Vulkan1_0],
    );
}

#[test]
fn using_declarations_name_functions_constants_and_types() {
    let src = "namespace n { namespace m {\n\
                 uint twice(uint x) { return 2 * x; }\n\
                 uint twice(uint2 x) { return 2 * (x.x + x.y); }\n\
                 static const uint k = 7;\n\
                 struct P { uint v; };\n\
               } }\n\
               uint twice(float x) { return 100; }\n\
               using n::m::twice;\n\
               using n::m::k;\n\
               using n::m::P;\n\
               RWStructuredBuffer<uint> o;\n\
               [numthreads(1,1,1)] void main() {\n\
                 P p; p.v = twice(k) + twice(uint2(1, 2));\n\
                 o[0] = p.v; o[1] = twice(1.5f);\n\
               }";
    assert_eq!(run_outputs(src, 2), vec![20, 100]);
}
