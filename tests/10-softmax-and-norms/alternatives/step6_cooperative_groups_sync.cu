// ALTERNATIVE 10.6 step6_cluster_softmax.cu
// The pairs pulled instead of pushed: one thread publishes the block's pair in a __shared__
// variable, and after cluster.sync() every thread reads all the blocks' pairs through
// cooperative groups' map_shared_rank, one after another; a second cluster.sync() before any
// block may publish again or leave. Slower (two barriers of the whole cluster per row, and 16
// round trips to other SMs), but just as correct; the inbox is left unused. And each thread's pair
// built with step 4's online update, a vector at a time, before the values are turned into
// exponentials of the row's max.
// @region
  (void)inbox;
  (void)turn;
  __shared__ Partial published;
  const cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) published = mine;
  cluster.sync();
  Partial merged = {-INFINITY, 0.0f};
  for (unsigned rank = 0; rank < cluster.num_blocks(); ++rank) {
    const Partial* theirs = cluster.map_shared_rank(&published, rank);
    merged = ready_made::merge_partials(merged, *theirs);
  }
  row = merged;
  cluster.sync();
// @region
  Partial mine = {-INFINITY, 0.0f};
  for (int s = 0; s < kSlots; ++s) mine = ready_made::online_update(mine, x + s * W);
  const Partial whole =
      merge_across_cluster(ready_made::block_reduce(mine, MergePartials{}), inbox, turn);
  const float shift = shift_for(whole.max), scale = scale_for(whole.sum);
  for (int s = 0; s < kSlots; ++s) {
    const int vector = first + s * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x);
    float y[W];
    for (int j = 0; j < W; ++j) y[j] = __expf(x[s * W + j] - shift) * scale;
    if (vector < end) ready_made::store_vector(out, vector, y);
  }
