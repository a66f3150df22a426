//! The operands of a core instruction called through
//! `[[vk::ext_instruction]]`, checked against the SPIR-V grammar before the
//! instruction is written: how many there are, which are ids and which are
//! literal words, and, for the memory instructions, which must be pointers
//! (`[[vk::ext_reference]]` parameters) and of which pointee type. A
//! mismatch would be a module that `spirv-val` refuses, found far from the
//! declaration that caused it.

use crate::diag::{Diagnostic, codes};
use crate::front::attributes::Attr;
use crate::sema::context::Sig;
use crate::sema::decl::find_attr;
use crate::sema::types::{self, TyId};
use rspirv::grammar::{Instruction, OperandKind, OperandQuantifier};
use spirv::Op;

/// What one operand of the grammar takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// An id: a value, or a pointer when passed by reference.
    Id,
    /// One literal word (a number or an enumerant).
    Word,
    /// Anything (strings, pairs): not checked.
    Any,
}

fn takes(kind: OperandKind) -> Takes {
    use OperandKind as K;
    match kind {
        K::IdRef | K::IdScope | K::IdMemorySemantics | K::IdResultType | K::IdResult => Takes::Id,
        K::LiteralString
        | K::LiteralContextDependentNumber
        | K::PairLiteralIntegerIdRef
        | K::PairIdRefLiteralInteger
        | K::PairIdRefIdRef => Takes::Any,
        _ => Takes::Word,
    }
}

/// The memory instructions: the operands (counted after the result) that
/// must be pointers, and the operands whose type must be the pointee type
/// of the first pointer, and whether the result (if any) has that type.
struct Memory {
    pointers: &'static [usize],
    same_type: &'static [usize],
    result_is_pointee: bool,
}

fn memory(op: Op) -> Option<Memory> {
    use Op as O;
    let m = |pointers, same_type, result_is_pointee| Memory {
        pointers,
        same_type,
        result_is_pointee,
    };
    Some(match op {
        O::Load => m(&[0], &[], true),
        O::Store => m(&[0], &[1], false),
        O::CopyMemory => m(&[0, 1], &[1], false),
        O::CopyMemorySized => m(&[0, 1], &[], false),
        O::AccessChain
        | O::InBoundsAccessChain
        | O::PtrAccessChain
        | O::InBoundsPtrAccessChain
        | O::ArrayLength => m(&[0], &[], false),
        O::AtomicLoad | O::AtomicIIncrement | O::AtomicIDecrement => m(&[0], &[], true),
        O::AtomicFlagTestAndSet | O::AtomicFlagClear => m(&[0], &[], false),
        O::AtomicStore
        | O::AtomicExchange
        | O::AtomicIAdd
        | O::AtomicISub
        | O::AtomicSMin
        | O::AtomicUMin
        | O::AtomicSMax
        | O::AtomicUMax
        | O::AtomicAnd
        | O::AtomicOr
        | O::AtomicXor
        | O::AtomicFMinEXT
        | O::AtomicFMaxEXT
        | O::AtomicFAddEXT => m(&[0], &[3], true),
        O::AtomicCompareExchange | O::AtomicCompareExchangeWeak => m(&[0], &[4, 5], true),
        O::CooperativeMatrixLoadKHR | O::CooperativeMatrixStoreKHR => m(&[0], &[], false),
        _ => return None,
    })
}

/// Checks the parameters of `sig` against the grammar of `g`; the error,
/// if any, says which operand is wrong and why.
/// `is_pointer` says whether a value of a type is itself a pointer (a
/// `vk::SpirvType` of `OpTypePointer`, a `vk::BufferPointer`).
pub(super) fn check(
    g: &Instruction<'_>,
    sig: &Sig<'_>,
    name: &str,
    is_pointer: impl Fn(TyId) -> bool,
) -> Option<Diagnostic> {
    let operands: Vec<_> = g
        .operands
        .iter()
        .filter(|o| !matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult))
        .collect();
    let required = operands
        .iter()
        .filter(|o| o.quantifier == OperandQuantifier::One)
        .count();
    let variadic = operands
        .iter()
        .any(|o| o.quantifier != OperandQuantifier::One);
    let n = sig.params.len();
    if n < required || (!variadic && n > required) {
        let span = sig.params.get(required).map(|p| p.span);
        let mut d = Diagnostic::error(
            codes::WRONG_ARG_COUNT,
            format!(
                "`Op{}` takes {}{required} operand{}, but `{name}` has {n} parameter{}",
                g.opname,
                if variadic { "at least " } else { "" },
                if required == 1 { "" } else { "s" },
                if n == 1 { "" } else { "s" },
            ),
        )
        .note("each parameter of a `vk::ext_instruction` function is one operand, after the result");
        if let Some(span) = span {
            d = d.label(span, "one parameter too many");
        }
        return Some(d);
    }
    // The operands before the first optional or repeated one sit at known
    // positions; after it, enumerants may bring operands of their own.
    for (i, (o, p)) in operands.iter().zip(&sig.params).enumerate() {
        if o.quantifier != OperandQuantifier::One {
            break;
        }
        let literal = find_attr(p.attrs, Attr::VkExtLiteral).is_some();
        let problem = match (takes(o.kind), literal) {
            (Takes::Id, true) => "an id, but the parameter is `vk::ext_literal`",
            (Takes::Word, false) => "a literal word; declare the parameter `[[vk::ext_literal]]`",
            _ => continue,
        };
        return Some(
            Diagnostic::error(
                codes::TYPE_MISMATCH,
                format!("operand {} of `Op{}` is {problem}", i + 1, g.opname),
            )
            .label(p.span, format!("operand {} ({:?})", i + 1, o.kind)),
        );
    }
    let mem = memory(g.opcode)?;
    let is_ref = |i: usize| find_attr(sig.params[i].attrs, Attr::VkExtReference).is_some();
    for &i in mem.pointers {
        if i < n && !is_ref(i) && !is_pointer(sig.params[i].ty) {
            return Some(
                Diagnostic::error(
                    codes::TYPE_MISMATCH,
                    format!("operand {} of `Op{}` must be a pointer", i + 1, g.opname),
                )
                .label(sig.params[i].span, "a value, not a reference or a pointer")
                .note("declare the parameter `[[vk::ext_reference]]` so that the call passes the variable itself"),
            );
        }
    }
    // The pointee type is known when the pointer is a reference.
    if !is_ref(mem.pointers[0]) {
        return None;
    }
    let pointee: TyId = sig.params[mem.pointers[0]].ty;
    let same = |ty: TyId| ty == pointee;
    for &i in mem.same_type {
        if let Some(p) = sig.params.get(i)
            && (!same(p.ty) || (is_ref(i) && !mem.pointers.contains(&i)))
        {
            return Some(
                Diagnostic::error(
                    codes::TYPE_MISMATCH,
                    format!(
                        "operand {} of `Op{}` must be a value of the type operand 1 points to",
                        i + 1,
                        g.opname
                    ),
                )
                .label(p.span, "a different type, or a reference")
                .label(sig.params[mem.pointers[0]].span, "operand 1"),
            );
        }
    }
    if mem.result_is_pointee && sig.ret != types::VOID && !same(sig.ret) {
        return Some(
            Diagnostic::error(
                codes::TYPE_MISMATCH,
                format!(
                    "the result of `Op{}` has the type operand 1 points to, but `{name}` returns another",
                    g.opname
                ),
            )
            .label(sig.params[mem.pointers[0]].span, "operand 1"),
        );
    }
    None
}
