package data

import (
	"strconv"
)

// AppendLibSVM appends ex to b as one LibSVM line, "label idx:val …\n", and
// returns the extended slice. Indices are written 1-based (feature i as
// i+1) in ex's order and numbers in the shortest form that parses back to
// the same float64, so the Stream of the written lines returns ex again
// (features with value 0 aside, which Stream drops). It allocates nothing
// when b has room.
func AppendLibSVM(b []byte, ex Example) []byte {
	b = strconv.AppendFloat(b, ex.Y, 'g', -1, 64)
	for k, i := range ex.X.Ind {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(i)+1, 10)
		b = append(b, ':')
		b = strconv.AppendFloat(b, ex.X.Val[k], 'g', -1, 64)
	}
	return append(b, '\n')
}
