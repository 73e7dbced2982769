package data

import (
	"errors"

	"github.com/occfm/occfm/core/internal/str"
)

// Format names a data layout.
type Format string

const (
	// FormatAuto sniffs the layout from the first lines of the stream.
	FormatAuto Format = "auto"
	// FormatLibSVM is LibSVM/svmlight: "label idx:val idx:val …", 1-based
	// indices.
	FormatLibSVM Format = "libsvm"
	// FormatCSV is delimited text with a header row and column roles.
	FormatCSV Format = "csv"
	// FormatMovieLens is a MovieLens ratings file: u.data (tab separated,
	// no header), ratings.dat ("::" separated), ratings.csv (header
	// userId,movieId,rating,timestamp), or a tab-separated "user item rating"
	// file. User and item IDs become one-hot features.
	FormatMovieLens Format = "movielens"
)

// Role is what a CSV column means to the learner.
type Role int

const (
	// RoleGuess lets the reader guess the role from the header and the first
	// rows.
	RoleGuess Role = iota
	// RoleLabel marks the label column (exactly one).
	RoleLabel
	// RoleCategorical one-hot encodes each distinct value as a feature.
	RoleCategorical
	// RoleNumeric uses the value as a real feature.
	RoleNumeric
	// RoleIgnore drops the column.
	RoleIgnore
)

// MaxLibSVMIndex is the largest feature index a LibSVM row may use.
const MaxLibSVMIndex = 1<<31 - 1

// Vocabulary is the feature numbering a Stream has built: which feature
// index each LibSVM index, MovieLens ID or CSV value got (in order of first
// appearance),
// the CSV column roles and the scales of numeric columns (taken from the
// rows read ahead). A learner only knows features by index, so a stream
// that continues its learning on more data must number them the same way:
// start it with ReaderSettings.Vocabulary. Model files keep it.
type Vocabulary struct {
	// Format is the format the numbering comes from: FormatLibSVM,
	// FormatMovieLens or FormatCSV.
	Format Format
	// Dim is the number of features allocated (Stream.Dim).
	Dim int
	// Columns are the CSV columns, in header order (nil otherwise).
	Columns []VocabularyColumn
	// Features lists the MovieLens and CSV features by index (nil for
	// LibSVM): len(Features) = Dim.
	Features []VocabularyFeature
	// Renumbered is set for LibSVM when features are numbered in order of
	// first appearance: feature i is the index Indices[i] as written in the
	// file, len(Indices) = Dim. It is false in a Vocabulary saved before
	// OCCFM renumbered LibSVM features (model files of format 1 may hold
	// one), whose numbering is the identity, index k being feature k−1
	// (Indices nil): a stream continuing it keeps that numbering, so that
	// such a model continues exactly as before.
	Renumbered bool
	Indices    []int32
}

// VocabularyColumn is one CSV column of a Vocabulary.
type VocabularyColumn struct {
	Name string
	Role Role
	// Scale is the divisor M of a numeric column's values v/M: 1, as a
	// stream passes numbers on as they are (the guard scales them, see
	// Scales); a model file saved before that holds the M it was learned
	// with, the column's max |v| in the rows read ahead, and a stream
	// started with its vocabulary divides by it as it did.
	Scale float64
}

// VocabularyFeature is one feature of a Vocabulary: for MovieLens, Field 0
// is the user and 1 the item, Value the ID; for CSV, Field is the column
// and Value the categorical value ("" for a numeric column).
type VocabularyFeature struct {
	Field int
	Value string
}

