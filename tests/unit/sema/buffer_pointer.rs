//! `vk::BufferPointer<T, A>`: PhysicalStorageBuffer pointers as values
//! (in push constants, cbuffers, structured buffers, locals and
//! parameters), `.Get()` as a place with `Aligned` accesses, forward
//! pointers for linked structures, conversions and casts, the aliasing
//! decorations, and runs on a real driver.

use super::*;

fn text_of(src: &str, env: TargetEnv) -> String {
    common::spirv_dis(&compile_valid_words(src, env))
}

/// At -O0, so that locals stay variables.
fn text_unoptimized(src: &str) -> String {
    let mut o = options();
    o.target_env = TargetEnv::Vulkan1_2;
    o.opt_level = 0;
    common::spirv_dis(&compile_valid_words_with(src, &o))
}

fn lines_with<'t>(text: &'t str, parts: &[&str]) -> Vec<&'t str> {
    text.lines()
        .filter(|l| parts.iter().all(|p| l.contains(p)))
        .collect()
}

const GLOBALS: &str = r#"
struct Globals { float4 a; float4 b; uint c; };
typedef vk::BufferPointer<Globals> GlobalsPtr;
struct PC { GlobalsPtr globals; };
[[vk::push_constant]] PC pc;
cbuffer Params { vk::BufferPointer<uint, 32> counter; vk::BufferPointer<float2x2> m; };
RWStructuredBuffer<GlobalsPtr> table;
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main() {
  o[0] = pc.globals.Get().b;
  pc.globals.Get().a.yz = float2(1, 2);
  counter.Get() = counter.Get() + pc.globals.Get().c;
  table[1] = pc.globals;
  o[1] = table[0].Get().a + m.Get()[1].x;
}
"#;

#[test]
fn buffer_pointers_are_physical_storage_buffer_pointers() {
    let text = text_of(GLOBALS, TargetEnv::Vulkan1_0);
    for line in [
        "OpCapability PhysicalStorageBufferAddresses",
        "OpExtension \"SPV_KHR_physical_storage_buffer\"",
        "OpMemoryModel PhysicalStorageBuffer64 GLSL450",
        "%_ptr_PhysicalStorageBuffer_Globals = OpTypePointer PhysicalStorageBuffer %Globals",
        "OpTypePointer PhysicalStorageBuffer %uint",
        // The pointee is laid out as in a storage buffer (std430: `c`
        // right after `b`), even when the pointer is in a cbuffer.
        "OpMemberDecorate %Globals 2 Offset 32",
        // Pointers are 8 bytes in every block.
        "OpDecorate %_runtimearr__ptr_PhysicalStorageBuffer_Globals ArrayStride 8",
        "OpMemberDecorate %type_Params 1 Offset 8",
    ] {
        assert!(text.contains(line), "missing `{line}`:\n{text}");
    }
    // A member at offset 16 of a 16-aligned struct: Aligned 16; the
    // uint pointer promises 32.
    assert!(
        !lines_with(&text, &["OpLoad %v4float", "Aligned 16"]).is_empty(),
        "{text}"
    );
    assert!(
        !lines_with(&text, &["OpLoad %uint", "Aligned 32"]).is_empty(),
        "{text}"
    );
    assert!(
        !lines_with(&text, &["OpStore", "Aligned 32"]).is_empty(),
        "{text}"
    );
    // `.yz` of a float4 at offset 0: the y component is at 4.
    assert!(
        !lines_with(&text, &["OpStore", "Aligned 4"]).is_empty(),
        "{text}"
    );
    // Vulkan 1.2 has the extension in core.
    let text = text_of(GLOBALS, TargetEnv::Vulkan1_2);
    assert!(!text.contains("SPV_KHR_physical_storage_buffer"), "{text}");
}

