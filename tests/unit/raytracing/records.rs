//! Shader record buffers (`[[vk::shader_record_ext]]`): a Block in the
//! ShaderRecordBufferKHR storage class, laid out as a storage buffer, with
//! no descriptor set or binding.

use super::compile;
use rspirv::dr::Operand;
use spirv::{Decoration, Op, StorageClass as SC};

/// The decorations of `id` (as `OpDecorate` gives them), in order.
fn decorations(spv: &super::Spv, id: u32) -> Vec<Decoration> {
    spv.all(Op::Decorate)
        .into_iter()
        .filter(|i| i.operands[0] == Operand::IdRef(id))
        .map(|i| match i.operands[1] {
            Operand::Decoration(d) => d,
            ref o => panic!("bad decoration {o:?}"),
        })
        .collect()
}

/// The `Offset` of each member of struct `id`, by member index.
fn member_offsets(spv: &super::Spv, id: u32) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = spv
        .all(Op::MemberDecorate)
        .into_iter()
        .filter(|i| i.operands[0] == Operand::IdRef(id))
        .filter_map(|i| match i.operands[1..] {
            [
                Operand::LiteralBit32(m),
                Operand::Decoration(Decoration::Offset),
                Operand::LiteralBit32(off),
            ] => Some((m, off)),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// Both spellings, `ConstantBuffer<T>` and `cbuffer`: each a
/// ShaderRecordBufferKHR variable whose struct is a Block with storage
/// buffer offsets (a `float` right after a `float3`, an array of `float`
/// with a 4-byte stride: std430, not std140's 16), and neither gets a
/// DescriptorSet or Binding.
#[test]
fn shader_records_are_blocks_without_descriptors() {
    let src = r#"
struct Material { float3 tint; float gloss; float weights[3]; uint id; };
[[vk::shader_record_ext]] ConstantBuffer<Material> material;
[[vk::shader_record_ext]] cbuffer Extra { float4 bias; uint flags; };
struct Payload { float4 color; };
[shader("miss")]
void sky(inout Payload p) {
    p.color = float4(material.tint * material.gloss + material.weights[2], material.id)
            + bias * flags;
}
"#;
    let spv = compile(src, &["-T", "lib_6_3"]);
    let records = spv.variables_in(SC::ShaderRecordBufferKHR);
    assert_eq!(records.len(), 2);
    let mut layouts = Vec::new();
    for &v in &records {
        let deco = decorations(&spv, v);
        assert!(
            !deco.contains(&Decoration::DescriptorSet) && !deco.contains(&Decoration::Binding),
            "a shader record has no descriptor: {deco:?}"
        );
        let ptr = spv.def(spv.def(v).result_type.expect("typed"));
        let block = ptr.operands[1].unwrap_id_ref();
        assert!(decorations(&spv, block).contains(&Decoration::Block));
        layouts.push(member_offsets(&spv, block));
    }
    layouts.sort();
    assert_eq!(
        layouts,
        vec![
            vec![(0, 0), (1, 12), (2, 16), (3, 28)],
            vec![(0, 0), (1, 16)],
        ]
    );
}
