//! The object types of work graphs (SM 6.8 node shaders): a node's input
//! records, its outputs, and the output records it allocates.

use super::{ERROR, Ty, TyId};
use crate::diag::codes;
use crate::front::ast;
use crate::sema::Sema;
use crate::sema::types::resolve::Env;
use crate::span::Span;

/// What a work graph object is. Its record type (`T` of `…<T>`) is kept
/// beside it in [`Ty::Node`]; the `Empty*` objects have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeObj {
    /// `[RW]DispatchNodeInputRecord<T>`: a broadcasting node's one record.
    DispatchInput { rw: bool },
    /// `[RW]GroupNodeInputRecords<T>`: a coalescing node's records.
    GroupInputs { rw: bool },
    /// `[RW]ThreadNodeInputRecord<T>`: a thread node's one record.
    ThreadInput { rw: bool },
    /// `EmptyNodeInput`: a count of records without data.
    EmptyInput,
    /// `NodeOutput<T>`, `EmptyNodeOutput` (no record type).
    Output,
    /// `NodeOutputArray<T>`, `EmptyNodeOutputArray`: outputs by index.
    OutputArray,
    /// `ThreadNodeOutputRecords<T>`: records allocated per thread.
    ThreadRecords,
    /// `GroupNodeOutputRecords<T>`: records allocated per thread group.
    GroupRecords,
}

impl NodeObj {
    /// The kind of a built-in type name, and whether it takes a record
    /// type.
    pub fn from_name(name: &str) -> Option<(NodeObj, bool)> {
        use NodeObj as N;
        Some(match name {
            "DispatchNodeInputRecord" => (N::DispatchInput { rw: false }, true),
            "RWDispatchNodeInputRecord" => (N::DispatchInput { rw: true }, true),
            "GroupNodeInputRecords" => (N::GroupInputs { rw: false }, true),
            "RWGroupNodeInputRecords" => (N::GroupInputs { rw: true }, true),
            "ThreadNodeInputRecord" => (N::ThreadInput { rw: false }, true),
            "RWThreadNodeInputRecord" => (N::ThreadInput { rw: true }, true),
            "EmptyNodeInput" => (N::EmptyInput, false),
            "NodeOutput" => (N::Output, true),
            "NodeOutputArray" => (N::OutputArray, true),
            "EmptyNodeOutput" => (N::Output, false),
            "EmptyNodeOutputArray" => (N::OutputArray, false),
            "ThreadNodeOutputRecords" => (N::ThreadRecords, true),
            "GroupNodeOutputRecords" => (N::GroupRecords, true),
            _ => return None,
        })
    }

    /// The HLSL name of the type (with its record type `T`, if any).
    pub fn name(self, record: Option<&str>) -> String {
        use NodeObj as N;
        let base = match (self, record.is_some()) {
            (N::DispatchInput { rw }, _) => rw_prefix(rw, "DispatchNodeInputRecord"),
            (N::GroupInputs { rw }, _) => rw_prefix(rw, "GroupNodeInputRecords"),
            (N::ThreadInput { rw }, _) => rw_prefix(rw, "ThreadNodeInputRecord"),
            (N::EmptyInput, _) => "EmptyNodeInput".to_string(),
            (N::Output, true) => "NodeOutput".to_string(),
            (N::Output, false) => "EmptyNodeOutput".to_string(),
            (N::OutputArray, true) => "NodeOutputArray".to_string(),
            (N::OutputArray, false) => "EmptyNodeOutputArray".to_string(),
            (N::ThreadRecords, _) => "ThreadNodeOutputRecords".to_string(),
            (N::GroupRecords, _) => "GroupNodeOutputRecords".to_string(),
        };
        match record {
            Some(r) => format!("{base}<{r}>"),
            None => base,
        }
    }

    /// A node's input (its one parameter of input kind).
    pub fn is_input(self) -> bool {
        matches!(
            self,
            NodeObj::DispatchInput { .. }
                | NodeObj::GroupInputs { .. }
                | NodeObj::ThreadInput { .. }
                | NodeObj::EmptyInput
        )
    }

    /// Input records the node may write (`RW…`).
    pub fn writable(self) -> bool {
        matches!(
            self,
            NodeObj::DispatchInput { rw: true }
                | NodeObj::GroupInputs { rw: true }
                | NodeObj::ThreadInput { rw: true }
                | NodeObj::ThreadRecords
                | NodeObj::GroupRecords
        )
    }
}

fn rw_prefix(rw: bool, base: &str) -> String {
    if rw {
        format!("RW{base}")
    } else {
        base.to_string()
    }
}

impl<'a> Sema<'a> {
    /// `DispatchNodeInputRecord<T>` and the other work graph objects: the
    /// record type must be a struct (Work Graphs spec, "Node input
    /// declaration").
    pub(in crate::sema) fn node_object_type(
        &mut self,
        name: &str,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TyId> {
        let (obj, takes_record) = NodeObj::from_name(name)?;
        if !takes_record {
            if args.is_some_and(|a| !a.is_empty()) {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("`{name}` takes no record type"),
                    span,
                    "unexpected template argument",
                );
                return Some(ERROR);
            }
            return Some(self.types.intern(Ty::Node(obj, None, 0)));
        }
        let Some(arg) = args.and_then(|a| a.first()) else {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!("`{name}` needs a record type: `{name}<RECORD>`"),
                span,
                "missing template argument",
            );
            return Some(ERROR);
        };
        let record = self.template_type_arg(arg, env);
        if record == ERROR {
            return Some(record);
        }
        if !matches!(self.types.get(record), Ty::Struct(_)) || self.types.contains_resource(record)
        {
            let shown = self.ty_name(record);
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!("the record type of `{name}` must be a struct of data, not `{shown}`"),
                span,
                "not a record struct",
            );
            return Some(ERROR);
        }
        Some(self.types.intern(Ty::Node(obj, Some(record), 0)))
    }
}
