// The GPU oracle's placement of a query in a probe tile (device/probes/query_tile.hpp), with a host
// stand-in for the GPU: the tile is written out by the record writer that made the H200's traces
// (probe_tiles.hpp's write_records) and read back by ozref's trace reader; the record at the answer's
// place must be the query (its A, B and C, byte for byte), and every other record all zeros, for
// every instruction the probe kernels run. Each probe op is also one of sm_90's spec.
#include <filesystem>
#include <unistd.h>

#include "infer/queries.hpp"
#include "io/mma_trace.hpp"
#include "mma/instruction.hpp"
#include "probe_tiles.hpp"
#include "query_tile.hpp"
#include "support.hpp"

using namespace ozref;

namespace {

// The records of one tile (d all zero: the stand-in), as the H200 probe program writes them.
std::vector<MmaRecord> records_of(int op, const probe::QueryTile& q) {
  const probe::OpInfo& info = probe::op_info(op);
  probe::Tiles tiles(info.m, info.n, info.k, info.element_bytes);
  tiles.add(q.a, q.b, q.c, "query");
  const std::string path = (std::filesystem::temp_directory_path() / ("ozref-query-tile-" + std::to_string(getpid()) + ".jsonl")).string();
  size_t records = 0, canaries = 0;
  REQUIRE(probe::write_records(path, info.ptx, tiles, std::vector<uint32_t>(q.c.size(), 0), "stand-in", 0xFFFFFFFFu, records, canaries));
  std::vector<MmaRecord> out;
  read_mma_trace(path, [&](const MmaRecord& r) { out.push_back(r); });
  std::filesystem::remove(path);
  REQUIRE(out.size() == records);
  return out;
}

}  // namespace

TEST_CASE("gpu oracle: a query's tile holds it at the answer's place and zeros elsewhere, for every probe op") {
  Rng rng(test::seed());
  test::CaseCount cases("queries placed in tiles and read back as records");
  const mma::ArchSpec& sm90 = mma::arch("sm_90");
  for (int op = 0; op < probe::kOpCount; ++op) {
    const std::string ptx = probe::op_info(op).ptx;
    INFO(ptx);
    CHECK(probe::op_named(ptx) == op);
    const mma::InstructionSpec& spec = mma::instruction(sm90, ptx);  // the CPU model of what the kernel issues
    for (int i = 0; i < 50; ++i, ++cases) {
      const MmaRecord q = infer::random_query(spec, rng);
      REQUIRE(q.a.size() == probe::row_bytes(op));
      const std::vector<MmaRecord> records = records_of(op, probe::query_tile(op, q.a, q.b, q.c));
      REQUIRE(records.size() == size_t(probe::op_info(op).m) * probe::op_info(op).n);
      for (size_t r = 0; r < records.size(); ++r) {
        const MmaRecord& got = records[r];
        CHECK(got.op == ptx);
        if (r == probe::QueryTile::kAnswer) {
          CHECK(got.a == q.a);
          CHECK(got.b == q.b);
          CHECK(got.c == q.c);
        } else {
          const bool row0 = r < size_t(probe::op_info(op).n), col0 = r % probe::op_info(op).n == 0;
          CHECK(got.a == (row0 ? q.a : std::vector<uint8_t>(q.a.size(), 0)));
          CHECK(got.b == (col0 ? q.b : std::vector<uint8_t>(q.b.size(), 0)));
          CHECK(got.c == 0);
        }
      }
    }
  }
  CHECK(probe::op_named("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32") == -1);
  cases.report(probe::kOpCount * 50);
}