const LIST: &str = r#"
struct Node;
typedef vk::BufferPointer<Node> NodePtr;
struct Node { float value; uint visits; NodePtr next; };
struct PC { NodePtr head; uint64_t result; };
[[vk::push_constant]] PC pc;
[numthreads(1, 1, 1)]
void main() {
  NodePtr p = pc.head;
  float sum = 0;
  uint count = 0;
  while ((uint64_t)p != 0) {
    sum += p.Get().value;
    p.Get().visits += 1;
    count++;
    p = p.Get().next;
  }
  vk::BufferPointer<float2, 8>(pc.result).Get() = float2(sum, count);
}
"#;

#[test]
fn linked_structures_use_forward_pointers() {
    let text = text_of(LIST, TargetEnv::Vulkan1_2);
    let fwd = "OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_Node PhysicalStorageBuffer";
    assert!(text.contains(fwd), "{text}");
    assert!(
        text.contains("%Node = OpTypeStruct %float %uint %_ptr_PhysicalStorageBuffer_Node"),
        "{text}"
    );
    assert!(text.contains("OpMemberDecorate %Node 2 Offset 8"), "{text}");
    // The forward declaration comes before the struct that names it.
    let (f, s) = (text.find(fwd), text.find("%Node = OpTypeStruct"));
    assert!(f < s, "{text}");
    // Reading `next` (offset 8 of an 8-aligned node): Aligned 8.
    assert!(
        !lines_with(
            &text,
            &["OpLoad %_ptr_PhysicalStorageBuffer_Node", "Aligned 8"]
        )
        .is_empty(),
        "{text}"
    );
    assert!(text.contains("OpConvertPtrToU %ulong"), "{text}");
    assert!(
        text.contains("OpConvertUToPtr %_ptr_PhysicalStorageBuffer_v2float"),
        "{text}"
    );
}

#[test]
fn typedef_of_an_elaborated_struct_declares_it() {
    let src = r#"
typedef struct block_s block_t;
typedef vk::BufferPointer<block_t, 32> block_p;
struct block_s { float4 x; block_p next; };
struct PC { block_p root; };
[[vk::push_constant]] PC pc;
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main() { o[0] = pc.root.Get().next.Get().x; }
"#;
    let text = text_of(src, TargetEnv::Vulkan1_2);
    assert!(text.contains("OpTypeForwardPointer"), "{text}");
    assert!(
        !lines_with(&text, &["OpLoad %v4float", "Aligned 32"]).is_empty(),
        "{text}"
    );
}

#[test]
fn conversions_and_pointer_casts() {
    let src = r#"
struct Base { int b; };
struct Derived : Base { int val; };
template <typename T> struct Accessor { vk::BufferPointer<T> ptr; };
cbuffer Test {
  vk::BufferPointer<Derived, 32> derived;
  vk::BufferPointer<int> ints;
  uint64_t address;
};
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() {
  vk::BufferPointer<Base, 16> base = vk::static_pointer_cast<Base, 16>(derived);
  vk::BufferPointer<float> floats = vk::reinterpret_pointer_cast<float>(ints);
  ints.Get() = (int)floats.Get() + base.Get().b;
  vk::BufferPointer<uint> u = vk::BufferPointer<uint>(address + 4);
  // A struct of one pointer from that pointer (a flattening cast).
  Accessor<int> acc = Accessor<int>(ints);
  acc.ptr.Get() += 3;
  o[0] = u.Get() + (uint)((uint64_t)ints) + ((bool)ints ? 1 : 0) + sizeof(ints);
}
"#;
    let text = text_of(src, TargetEnv::Vulkan1_3);
    assert!(
        text.contains("OpBitcast %_ptr_PhysicalStorageBuffer_float"),
        "{text}"
    );
    assert!(
        text.contains("OpBitcast %_ptr_PhysicalStorageBuffer_Base"),
        "{text}"
    );
    assert!(
        text.contains("OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint"),
        "{text}"
    );
    assert!(text.contains("OpConvertPtrToU %ulong"), "{text}");
    // `sizeof` of a pointer is 8.
    assert!(text.contains("%uint_8 = OpConstant %uint 8"), "{text}");
    assert!(
        !lines_with(&text, &["OpLoad %float", "Aligned 4"]).is_empty(),
        "{text}"
    );
}

