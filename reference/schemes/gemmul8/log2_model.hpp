// __log2f (lg2.approx.f32, the SFU's approximation) as GEMMul8 v2.0.14's shifts meet it. The model
// is the correctly rounded log2 (RN); where a recording of the H200 exists
// (tests/data/gemmul8/lg2_h200.txt, written by device/probes/gemmul8_lg2_probe.cu), the shifts it
// lists, the ones where the hardware's approximation gives another floor than RN(log2 x), replace
// the model's. Without a recording, a line whose shift could change for some log2 within the
// approximation's error window is counted as approximation-dependent (scale stage notes).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace ozref::schemes::gemmul8 {

// RN(log2 x) as a float for x > 0 (-inf for 0, +inf for +inf, NaN below 0). Exact: double log2
// first, an exact 200-bit evaluation where that lies too near a rounding boundary.
float log2_nearest(float x);

// A window containing every value lg2.approx.f32 may return for x: the CUDA Programming Guide
// bounds __log2f's error by 2^-22 absolute on [0.5, 2] and 2 ulps elsewhere; the window is twice
// that and one more float ulp on each side: [low, high].
void log2_window(float x, float& low, float& high);

// The recorded H200 shifts that differ from the model: the fast mode's norm term keyed by
// (moduli, exponent, vecnrmf bits), the accurate mode's keyed by (moduli, x bits).
// Each entry holds the H200's floor and the floor the probe computed with RN(log2): the model's,
// which ozref checks against its own where it uses the entry (the probe and the model must agree
// on GEMMul8's formula).
struct Lg2Floor {
  int32_t h200 = 0, model = 0;
};
struct Lg2Recording {
  bool loaded = false;
  std::string source;  // the file read, or why none was
  std::map<std::tuple<int, int, uint32_t>, Lg2Floor> fast;
  std::map<std::pair<int, uint32_t>, Lg2Floor> accurate;
};

// The recording in $OZREF_GEMMUL8_LG2, else the project's tests/data/gemmul8/lg2_h200.txt, read once;
// InputError for a malformed file (its line named).
const Lg2Recording& lg2_recording();
// Parses one recording (for tests); InputError naming `name` and the line for a malformed one.
Lg2Recording parse_lg2_recording(const std::string& text, const std::string& name);

}  // namespace ozref::schemes::gemmul8
