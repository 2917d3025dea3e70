/* Reflective walls through ghost cells, filled on the device (thesis 4.5.1).
 * One work-item per ghost cell; a ghost cell mirrors the interior cell across the wall, with the
 * wall-normal momentum negated. Corner ghosts mirror across both walls. */
__kernel void fill_ghosts_reflective(__global real* h, __global real* hu, __global real* hv,
  __global real* bed)
{
  const int k = get_global_id(0);
  /* Ghost cells in two bands: GHOST full padded rows at the bottom and top, then GHOST columns at
   * the left and right of every interior row. */
  const int band_rows = 2 * GHOST * PITCH;
  const int total = band_rows + 2 * GHOST * NY;
  if (k >= total)
    return;
  int pi, pj; /* padded coordinates */
  if (k < band_rows)
  {
    const int row = k / PITCH;
    pi = k % PITCH;
    pj = row < GHOST ? row : NY + row; /* rows 0..G-1, then NY+G..NY+2G-1 */
  }
  else
  {
    const int r = k - band_rows;
    const int col = r % (2 * GHOST);
    pj = GHOST + r / (2 * GHOST);
    pi = col < GHOST ? col : NX + col;
  }
  const int i = pi - GHOST, j = pj - GHOST;
  /* Mirror: cell -1 reflects 0, -2 reflects 1; cell N reflects N-1, N+1 reflects N-2. */
  const bool flip_x = i < 0 || i >= NX;
  const bool flip_y = j < 0 || j >= NY;
  const int si = i < 0 ? -1 - i : (i >= NX ? 2 * NX - 1 - i : i);
  const int sj = j < 0 ? -1 - j : (j >= NY ? 2 * NY - 1 - j : j);
  const int dst = pj * PITCH + pi;
  const int src = IDX(si, sj);
  h[dst] = h[src];
  bed[dst] = bed[src];
  hu[dst] = flip_x ? -hu[src] : hu[src];
  hv[dst] = flip_y ? -hv[src] : hv[src];
}
