// args: -T vs_6_0 -E main
// Integer matrices in buffers are stored row by row: they must be
// `row_major` (the default is column-major).
struct Tile { int2x3 cells; float weight; };
struct RowTile { row_major uint3x2 cells; };

cbuffer Grid {
    Tile tiles[4];
    row_major int2x2 ok;
    int2x2 not_ok;
};
StructuredBuffer<Tile> more_tiles;
StructuredBuffer<RowTile> fine_tiles;

float4 main() : SV_Position {
    return float4(tiles[1].cells[0][0], ok[0][0], fine_tiles[0].cells[0][0], 1);
}
