// The operands of an exact product (`ozref exact`, `ozref check`, api::exact, api::check): real
// (f8 or f4) or complex (c16 on either side; beside it a real operand has a zero imaginary part).
// A complex product is computed as one real product whose result, read as pairs of FP64 numbers,
// is C: A (m x k) as the m x 2k real matrix of its parts (each element's real part, then its
// imaginary part), times B expanded to 2k x 2n, b's 2 x 2 block being [[re, im], [-im, re]].
// Element (i, 2j) is then Re C[i, j] and (i, 2j+1) Im C[i, j], each the exact sum of its 2k real
// products (docs/exact.md, "Complex products").
#pragma once
#include <string>

#include "api/check_product.hpp"
#include "api/operands.hpp"
#include "io/npy.hpp"

namespace ozref {

struct ProductOperands {
  Operands real;  // the real product computed: A and B themselves, or their expansions when complex
  bool complex = false;
  size_t m = 0, n = 0, k = 0;  // the product's shape (the complex one when complex)
};

// InputError unless x is a 2-D f8, f4 or c16 array.
void require_operand(const NpyArray& x, const std::string& name);

// The real product of a complex product's parts (shapes not checked): A interleaved, B expanded.
Operands complex_as_real(const ComplexMatrix& a, const ComplexMatrix& b);

// A read and refused before B is looked at, with load_operands' words for real operands; for
// complex ones, the shapes and the expanded product's memory are checked by the same rules.
ProductOperands product_operands(const NpyArray& a, const std::string& a_name, const NpyArray& b, const std::string& b_name);
ProductOperands load_product_operands(const std::string& a_path, const std::string& b_path);

// The exact product as written: f8 m x n, or c16 m x n (the real product's bytes, unchanged).
NpyArray product_npy(const ExactProduct& e, bool complex);

// C as the real matrix the product is compared with (a c16 C as f8 m x 2n, its bytes unchanged);
// InputError naming `c_name` when C is not m x n, or not c16 for a complex product (f8 or f4 for
// a real one).
NpyArray c_as_real(NpyArray c, const ProductOperands& p, const std::string& c_name);

// C (from c_as_real) against the real product e: the outcome in the product's terms, each place
// of a complex C its element and part.
CheckOutcome check_product_against(const ExactProduct& e, const NpyArray& c_real, const ProductOperands& p,
                                   const std::string& c_name, int threads);

}  // namespace ozref
