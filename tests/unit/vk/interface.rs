//! Reads what a SPIR-V module declares — its version, entry points, the
//! descriptors and push constants it uses — so that a mismatch with the
//! resources a test gives becomes an error message instead of undefined
//! behaviour (or a crash) in the driver.
//!
//! A plain word scanner: it must never panic on arbitrary words, because the
//! modules come from the compiler under test.

use ash::vk;
use std::collections::HashMap;

/// SPIR-V magic number (SPIR-V spec 2.3, "Physical Layout").
const MAGIC: u32 = 0x0723_0203;

// Opcodes and enumerants from the SPIR-V specification (section 3).
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
const OP_EXECUTION_MODE_ID: u32 = 331;
const MODE_LOCAL_SIZE: u32 = 17;
const MODE_LOCAL_SIZE_ID: u32 = 38;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_SAMPLER: u32 = 26;
const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_TYPE_ACCELERATION_STRUCTURE: u32 = 5341;
const DECORATION_BLOCK: u32 = 2;
const DECORATION_BUFFER_BLOCK: u32 = 3;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const SC_UNIFORM_CONSTANT: u32 = 0;
const SC_UNIFORM: u32 = 2;
const SC_PUSH_CONSTANT: u32 = 9;
const SC_STORAGE_BUFFER: u32 = 12;
const DIM_BUFFER: u32 = 5;
/// `ExecutionModel GLCompute`.
pub const MODEL_GLCOMPUTE: u32 = 5;
/// `ExecutionModel Vertex`.
pub const MODEL_VERTEX: u32 = 0;
/// `ExecutionModel Fragment`.
pub const MODEL_FRAGMENT: u32 = 4;
/// `ExecutionModel TessellationControl`.
pub const MODEL_TESS_CONTROL: u32 = 1;
/// `ExecutionModel TessellationEvaluation`.
pub const MODEL_TESS_EVALUATION: u32 = 2;
/// `ExecutionModel Geometry`.
pub const MODEL_GEOMETRY: u32 = 3;

/// How many descriptors a binding declares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Count {
    One,
    /// `T name[N]`.
    Fixed(u32),
    /// `T name[]`: as many as the layout gives.
    Runtime,
}

/// A descriptor the module declares.
#[derive(Clone, Debug)]
pub struct Declared {
    pub set: u32,
    pub binding: u32,
    /// `None` when the type is not one the runner knows.
    pub ty: Option<vk::DescriptorType>,
    pub count: Count,
}

#[derive(Clone, Debug)]
pub struct EntryPoint {
    pub model: u32,
    pub name: String,
    function: u32,
    interface: Vec<u32>,
}

/// What [`scan`] found.
#[derive(Debug)]
pub struct Interface {
    /// (major, minor) from the header.
    pub version: (u32, u32),
    pub entry_points: Vec<EntryPoint>,
    variables: Vec<Variable>,
    decorations: HashMap<u32, Decorations>,
    types: HashMap<u32, Type>,
    constants: HashMap<u32, u32>,
    /// LocalSize literals, or LocalSizeId ids, per entry function.
    local_size: HashMap<u32, LocalSize>,
}

#[derive(Clone, Copy, Debug)]
enum LocalSize {
    Literal([u32; 3]),
    Ids([u32; 3]),
}

#[derive(Clone, Copy, Debug, Default)]
struct Decorations {
    set: Option<u32>,
    binding: Option<u32>,
    block: bool,
    buffer_block: bool,
}

#[derive(Clone, Copy, Debug)]
enum Type {
    Image { dim: u32, sampled: u32 },
    Sampler,
    SampledImage,
    AccelerationStructure,
    Array { element: u32, length: u32 },
    RuntimeArray { element: u32 },
    Struct,
    Pointer { storage_class: u32, pointee: u32 },
}

#[derive(Clone, Copy, Debug)]
struct Variable {
    id: u32,
    pointer_type: u32,
    storage_class: u32,
}

