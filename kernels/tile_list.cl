/* The list of the tiles a step updates (TILE_LIST; dry_tiles.h, solver/DryTiles.h), built on the
 * device before each step launch as seed 003 builds a prefix sum: each group of TILE_LIST_WG
 * tiles marks the active ones and counts them (mark_active_tiles), then each group adds up the
 * counts of the groups before it and scans its own marks, and writes its active tiles' numbers
 * there (list_active_tiles). tile_list[0] is the count, the tiles follow in their order. The step
 * kernels' groups then walk the list, so a step over a grid that is mostly dry launches as many
 * groups as the GPU holds, not one a tile. */
#if TILE_LIST

#define TILE_LIST_WG 256

/* The exclusive prefix sum of the group's values, and their total into *total (Hillis-Steele in
 * local memory: every work-item of the group must call it). */
inline int group_exclusive_scan(__local int* scan, int value, int lid, int* total)
{
  scan[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 1; stride < TILE_LIST_WG; stride <<= 1)
  {
    const int before = lid >= stride ? scan[lid - stride] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scan[lid] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *total = scan[TILE_LIST_WG - 1];
  const int inclusive = scan[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  return inclusive - value;
}

/* Whether each tile is updated by the step that reads copy `tiles_read` and writes
 * `tiles_written` (tiles_active), and each group's count of them (block_counts). Where the
 * wave-speed partials are kept a tile (no atomics: reductions.h), a tile left out has none. */
__kernel __attribute__((reqd_work_group_size(TILE_LIST_WG, 1, 1))) void mark_active_tiles(
  TILE_ARGUMENTS, __global int* block_counts, __global real* partial_max)
{
  __local int scan[TILE_LIST_WG];
  const int t = get_global_id(0), lid = get_local_id(0);
  int active = 0;
  if (t < TILES_X * TILES_Y)
  {
    active = tile_updated(TILE_PARAMETERS, t % TILES_X, t / TILES_X, false, true) ? 1 : 0;
#if !SPEED_MAX_ATOMIC
    if (!active)
      partial_max[t] = (real)0;
#endif
  }
  int count;
  group_exclusive_scan(scan, active, lid, &count);
  if (lid == 0)
    block_counts[get_group_id(0)] = count;
}

/* The list: each group's active tiles after those of the groups before it. */
__kernel __attribute__((reqd_work_group_size(TILE_LIST_WG, 1, 1))) void list_active_tiles(
  __global const uchar* tiles_active, __global const int* block_counts, __global int* tile_list)
{
  __local int scan[TILE_LIST_WG];
  const int t = get_global_id(0), lid = get_local_id(0), group = get_group_id(0);
  int before = 0;
  for (int b = lid; b < group; b += TILE_LIST_WG)
    before += block_counts[b];
  int offset, count;
  group_exclusive_scan(scan, before, lid, &offset);
  const int active = t < TILES_X * TILES_Y && tiles_active[t] != 0 ? 1 : 0;
  const int at = group_exclusive_scan(scan, active, lid, &count);
  if (active)
    tile_list[1 + offset + at] = t;
  if (group == get_num_groups(0) - 1 && lid == 0)
    tile_list[0] = offset + count;
}
#endif