#[test]
fn pointer_variables_say_whether_they_alias() {
    let src = r#"
struct S { float4 v; };
typedef vk::BufferPointer<S> P;
struct PC { P p; };
[[vk::push_constant]] PC pc;
static P kept;
void f([[vk::aliased_pointer]] P q) { q.Get().v = 1; }
[numthreads(1, 1, 1)]
void main() {
  [[vk::aliased_pointer]] P shared = pc.p;
  P own = pc.p;
  kept = own;
  shared.Get().v.x = 2;
  f(shared);
  own.Get().v.y = kept.Get().v.x;
}
"#;
    let text = text_unoptimized(src);
    assert!(text.contains("OpDecorate %shared AliasedPointer"), "{text}");
    assert!(text.contains("OpDecorate %own RestrictPointer"), "{text}");
    assert!(text.contains("OpDecorate %kept RestrictPointer"), "{text}");
    // The parameter itself, and its copy, which has the attribute.
    assert!(text.contains("OpDecorate %q Aliased"), "{text}");
    assert!(text.contains("OpDecorate %q_0 AliasedPointer"), "{text}");
}

#[test]
fn atomics_through_get() {
    let src = r#"
struct S { uint u; int i; };
struct PC { vk::BufferPointer<S> bp; };
[[vk::push_constant]] PC pc;
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() {
  uint before;
  InterlockedAdd(pc.bp.Get().u, 5, before);
  InterlockedMax(pc.bp.Get().i, -1);
  o[0] = before;
}
"#;
    let text = text_of(src, TargetEnv::Vulkan1_2);
    assert!(
        !lines_with(&text, &["OpAtomicIAdd %uint"]).is_empty(),
        "{text}"
    );
    assert!(
        !lines_with(&text, &["OpAtomicSMax %int"]).is_empty(),
        "{text}"
    );
}

#[test]
fn buffer_pointer_errors() {
    let wrap = |body: &str| {
        format!(
            "struct B {{ int x; }}; struct D : B {{ int y; }}; struct E {{ int z; }};\n\
             cbuffer C {{ vk::BufferPointer<D, 8> d; }}\n\
             RWStructuredBuffer<uint> o;\n\
             [numthreads(1,1,1)] void main() {{ {body} }}"
        )
    };
    let t = fails_with(&wrap("vk::BufferPointer<Texture2D> t;"), "E0312");
    assert!(t.contains("cannot point to a `Texture2D"), "{t}");
    let t = fails_with(&wrap("vk::BufferPointer<uint, 6> p;"), "E0312");
    assert!(t.contains("must be a power of two, not 6"), "{t}");
    let t = fails_with(
        &wrap("vk::BufferPointer<E> e = vk::static_pointer_cast<E>(d);"),
        "E0316",
    );
    assert!(t.contains("one of its bases"), "{t}");
    let t = fails_with(
        &wrap("vk::BufferPointer<B, 16> b = vk::static_pointer_cast<B, 16>(d);"),
        "E0316",
    );
    assert!(t.contains("greater alignment 16"), "{t}");
    let t = fails_with(&wrap("o[0] = d.Get(1).x;"), "E0311");
    assert!(t.contains("takes no arguments"), "{t}");
    // Another pointee is another type.
    let t = fails_with(&wrap("vk::BufferPointer<E> e = d;"), "E0304");
    assert!(t.contains("cannot convert"), "{t}");
    // Integers become pointers only when asked to.
    fails_with(&wrap("vk::BufferPointer<E> e = 64;"), "E0304");
}