/// Scans a module's header and global declarations.
pub fn scan(words: &[u32]) -> Result<Interface, String> {
    if words.len() < 5 {
        return Err(format!(
            "not a SPIR-V module: {} words, a header needs 5",
            words.len()
        ));
    }
    if words[0] != MAGIC {
        return Err(if words[0] == MAGIC.swap_bytes() {
            "SPIR-V module has the wrong byte order (words must be little-endian u32s)".into()
        } else {
            format!("not a SPIR-V module: magic number {:#010x}", words[0])
        });
    }
    let version = ((words[1] >> 16) & 0xff, (words[1] >> 8) & 0xff);
    let mut iface = Interface {
        version,
        entry_points: Vec::new(),
        variables: Vec::new(),
        decorations: HashMap::new(),
        types: HashMap::new(),
        constants: HashMap::new(),
        local_size: HashMap::new(),
    };
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return Err(format!(
                "malformed SPIR-V: instruction at word {at} (opcode {opcode}) claims {count} words"
            ));
        }
        let ops = &words[at + 1..at + count];
        let w = |i: usize| ops.get(i).copied().unwrap_or(0);
        match opcode {
            OP_FUNCTION => break, // globals all come before the first function
            OP_ENTRY_POINT if ops.len() >= 3 => {
                let (name, used) = literal_string(&ops[2..]);
                iface.entry_points.push(EntryPoint {
                    model: ops[0],
                    function: ops[1],
                    name,
                    interface: ops[2 + used..].to_vec(),
                });
            }
            OP_EXECUTION_MODE if ops.len() >= 5 && ops[1] == MODE_LOCAL_SIZE => {
                iface
                    .local_size
                    .insert(ops[0], LocalSize::Literal([ops[2], ops[3], ops[4]]));
            }
            OP_EXECUTION_MODE_ID if ops.len() >= 5 && ops[1] == MODE_LOCAL_SIZE_ID => {
                iface
                    .local_size
                    .insert(ops[0], LocalSize::Ids([ops[2], ops[3], ops[4]]));
            }
            OP_DECORATE if ops.len() >= 2 => {
                let d = iface.decorations.entry(ops[0]).or_default();
                match ops[1] {
                    DECORATION_BLOCK => d.block = true,
                    DECORATION_BUFFER_BLOCK => d.buffer_block = true,
                    DECORATION_BINDING => d.binding = Some(w(2)),
                    DECORATION_DESCRIPTOR_SET => d.set = Some(w(2)),
                    _ => {}
                }
            }
            OP_TYPE_IMAGE if ops.len() >= 7 => {
                iface.types.insert(
                    ops[0],
                    Type::Image {
                        dim: ops[2],
                        sampled: ops[6],
                    },
                );
            }
            OP_TYPE_SAMPLER => {
                iface.types.insert(w(0), Type::Sampler);
            }
            OP_TYPE_SAMPLED_IMAGE => {
                iface.types.insert(w(0), Type::SampledImage);
            }
            OP_TYPE_ACCELERATION_STRUCTURE => {
                iface.types.insert(w(0), Type::AccelerationStructure);
            }
            OP_TYPE_ARRAY if ops.len() >= 3 => {
                iface.types.insert(
                    ops[0],
                    Type::Array {
                        element: ops[1],
                        length: ops[2],
                    },
                );
            }
            OP_TYPE_RUNTIME_ARRAY if ops.len() >= 2 => {
                iface
                    .types
                    .insert(ops[0], Type::RuntimeArray { element: ops[1] });
            }
            OP_TYPE_STRUCT => {
                iface.types.insert(w(0), Type::Struct);
            }
            OP_TYPE_POINTER if ops.len() >= 3 => {
                iface.types.insert(
                    ops[0],
                    Type::Pointer {
                        storage_class: ops[1],
                        pointee: ops[2],
                    },
                );
            }
            // 32-bit integer constants (array lengths); wider ones have more words.
            OP_CONSTANT if ops.len() == 3 => {
                iface.constants.insert(ops[1], ops[2]);
            }
            OP_VARIABLE if ops.len() >= 3 => iface.variables.push(Variable {
                id: ops[1],
                pointer_type: ops[0],
                storage_class: ops[2],
            }),
            _ => {}
        }
        at += count;
    }
    Ok(iface)
}

/// A nul-terminated UTF-8 literal packed into words (SPIR-V spec 2.2.1),
/// and how many words it took.
fn literal_string(words: &[u32]) -> (String, usize) {
    let mut bytes = Vec::new();
    for (i, w) in words.iter().enumerate() {
        for b in w.to_le_bytes() {
            if b == 0 {
                return (String::from_utf8_lossy(&bytes).into_owned(), i + 1);
            }
            bytes.push(b);
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), words.len())
}

