#include "elementwise/special.h"

#include <cmath>
#include <limits>

namespace torch_core {

namespace {
constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kPsi10 = 2.25175258906672110764;  // digamma(10)
}

// psi(x): shift x up to >= 10 with psi(x) = psi(x + 1) - 1/x, then the asymptotic series;
// negative x through the reflection psi(1 - x) - psi(x) = pi / tan(pi x).
double digamma(double x) {
  if (std::isnan(x) || x == -std::numeric_limits<double>::infinity()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (x == 0) return std::copysign(std::numeric_limits<double>::infinity(), -x);
  if (x < 0) {
    if (x == std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
    return digamma(1.0 - x) - kPi / std::tan(kPi * x);
  }
  double result = 0.0;
  while (x < 10.0) {
    result -= 1.0 / x;
    x += 1.0;
  }
  if (x == 10.0) return result + kPsi10;
  // Stirling's series in 1/x^2, Horner form from the highest power: the coefficients are
  // B_2k / (2k) for k = 7 .. 1
  const double z = 1.0 / (x * x);
  const double series =
      z * ((((((1.0 / 12 * z - 691.0 / 32760) * z + 1.0 / 132) * z - 1.0 / 240) * z +
             1.0 / 252) * z - 1.0 / 120) * z + 1.0 / 12);
  return result + std::log(x) - 0.5 / x - series;
}

// psi'(x): the same shift with psi'(x) = psi'(x + 1) + 1/x^2, then its asymptotic series.
double trigamma(double x) {
  if (std::isnan(x)) return x;
  if (x <= 0 && x == std::floor(x)) return std::numeric_limits<double>::infinity();
  if (x < 0) {
    const double s = std::sin(kPi * x);
    return -trigamma(1.0 - x) + (kPi * kPi) / (s * s);
  }
  double result = 0.0;
  while (x < 10.0) {
    result += 1.0 / (x * x);
    x += 1.0;
  }
  const double inv = 1.0 / x;
  const double inv2 = inv * inv;
  const double series =
      inv + 0.5 * inv2 +
      inv * inv2 * (1.0 / 6 - inv2 * (1.0 / 30 - inv2 * (1.0 / 42 - inv2 * (1.0 / 30 -
      inv2 * (5.0 / 66 - inv2 * (691.0 / 2730 - inv2 * 7.0 / 6))))));
  return result + series;
}

// erf^-1(y): a rational first guess, then Newton steps on erf(x) - y.
double erfinv(double y) {
  if (std::isnan(y) || y < -1.0 || y > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1.0) return std::numeric_limits<double>::infinity();
  if (y == -1.0) return -std::numeric_limits<double>::infinity();
  const double w = -std::log((1.0 - y) * (1.0 + y));
  double x;
  if (w < 5.0) {
    const double t = w - 2.5;
    double p = 2.81022636e-08;
    p = 3.43273939e-07 + p * t;
    p = -3.5233877e-06 + p * t;
    p = -4.39150654e-06 + p * t;
    p = 0.00021858087 + p * t;
    p = -0.00125372503 + p * t;
    p = -0.00417768164 + p * t;
    p = 0.246640727 + p * t;
    p = 1.50140941 + p * t;
    x = p * y;
  } else {
    const double t = std::sqrt(w) - 3.0;
    double p = -0.000200214257;
    p = 0.000100950558 + p * t;
    p = 0.00134934322 + p * t;
    p = -0.00367342844 + p * t;
    p = 0.00573950773 + p * t;
    p = -0.0076224613 + p * t;
    p = 0.00943887047 + p * t;
    p = 1.00167406 + p * t;
    p = 2.83297682 + p * t;
    x = p * y;
  }
  const double two_over_sqrt_pi = 1.1283791670955126;
  for (int i = 0; i < 3; ++i) {
    const double err = std::erf(x) - y;
    x -= err / (two_over_sqrt_pi * std::exp(-x * x));
  }
  return x;
}

}  // namespace torch_core
