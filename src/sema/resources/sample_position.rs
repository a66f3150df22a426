//! `Texture2DMS(Array).GetSamplePosition(index)`: SPIR-V has no instruction
//! for it, so (SPIR-V.rst, "Texture2DMS") the position is looked up in the
//! standard sample patterns of 2, 4, 8 and 16 samples (D3D's standard
//! multisample quality levels), picked by `OpImageQuerySamples`; other
//! counts give (0, 0).

use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::calls::Arg;
use crate::sema::types::{self, Sc};
use crate::span::Span;

/// The standard sample positions, in sixteenths of a pixel from its centre,
/// for each sample count.
const PATTERNS: [(u32, &[(i8, i8)]); 4] = [
    (2, &[(4, 4), (-4, -4)]),
    (4, &[(-2, -6), (6, -2), (-6, 2), (2, 6)]),
    (
        8,
        &[
            (1, -3),
            (-1, 3),
            (5, 1),
            (-3, -5),
            (-5, 5),
            (-7, -1),
            (3, 7),
            (7, -7),
        ],
    ),
    (
        16,
        &[
            (1, 1),
            (-1, -3),
            (-3, 2),
            (4, -1),
            (-5, -2),
            (2, 5),
            (5, 3),
            (3, -5),
            (-2, 6),
            (0, -7),
            (-4, -6),
            (-6, 4),
            (-8, 0),
            (7, -4),
            (6, 7),
            (-7, -8),
        ],
    ),
];

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `GetSamplePosition(index)` of a multisampled texture: a `float2`.
    pub(in crate::sema) fn sample_position(&mut self, obj: Val, args: &[Arg], span: Span) -> Val {
        let [ia] = args else {
            return self.wrong_args("GetSamplePosition", span);
        };
        let Some(image) = self.value(&obj) else {
            return Val::error();
        };
        let Some(index) = self.arg_as(ia, types::INT) else {
            return Val::error();
        };
        let u = self.s.ir_ty(types::UINT);
        let count = self.add(
            ir::Expression::ImageQuery {
                image,
                query: ir::ImageQuery::NumSamples,
            },
            u,
        );
        let f2 = self.s.types.vector(Sc::F32, 2);
        let f2_ir = self.s.ir_ty(f2);
        let f2_ptr = self.ptr_type(f2_ir, ir::AddressSpace::Function);
        // Each table lives in a local, so the sample index can pick from it.
        let mut tables = Vec::new();
        for (n, pattern) in PATTERNS {
            let points: Vec<_> = pattern
                .iter()
                .map(|&(x, y)| {
                    let cx = self.lit(ir::Literal::f32(f32::from(x) / 16.0));
                    let cy = self.lit(ir::Literal::f32(f32::from(y) / 16.0));
                    self.compose(f2, vec![cx, cy])
                })
                .collect();
            let at = self.s.types.array(f2, Some(n));
            let table = self.compose(at, points);
            let at_ir = self.s.ir_ty(at);
            let var = self.local_var(Some(format!("GetSamplePosition.data.{n}")), at_ir, false);
            self.stmt(ir::Statement::Store {
                pointer: var,
                value: table,
            });
            tables.push((n, var));
        }
        let result = self.local_var(Some("GetSamplePosition.result".into()), f2_ir, false);
        // Innermost first: no known count gives (0, 0).
        let zero = self.zero(f2_ir);
        let mut reject = vec![ir::Statement::Store {
            pointer: result,
            value: zero,
        }];
        for (n, var) in tables.into_iter().rev() {
            self.push_block();
            let nl = self.u32_lit(n);
            let cond = self.binary_ir(
                ir::BinaryOperator::Equal,
                count,
                nl,
                types::UINT,
                types::BOOL,
            );
            let test = self.pop_block();
            self.push_block();
            let p = self.add(ir::Expression::Access { base: var, index }, f2_ptr);
            let v = self.add(ir::Expression::Load { pointer: p }, f2_ir);
            self.stmt(ir::Statement::Store {
                pointer: result,
                value: v,
            });
            let accept = self.pop_block();
            let mut block = test;
            block.push(ir::Statement::If {
                condition: cond,
                accept,
                reject,
                control: ir::SelectionControl::None,
            });
            reject = block;
        }
        for s in reject {
            self.stmt(s);
        }
        let h = self.add(ir::Expression::Load { pointer: result }, f2_ir);
        self.tag_span(h, span);
        Val::expr(f2, h)
    }
}
