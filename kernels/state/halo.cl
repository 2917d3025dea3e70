/* A run split among ranks (solver/RankCoupling.cpp): a rectangle of cells of up to four fields
 * copied into, or out of, a packed staging buffer, one field's cells after the other's, so that
 * a halo crosses to the host in one plain copy however narrow its strips (a column strip as a
 * rectangle copy moves a few bytes a row). (i0, j0): the rectangle's first cell in the block's
 * own coordinates (ghosts from -GHOST); at: where its first field starts in the staging buffer.
 * A work-item a cell. */
#define HALO_CELL(k) IDX(i0 + (k) % nx, j0 + (k) / nx)

__kernel void pack_halo(__global const real* f0,
  __global const real* f1,
  __global const real* f2,
  __global const real* f3,
  const int fields,
  const int i0,
  const int j0,
  const int nx,
  const int ny,
  __global real* staging,
  const int at)
{
  const int k = get_global_id(0), cells = nx * ny;
  if (k >= cells)
    return;
  const int c = HALO_CELL(k);
  __global real* out = staging + at + k;
  out[0] = f0[c];
  out[cells] = f1[c];
  out[2 * cells] = f2[c];
  if (fields > 3)
    out[3 * cells] = f3[c];
}

__kernel void unpack_halo(__global real* f0,
  __global real* f1,
  __global real* f2,
  __global real* f3,
  const int fields,
  const int i0,
  const int j0,
  const int nx,
  const int ny,
  __global const real* staging,
  const int at)
{
  const int k = get_global_id(0), cells = nx * ny;
  if (k >= cells)
    return;
  const int c = HALO_CELL(k);
  __global const real* in = staging + at + k;
  f0[c] = in[0];
  f1[c] = in[cells];
  f2[c] = in[2 * cells];
  if (fields > 3)
    f3[c] = in[3 * cells];
}
