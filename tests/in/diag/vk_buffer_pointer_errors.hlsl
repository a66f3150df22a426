// args: -T cs_6_0 -E main
struct Base { int b; };
struct Derived : Base { int d; };
struct Other { int o; };

cbuffer Params {
  vk::BufferPointer<Derived, 8> derived;
};
RWStructuredBuffer<int> o;

[numthreads(1, 1, 1)]
void main() {
  // Only data has a place in buffer memory.
  vk::BufferPointer<Texture2D> texture;
  // The alignment must be a power of two.
  vk::BufferPointer<int, 12> odd;
  // A static cast goes to the pointee's own type or one of its bases.
  vk::BufferPointer<Other> other = vk::static_pointer_cast<Other>(derived);
  // Neither cast may promise more alignment than the pointer has.
  vk::BufferPointer<Base, 16> base = vk::static_pointer_cast<Base, 16>(derived);
  o[0] = derived.Get().d;
}
