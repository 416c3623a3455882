#pragma once
/// @file
/// MSCCL algorithm files (the XML that msccl-tools and the synthesizers built on it write) as
/// chunk schedules (docs/schedules.md, "MSCCL files": what is supported and refused).
///
/// An `<algo>` has `ngpus` GPUs; each `<gpu>` has an input buffer (`i_chunks`), an output buffer
/// (`o_chunks`, none when `inplace="1"`: the output is the input) and a scratch buffer
/// (`s_chunks`). Each `<tb>` (threadblock) is one ordered program of its GPU, with one peer it
/// sends to (`send`), one it receives from (`recv`) and a channel (`chan`); its `<step>`s read
/// `srcbuf[srcoff, srcoff + cnt)` and write `dstbuf[dstoff, dstoff + cnt)`. Step types:
///   s send · r receive (copy) · re local reduce · cpy local copy · nop nothing ·
///   rcs receive, then send what was received · rrc receive and reduce with src into dst ·
///   rrs receive and reduce with src, send the result (a per-threadblock temporary holds it) ·
///   rrcs receive and reduce with src into dst, then send dst.
/// A step with `depid`/`deps` waits for step `deps` of threadblock `depid` of its GPU. Sends and
/// receives between two GPUs on one channel meet in order.
///
/// Slots of a node: the input buffer, then the output buffer (not in place), then scratch, then
/// the temporaries of rrs. In place, i and o are one buffer as NCCL's in-place calls lay it out:
/// the same chunks, but for all-gather and gather, whose input i[j] is the GPU's block of the
/// output, o[r·k + j], and reduce-scatter and scatter, whose output o[j] is i[r·k + j]. The collective (`coll`: any of collective.hpp's but custom) has
/// `nchunksperloop` chunks in starnet's sense (collective.hpp); a rooted one (reduce, broadcast,
/// gather, scatter) its root in `root` (which starnet writes and the GPU loaders do not read;
/// GPU 0 when absent). msccl_export.hpp writes the format.
///
/// Complexity: O(file size). IMPORTANT: documents with a DOCTYPE are refused (no entity is ever
/// expanded); `proto`, `nchannels` and the `hasdep` flags are read but do not change the run.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>

#include <string>

namespace starnet::algorithms::schedule {

struct MscclAlgorithm {
  std::string name;
  std::uint32_t gpus = 0;
  bool in_place = true;
  std::uint32_t threadblocks = 0;
  std::uint32_t steps = 0;  ///< <step> elements
  Schedule schedule;
};

/// Parses the XML text @p xml. @param where names the input in messages.
/// @throws ScheduleError naming @p where and the element (e.g. `gpu 3, tb 1, step 5`) for text
/// that is not XML, a DOCTYPE, a missing or malformed attribute, an unknown step type or buffer, a
/// chunk range outside its buffer, a send or receive in a threadblock without that peer, a
/// collective starnet cannot check (custom), a root that is not a GPU, a receive without its send.
[[nodiscard]] MscclAlgorithm read_msccl(const std::string& xml, const std::string& where);

}  // namespace starnet::algorithms::schedule
