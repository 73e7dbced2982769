package data

import (
	"bytes"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

// nextLibSVM parses one LibSVM line into ex and numbers its features (see
// libsvmFeature). A malformed row allocates no feature: the whole line is
// parsed before any index is numbered.
func (s *Stream) nextLibSVM(line []byte, ex *Example) *ParseError {
	maxIdx, field, msg := parseLibSVM(line, ex)
	if msg != "" {
		return s.parseError(field, msg)
	}
	if s.libIdentity {
		s.dim = max(s.dim, maxIdx)
		return nil
	}
	for k, i := range ex.X.Ind {
		ex.X.Ind[k] = s.libsvmFeature(int32(i + 1))
	}
	return nil
}

// libsvmFeature returns the feature of the 1-based LibSVM index idx,
// allocating the next one when idx is new. Features are numbered in order of
// first appearance, like MovieLens IDs and CSV values, so that the feature
// space grows with the number of distinct indices in the file and never with
// the largest one: a single row "1 2147483647:1" is one feature, not two
// billion (which learners would allocate, at several bytes each, for their
// weights).
func (s *Stream) libsvmFeature(idx int32) int {
	i, added := s.lib.number(idx)
	if added {
		s.dictBytes += libsvmEntryBytes
	}
	return i
}

// parseLibSVM parses the LibSVM line "label idx:val idx:val … [# comment]"
// into ex, which must be empty. Tokens are separated by spaces or tabs;
// qid:… tokens are ignored, and features with value 0 are dropped, after
// the check that no index is repeated (a repeat is malformed whatever its
// value: "3:5 3:0" says two things of feature 3). Indices may come in any
// order: ex.X is sorted by index, so that an unsorted row reads exactly as
// the sorted one. ex.X.Ind holds the 0-based indices as written (idx−1). It
// returns the largest 1-based index (0 if none), or the field and message of
// the first error.
func parseLibSVM(line []byte, ex *Example) (maxIdx int, field, msg string) {
	i, n := 0, len(line)
	token := func() []byte {
		for i < n && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		start := i
		for i < n && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		return line[start:i]
	}
	label := token()
	y, ok := parseNumber(label)
	if !ok {
		return 0, "label", labelNotANumber(label)
	}
	ex.Y = y
	top := 0 // largest stored index: a larger one cannot be a repeat
	unsorted, zeros := false, false
	var seen map[int]struct{} // the indices so far, once the row is out of order
	for f := 2; ; f++ {
		tok := token()
		if len(tok) == 0 || tok[0] == '#' {
			break
		}
		idx, v, qid, msg := libsvmPair(tok)
		if msg != "" {
			return 0, "field " + str.Itoa(f), msg
		}
		if qid {
			continue
		}
		maxIdx = max(maxIdx, idx)
		if idx <= top {
			// Out of order: a repeat is possible. The indices so far go
			// into a set once, so that a long unsorted row costs O(nnz),
			// not O(nnz²) (a 64 MiB line holds millions of indices).
			if seen == nil {
				seen = make(map[int]struct{}, 2*len(ex.X.Ind))
				for _, j := range ex.X.Ind {
					seen[j] = struct{}{}
				}
			}
			if _, dup := seen[idx-1]; dup {
				return 0, "field " + str.Itoa(f), "index " + str.Itoa(idx) + " repeated (want each index once per row)"
			}
			unsorted = true
		}
		if seen != nil {
			seen[idx-1] = struct{}{}
		}
		top = max(top, idx)
		// Zeros are kept until the end, for the repeat check above.
		zeros = zeros || v == 0
		ex.X.Ind = append(ex.X.Ind, idx-1)
		ex.X.Val = append(ex.X.Val, v)
	}
	if zeros {
		ex.X.dropZeros()
	}
	if unsorted {
		ex.X.Sort()
	}
	return maxIdx, "", ""
}

// libsvmPair parses a LibSVM feature, tok = "index:value": the 1-based
// index and the value, or qid for a "qid:…" pair (LibSVM's query id, not a
// feature), or the message of its error.
func libsvmPair(tok []byte) (idx int, v float64, qid bool, msg string) {
	c := bytes.IndexByte(tok, ':')
	if c < 0 {
		return 0, 0, false, str.QuoteCut(tok) + " is not index:value (e.g. 3:0.5)"
	}
	ib, vb := tok[:c], tok[c+1:]
	if string(ib) == "qid" {
		return 0, 0, true, ""
	}
	idx, ok := parseIndex(ib)
	if !ok {
		want := "want an integer in [1, " + str.Itoa(maxLibSVMIndex) + "]"
		if isUint(ib) && strings.Trim(string(ib), "0") == "" {
			return 0, 0, false, "index 0: LibSVM indices are 1-based (" + want + ")"
		}
		return 0, 0, false, "index " + str.QuoteCut(ib) + " is not a feature index (" + want + ")"
	}
	v, ok = parseNumber(vb)
	if !ok {
		return 0, 0, false, "value of index " + str.Itoa(idx) + " " + notANumber(vb)
	}
	return idx, v, false, ""
}
