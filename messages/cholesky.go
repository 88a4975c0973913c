package messages

import "math"

// CholeskyLower returns the lower-triangular L with L·Lᵀ = a for a
// symmetric k×k matrix a (row-major; only its lower triangle is read), by
// the Cholesky–Banachiewicz recursion
//
//	L_jj = √(a_jj − Σ_{p<j} L_jp²),  L_ij = (a_ij − Σ_{p<j} L_ip·L_jp)/L_jj  (i > j),
//
// and whether every pivot was positive (a is positive definite). A pivot
// that is not positive, as a singular covariance gives, leaves its column
// of L zero, so L·Lᵀ is then the nearest factorable part of a. An a
// that does not hold k×k numbers gives nil and false.
//
// It serves the blocks of multivariate Gaussians over a factor's few
// variables (a joint site's precision, a tilted distribution's
// covariance), where a dense factorisation without pivoting is the
// cheapest and exact to rounding.
func CholeskyLower(a []float64, k int) (l []float64, positive bool) {
	if k < 0 || k > len(a) || k*k > len(a) {
		return nil, false
	}
	l = make([]float64, k*k)
	positive = true
	for j := range k {
		d := a[j*k+j]
		for p := range j {
			d -= l[j*k+p] * l[j*k+p]
		}
		if !(d > 0) {
			positive = false
			continue
		}
		ljj := math.Sqrt(d)
		l[j*k+j] = ljj
		for i := j + 1; i < k; i++ {
			v := a[i*k+j]
			for p := range j {
				v -= l[i*k+p] * l[j*k+p]
			}
			l[i*k+j] = v / ljj
		}
	}
	return l, positive
}
