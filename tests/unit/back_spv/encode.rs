//! The backend's word encoders against rspirv's assembly of the same
//! instruction: `encode_words` and `encode_joined` write each word in
//! place after one reservation, which must give the same words whatever
//! room the buffer has left.

use crate::back::spv::{encode, encode_joined, encode_words};
use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Operand};
use spirv::{Op, Word};

/// The words rspirv assembles for the instruction.
fn reference(op: Op, ty: Option<Word>, id: Option<Word>, operands: &[Word]) -> Vec<u32> {
    let operands = operands.iter().map(|&w| Operand::IdRef(w)).collect();
    let mut words = Vec::new();
    Instruction::new(op, ty, id, operands).assemble_into(&mut words);
    words
}

/// Buffers in the states an encoder meets: empty, full (the reservation
/// grows it), and with some room, each already holding words.
fn buffers() -> Vec<Vec<u32>> {
    let mut full = vec![7u32; 5];
    full.shrink_to_fit();
    let mut roomy = Vec::with_capacity(64);
    roomy.extend([9, 9, 9]);
    let mut tight = Vec::with_capacity(4);
    tight.extend([1, 2, 3]);
    vec![Vec::new(), full, roomy, tight]
}

#[test]
fn encode_words_matches_rspirv() {
    let operands: Vec<Word> = (100..108).collect();
    for ty in [None, Some(11)] {
        for id in [None, Some(12)] {
            for n in 0..=operands.len() {
                let ops = &operands[..n];
                for mut words in buffers() {
                    let before = words.clone();
                    encode_words(&mut words, Op::ExtInst, ty, id, ops);
                    let mut expected = before;
                    expected.extend(reference(Op::ExtInst, ty, id, ops));
                    assert_eq!(words, expected, "type {ty:?}, id {id:?}, {n} operands");
                }
            }
        }
    }
}

#[test]
fn encode_joined_matches_rspirv() {
    let tail: Vec<Word> = (200..205).collect();
    for head in [&[][..], &[1][..], &[1, 2, 3][..]] {
        for n in 0..=tail.len() {
            for mut words in buffers() {
                let before = words.clone();
                encode_joined(&mut words, Op::Decorate, head, &tail[..n]);
                let all: Vec<Word> = head.iter().chain(&tail[..n]).copied().collect();
                let mut expected = before;
                expected.extend(reference(Op::Decorate, None, None, &all));
                assert_eq!(words, expected, "{} head words, {n} tail words", head.len());
            }
        }
    }
}

#[test]
fn encode_writes_one_word_operands_as_rspirv_does() {
    let operands = [
        Operand::IdRef(5),
        Operand::LiteralBit32(6),
        Operand::StorageClass(spirv::StorageClass::Uniform),
        Operand::LiteralBit64(0x1_0000_0002),
        Operand::LiteralString("abcde".into()),
    ];
    for n in 0..=operands.len() {
        let ops = &operands[..n];
        let mut words = vec![3];
        encode(&mut words, Op::Constant, Some(1), Some(2), ops);
        let mut expected = vec![3];
        Instruction::new(Op::Constant, Some(1), Some(2), ops.to_vec()).assemble_into(&mut expected);
        assert_eq!(words, expected, "{n} operands");
    }
}
