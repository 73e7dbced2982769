package data

import (
	"math"
	"strconv"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber parses b as a finite float64: a decimal, with an optional
// sign, fraction and exponent. It accepts what strconv.ParseFloat accepts
// except infinities, NaN and Go's literal syntax, which is not data: digit
// separators ("1_000" would read as 1000) and hexadecimal ("0X1P-2" as
// 0.25) are refused, with the line and field, rather than misread.
//
// Short plain decimals ("3", "-1", "+1", "0.731854") take a fast path that
// does not allocate: with at most 15 significant digits the mantissa m and
// 10ᵏ are exact in float64, so m/10ᵏ is one correctly rounded division and
// equals strconv.ParseFloat's result. Everything else goes to
// strconv.ParseFloat.
func parseNumber(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	i := 0
	neg := false
	switch b[0] {
	case '-':
		neg = true
		i++
	case '+':
		i++
	}
	var m uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		if c >= '0' && c <= '9' {
			if digits < 15 && frac < len(pow10)-1 {
				m = m*10 + uint64(c-'0')
				if m != 0 {
					digits++
				}
				if frac >= 0 {
					frac++
				}
				continue
			}
			goto slow
		}
		if c == '.' && frac < 0 {
			frac = 0
			continue
		}
		goto slow
	}
	{
		// Need at least one digit: "", "-", "." and "-." are not numbers.
		n := len(b)
		if b[0] == '-' || b[0] == '+' {
			n--
		}
		if frac >= 0 {
			n--
		}
		if n == 0 {
			return 0, false
		}
	}
	if frac > 0 {
		v := float64(m) / pow10[frac]
		if neg {
			v = -v
		}
		return v, true
	}
	if neg {
		return -float64(m), true
	}
	return float64(m), true
slow:
	if goSyntax(b) {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// notANumber describes why parseNumber rejected b, for error messages: it
// is empty, not finite (NaN, Inf, or out of the float64 range) or not a
// number.
func notANumber(b []byte) string {
	if len(b) == 0 {
		return "is empty, want a number"
	}
	if goSyntax(b) {
		return str.QuoteCut(b) + " is not a number (want a decimal such as 1000 or 0.25: digit separators and hexadecimal are not read)"
	}
	if nonFinite(b) {
		return str.QuoteCut(b) + " is not a finite number (want a finite number; leave a missing value empty)"
	}
	return str.QuoteCut(b) + " is not a number"
}

// goSyntax reports whether b has a digit separator (_) or a hexadecimal
// prefix (0x), which strconv.ParseFloat reads as Go literals do.
func goSyntax(b []byte) bool {
	for i, c := range b {
		if c == '_' || (c == 'x' || c == 'X') && i > 0 && b[i-1] == '0' {
			return true
		}
	}
	return false
}

// nonFinite reports whether b is a number that is not finite: NaN, an
// infinity, or out of the float64 range ("1e999").
func nonFinite(b []byte) bool {
	v, err := strconv.ParseFloat(string(b), 64)
	return (err == nil || errorIsRange(err)) && (math.IsInf(v, 0) || math.IsNaN(v))
}

// labelNotANumber is notANumber for a label, with a hint for class names
// such as "spam" or "yes".
func labelNotANumber(b []byte) string {
	msg := notANumber(b)
	if strings.HasSuffix(msg, " is not a number") {
		msg += " (want a number: -1/+1 or 0/1 for two classes, any number for regression)"
	}
	return msg
}

func errorIsRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isUint reports whether b is 1 to 18 decimal digits.
func isUint(b []byte) bool {
	if len(b) == 0 || len(b) > 18 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxLibSVMIndex is the largest LibSVM feature index the reader accepts.
const maxLibSVMIndex = 1<<31 - 1

// parseIndex parses a positive decimal integer no larger than
// maxLibSVMIndex.
func parseIndex(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n < 1 || n > maxLibSVMIndex {
		return 0, false
	}
	return n, true
}