impl Interface {
    /// The entry point `name` of execution model `model`.
    pub fn entry_point(&self, name: &str, model: u32) -> Option<&EntryPoint> {
        self.entry_points
            .iter()
            .find(|e| e.name == name && e.model == model)
    }

    /// Variables that `entry` may use. From SPIR-V 1.4 the entry point's
    /// interface lists every global it uses (SPIR-V spec, OpEntryPoint);
    /// before that it lists only inputs and outputs, so every global counts.
    fn used_by(&self, entry: &EntryPoint) -> impl Iterator<Item = &Variable> {
        let listed = self.version >= (1, 4);
        self.variables
            .iter()
            .filter(move |v| !listed || entry.interface.contains(&v.id))
    }

    /// The descriptors `entry` may use.
    pub fn descriptors(&self, entry: &EntryPoint) -> Vec<Declared> {
        let mut out = Vec::new();
        for v in self.used_by(entry) {
            let deco = self.decorations.get(&v.id).copied().unwrap_or_default();
            let (Some(set), Some(binding)) = (deco.set, deco.binding) else {
                continue;
            };
            let Some(&Type::Pointer { pointee, .. }) = self.types.get(&v.pointer_type) else {
                continue;
            };
            // Strip one level of descriptor array.
            let (element, count) = match self.types.get(&pointee) {
                Some(&Type::Array { element, length }) => match self.constants.get(&length) {
                    Some(&n) => (element, Count::Fixed(n)),
                    None => (element, Count::Runtime), // spec-constant length: unknown here
                },
                Some(&Type::RuntimeArray { element }) => (element, Count::Runtime),
                _ => (pointee, Count::One),
            };
            let ty = match v.storage_class {
                SC_STORAGE_BUFFER => Some(vk::DescriptorType::STORAGE_BUFFER),
                // Before SPIR-V 1.3 storage buffers are Uniform + BufferBlock.
                SC_UNIFORM => {
                    let d = self.decorations.get(&element).copied().unwrap_or_default();
                    Some(if d.buffer_block {
                        vk::DescriptorType::STORAGE_BUFFER
                    } else {
                        vk::DescriptorType::UNIFORM_BUFFER
                    })
                }
                SC_UNIFORM_CONSTANT => match self.types.get(&element) {
                    Some(&Type::Image {
                        dim: DIM_BUFFER,
                        sampled,
                    }) => Some(if sampled == 2 {
                        vk::DescriptorType::STORAGE_TEXEL_BUFFER
                    } else {
                        vk::DescriptorType::UNIFORM_TEXEL_BUFFER
                    }),
                    Some(&Type::Image { sampled, .. }) => Some(if sampled == 2 {
                        vk::DescriptorType::STORAGE_IMAGE
                    } else {
                        vk::DescriptorType::SAMPLED_IMAGE
                    }),
                    Some(Type::Sampler) => Some(vk::DescriptorType::SAMPLER),
                    Some(Type::SampledImage) => Some(vk::DescriptorType::COMBINED_IMAGE_SAMPLER),
                    Some(Type::AccelerationStructure) => {
                        Some(vk::DescriptorType::ACCELERATION_STRUCTURE_KHR)
                    }
                    _ => None,
                },
                _ => None,
            };
            out.push(Declared {
                set,
                binding,
                ty,
                count,
            });
        }
        out
    }

    /// The workgroup size of `entry` when the module states it with
    /// literals or plain constants (not specialization constants).
    pub fn local_size(&self, entry: &EntryPoint) -> Option<[u32; 3]> {
        match *self.local_size.get(&entry.function)? {
            LocalSize::Literal(l) => Some(l),
            LocalSize::Ids(ids) => {
                let mut out = [0; 3];
                for (o, id) in out.iter_mut().zip(ids) {
                    *o = *self.constants.get(&id)?;
                }
                Some(out)
            }
        }
    }

    /// Whether `entry` may use a push-constant block.
    pub fn uses_push_constants(&self, entry: &EntryPoint) -> bool {
        self.used_by(entry)
            .any(|v| v.storage_class == SC_PUSH_CONSTANT)
    }
}