// Check reports whether v is well formed (a Vocabulary from a file may not
// be).
func (v *Vocabulary) Check() error {
	switch v.Format {
	case FormatLibSVM:
		if len(v.Features) != 0 || len(v.Columns) != 0 || v.Dim < 0 {
			return errors.New("a LibSVM vocabulary with names")
		}
		if !v.Renumbered {
			if v.Indices != nil {
				return errors.New("a LibSVM vocabulary with indices but not renumbered")
			}
			return nil
		}
		if len(v.Indices) != v.Dim {
			return errors.New(str.Itoa(v.Dim) + " features but " + str.Itoa(len(v.Indices)) + " indices listed")
		}
		seen := make(map[int32]bool, len(v.Indices))
		for _, idx := range v.Indices {
			if idx < 1 || int(idx) > MaxLibSVMIndex || seen[idx] {
				return errors.New("LibSVM index " + str.Itoa(int(idx)) + " out of range or repeated")
			}
			seen[idx] = true
		}
		return nil
	case FormatMovieLens, FormatCSV:
		if v.Renumbered || v.Indices != nil {
			return errors.New("a " + string(v.Format) + " vocabulary with LibSVM indices")
		}
	default:
		return errors.New("unknown format " + str.Quote(string(v.Format)))
	}
	if v.Dim != len(v.Features) {
		return errors.New(str.Itoa(v.Dim) + " features but " + str.Itoa(len(v.Features)) + " listed")
	}
	if v.Format == FormatMovieLens && len(v.Columns) != 0 {
		return errors.New("a MovieLens vocabulary with columns")
	}
	fields := 2
	if v.Format == FormatCSV {
		fields = len(v.Columns)
		labels := 0
		for _, c := range v.Columns {
			if c.Role < RoleLabel || c.Role > RoleIgnore {
				return errors.New("column " + str.Quote(c.Name) + " has role " + str.Itoa(int(c.Role)))
			}
			if c.Role == RoleLabel {
				labels++
			}
			if c.Role == RoleNumeric && !(c.Scale > 0) {
				return errors.New("column " + str.Quote(c.Name) + " has scale " + str.Ftoa(c.Scale))
			}
		}
		if labels != 1 {
			return errors.New(str.Itoa(labels) + " label columns")
		}
	}
	seen := make(map[VocabularyFeature]bool, len(v.Features))
	numeric := make(map[int]bool)
	for _, f := range v.Features {
		if f.Field < 0 || f.Field >= fields || seen[f] {
			return errors.New("feature " + str.Itoa(f.Field) + ":" + str.Quote(f.Value) + " out of range or repeated")
		}
		seen[f] = true
		if v.Format == FormatCSV {
			role := v.Columns[f.Field].Role
			if role == RoleNumeric {
				numeric[f.Field] = true
			}
			if role == RoleNumeric && f.Value != "" || role != RoleNumeric && role != RoleCategorical {
				return errors.New("feature " + str.Quote(f.Value) + " of column " + str.Quote(v.Columns[f.Field].Name) + " (role " + str.Itoa(int(role)) + ")")
			}
		}
	}
	for j, c := range v.Columns {
		if c.Role == RoleNumeric && !numeric[j] {
			return errors.New("numeric column " + str.Quote(c.Name) + " has no feature")
		}
	}
	return nil
}

// String describes v briefly, e.g. "movielens, 2625 features".
func (v Vocabulary) String() string {
	return string(v.Format) + ", " + str.Itoa(v.Dim) + " features"
}

// Vocabulary returns the feature numbering built so far, in new memory.
// Starting another Stream with it (ReaderSettings.Vocabulary) numbers the
// same values as this one did. It does not change the Stream.
func (s *Stream) Vocabulary() Vocabulary {
	v := Vocabulary{Format: s.format, Dim: s.Dim()}
	switch s.format {
	case FormatLibSVM:
		if !s.libIdentity {
			v.Renumbered = true
			v.Indices = append(make([]int32, 0, len(s.lib.raw)), s.lib.raw...)
		}
	case FormatMovieLens:
		v.Features = make([]VocabularyFeature, len(s.names))
		for field, d := range []*dictionary{&s.ml.users, &s.ml.items} {
			for val, i := range d.index {
				v.Features[i] = VocabularyFeature{Field: field, Value: val}
			}
		}
	case FormatCSV:
		v.Features = make([]VocabularyFeature, len(s.names))
		v.Columns = make([]VocabularyColumn, len(s.csv.cols))
		for j, col := range s.csv.cols {
			v.Columns[j] = VocabularyColumn{Name: col.name, Role: col.role, Scale: col.scale}
			switch col.role {
			case RoleNumeric:
				v.Features[col.feature] = VocabularyFeature{Field: j}
			case RoleCategorical:
				for val, i := range col.dict.index {
					v.Features[i] = VocabularyFeature{Field: j, Value: val}
				}
			}
		}
	}
	return v
}

