// `ozref verify-trace` over every rank of MPI_COMM_WORLD (collective; docs/scale.md). C is split
// into the 2-D blocks of exact, check and run: every rank checks the manifest against the whole
// product's scheme; the trace's arrays are checked whole (header, FNV-1a hash, admitted values),
// each by one rank, a few MiB at a time; then each rank reads from the stage arrays only the part
// its block needs (schemes/pipeline/block_trace_subject.hpp) and verifies the block re-synchronised, its
// checks and comparisons naming and ordering elements as in the whole arrays. The stage reports,
// comparisons and accuracy figures are merged exactly on rank 0, and the reproducer of each GEMM
// stage's first difference is written by the rank that holds it: one process's report, for any
// number of ranks. Bad input on any rank stops every rank with the message one process would
// print first.
#pragma once
#include <string>

#include "api/trace_verification.hpp"

namespace ozref::mpi {

// Why verify_trace_distributed does not take a trace of this scheme (empty: it does): the real
// ozaki2-int8, ozaki2-fp8 and ozaki2-fp4 schemes are distributed, in every mode and CRT.
std::string why_trace_not_distributed(const schemes::Scheme& whole);

// On every rank: the whole product's scheme, its verification level and the merged result (its c
// left empty; on ranks other than 0, the reports of every rank and the figures of their own block).
// A trace why_trace_not_distributed refuses: InputError on more than one rank, verified as in one
// process on one.
TraceVerification verify_trace_distributed(const TraceVerificationRequest& request);

}  // namespace ozref::mpi
