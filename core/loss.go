package core

import (
	"math"

	"github.com/occfm/occfm/core/data"
)

// Loss is a convex loss ℓ(ŷ, y) of a real prediction ŷ and a label y.
// The zero value is Squared.
type Loss int

const (
	// Squared is ℓ(ŷ, y) = (ŷ − y)², for regression (§3.1).
	Squared Loss = iota
	// Logistic is ℓ(ŷ, y) = log(1 + exp(−yŷ)) with y ∈ {−1, +1}, for binary
	// classification. (The paper prints log(1 + 1/exp(−yŷ)); the sign is a
	// typo: that loss would grow with the margin yŷ, punishing right answers.)
	Logistic
)

// String returns "squared" or "logistic".
func (l Loss) String() string {
	switch l {
	case Squared:
		return "squared"
	case Logistic:
		return "logistic"
	}
	return "Loss(?)"
}

// Value returns ℓ(ŷ, y).
func (l Loss) Value(yhat, y float64) float64 {
	switch l {
	case Squared:
		d := yhat - y
		return d * d
	case Logistic:
		return softplus(-y * yhat)
	}
	panic("core: unknown loss")
}

// Deriv returns ∂ℓ/∂ŷ at (ŷ, y): 2(ŷ − y) for Squared and −y·σ(−yŷ) for
// Logistic, where σ(z) = 1/(1 + e⁻ᶻ).
func (l Loss) Deriv(yhat, y float64) float64 {
	switch l {
	case Squared:
		return 2 * (yhat - y)
	case Logistic:
		return -y * sigmoid(-y*yhat)
	}
	panic("core: unknown loss")
}

// softplus returns log(1 + eᶻ) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// sigmoid returns 1/(1 + e⁻ᶻ) without overflow.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// TaskLoss returns the loss that suits t: Squared for Regression, Logistic for
// data.Classification.
func TaskLoss(t data.Task) Loss {
	if t == data.Classification {
		return Logistic
	}
	return Squared
}