// csvRoles returns the roles of v's columns by name, over which roles
// (those the caller set) take precedence.
func csvRoles(v *Vocabulary, roles map[string]Role) map[string]Role {
	out := make(map[string]Role, len(v.Columns))
	for _, c := range v.Columns {
		out[c.Name] = c.Role
	}
	for k, r := range roles {
		out[k] = r
	}
	return out
}

// continueVocabulary returns s after making it continue v's numbering (see
// useVocabulary), or an error; v nil does nothing.
func (s *Stream) continueVocabulary(v *Vocabulary) (*Stream, error) {
	if v == nil {
		return s, nil
	}
	if err := s.useVocabulary(v); err != nil {
		return nil, err
	}
	return s, nil
}

// useVocabulary makes s number features as v does: the dictionaries,
// names, numeric columns' features and scales are replaced by v's, and new
// values get the next indices after v's. The stream must be set up (its
// format known and, for CSV, its header read). Each value of v is replaced
// by the same bytes in the memory of the feature's name, which the
// dictionary's key shares as in Stream.feature: the values are then held
// once, not twice, however long a caller keeps v.
func (s *Stream) useVocabulary(v *Vocabulary) error {
	if err := v.Check(); err != nil {
		return errors.New("core: " + s.name + ": bad vocabulary: " + err.Error())
	}
	if s.format != v.Format {
		return errors.New("core: " + s.name + ": the model's features come from a " + string(v.Format) + " file, this one is " + string(s.format))
	}
	switch s.format {
	case FormatLibSVM:
		if !v.Renumbered {
			s.libIdentity = true
			s.dim = max(s.dim, v.Dim)
			return nil
		}
		s.lib.restore(v.Indices)
		s.dictBytes = int64(len(v.Indices)) * libsvmEntryBytes
		return nil
	case FormatMovieLens:
		s.ml.users, s.ml.items = newDictionary("user="), newDictionary("item=")
		s.names = make([]string, len(v.Features))
		for i, f := range v.Features {
			d := &s.ml.users
			if f.Field == 1 {
				d = &s.ml.items
			}
			s.names[i] = d.prefix + f.Value
			v.Features[i].Value = s.names[i][len(d.prefix):]
			d.index[v.Features[i].Value] = i
		}
		s.countNames()
		return nil
	}
	cols := s.csv.cols
	if len(cols) != len(v.Columns) {
		return errors.New("core: " + s.name + ": the model's file has " + str.Itoa(len(v.Columns)) + " columns, this one " + str.Itoa(len(cols)))
	}
	for j := range cols {
		if cols[j].name != v.Columns[j].Name {
			return errors.New("core: " + s.name + ": column " + str.Itoa(j+1) + " is " + str.Quote(cols[j].name) + ", the model's file had " + str.Quote(v.Columns[j].Name))
		}
		if cols[j].role != v.Columns[j].Role {
			return errors.New("core: " + s.name + ": column " + str.Quote(cols[j].name) + " has role " + str.Itoa(int(cols[j].role)) + ", the model's file had " + str.Itoa(int(v.Columns[j].Role)))
		}
	}
	s.names = make([]string, len(v.Features))
	for j := range cols {
		col := &cols[j]
		col.scale = v.Columns[j].Scale
		if col.role == RoleCategorical {
			col.dict = newDictionary(col.name + "=")
		}
	}
	for i, f := range v.Features {
		col := &cols[f.Field]
		if col.role == RoleNumeric {
			col.feature = i
			s.names[i] = col.name
			continue
		}
		s.names[i] = col.dict.prefix + f.Value
		v.Features[i].Value = s.names[i][len(col.dict.prefix):]
		col.dict.index[v.Features[i].Value] = i
	}
	s.countNames()
	return nil
}

// countNames sets the estimate dictBytes from s.names (see MemoryBytes).
func (s *Stream) countNames() {
	s.dictBytes = 0
	for _, name := range s.names {
		s.dictBytes += nameEntryBytes + int64(len(name))
	}
}