/// The `float` at `offset` of `bytes`.
fn f32_at(bytes: &[u8], offset: usize) -> f32 {
    f32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

#[test]
fn runtime_raw_buffer_load_and_store_at_a_pushed_address() {
    let runner = vk::shared();
    if let Some(why) = runner.lacks_device_addresses() {
        eprintln!("skipped: {why}");
        return;
    }
    let src = r#"
struct PC { uint64_t address; uint n; };
[[vk::push_constant]] PC pc;
[numthreads(1, 1, 1)]
void main() {
  float sum = 0;
  for (uint i = 0; i < pc.n; i++) {
    float x = vk::RawBufferLoad<float>(pc.address + 4 * i);
    vk::RawBufferStore<float>(pc.address + 64 + 4 * i, x * 2 + i);
    sum += x;
  }
  double3 d = vk::RawBufferLoad<double3>(pc.address + 160, 8);
  vk::RawBufferStore<float2>(pc.address + 128, float2(sum, (float)(d.x + d.z)), 8);
}
"#;
    let words = compile_valid_words(src, TargetEnv::Vulkan1_2);
    let input: Vec<f32> = (0..10).map(|i| i as f32 * 1.5 - 3.0).collect();
    let n = input.len() as u32;
    let mut init = vec![0u8; 192];
    for (i, x) in input.iter().enumerate() {
        init[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    for (i, d) in [0.25f64, 100.0, 7.5].iter().enumerate() {
        init[160 + 8 * i..168 + 8 * i].copy_from_slice(&d.to_le_bytes());
    }
    let memory = runner
        .run_compute_at_address(
            &words,
            "main",
            &mut [],
            192,
            |address| {
                let mut pc = address.to_le_bytes().to_vec();
                pc.extend_from_slice(&n.to_le_bytes());
                pc.extend_from_slice(&[0; 4]);
                (init, pc)
            },
            [1, 1, 1],
        )
        .unwrap_or_else(|e| panic!("dispatch failed: {e}\n{}", common::spirv_dis(&words)));
    for (i, x) in input.iter().enumerate() {
        assert_eq!(
            f32_at(&memory, 64 + 4 * i),
            x * 2.0 + i as f32,
            "element {i}"
        );
        // What was read stays.
        assert_eq!(f32_at(&memory, 4 * i), *x);
    }
    assert_eq!(f32_at(&memory, 128), input.iter().sum::<f32>());
    assert_eq!(f32_at(&memory, 132), 7.75);
}

#[test]
fn runtime_buffer_pointer_linked_list() {
    let runner = vk::shared();
    if let Some(why) = runner.lacks_device_addresses() {
        eprintln!("skipped: {why}");
        return;
    }
    let words = compile_valid_words(LIST, TargetEnv::Vulkan1_2);
    // Six 16-byte nodes (value, visits, next); the list visits them in
    // `order`, and node 5 is left out. The result (sum, count) goes after
    // them.
    const NODE: usize = 16;
    let order = [3usize, 0, 4, 1, 2];
    let values = [1.5f32, -2.0, 4.25, 8.0, 0.5, 100.0];
    let out_offset = values.len() * NODE;
    let size = out_offset + 16;
    let memory = runner
        .run_compute_at_address(
            &words,
            "main",
            &mut [],
            size,
            |address| {
                let mut nodes = vec![0u8; size];
                for (i, v) in values.iter().enumerate() {
                    nodes[i * NODE..i * NODE + 4].copy_from_slice(&v.to_le_bytes());
                }
                for pair in order.windows(2) {
                    let next = address + (pair[1] * NODE) as u64;
                    let at = pair[0] * NODE + 8;
                    nodes[at..at + 8].copy_from_slice(&next.to_le_bytes());
                }
                let head = address + (order[0] * NODE) as u64;
                let mut pc = head.to_le_bytes().to_vec();
                pc.extend_from_slice(&(address + out_offset as u64).to_le_bytes());
                (nodes, pc)
            },
            [1, 1, 1],
        )
        .unwrap_or_else(|e| panic!("dispatch failed: {e}\n{}", common::spirv_dis(&words)));
    let total: f32 = order.iter().map(|&i| values[i]).sum();
    assert_eq!(f32_at(&memory, out_offset), total);
    assert_eq!(f32_at(&memory, out_offset + 4), order.len() as f32);
    // Each node on the list was written through `.Get()` once; the one off
    // it was not.
    for (i, v) in values.iter().enumerate() {
        let want = u32::from(order.contains(&i));
        assert_eq!(u32_at(&memory, i * NODE + 4), want, "visits of node {i}");
        assert_eq!(f32_at(&memory, i * NODE), *v);
    }
}
