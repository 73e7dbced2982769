package data

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/occfm/occfm/core/internal/str"
)

// labelNames are the header names guessed to be the label, lower case.
var labelNames = []string{"label", "target", "y", "class", "rating", "clicked", "click", "outcome"}

// ignoredNames are the header names guessed to be ignored, lower case.
var ignoredNames = []string{"timestamp", "time", "date", "datetime"}

// missingColumn is the error of a role given to a column the header does
// not have: the caller's (ReaderSettings.Roles), or a model's, whose
// vocabulary names the CSV columns it was learned on.
func (s *Stream) missingColumn(name string, header []string) error {
	if v := s.continued; v != nil && v.Format == FormatCSV && !slices.Contains(s.rolesGiven, name) {
		var model []string
		for _, c := range v.Columns {
			model = append(model, c.Name)
		}
		return errors.New("core: " + s.name + ": the model continued was learned on a CSV file with the columns " +
			str.QuoteList(model) + ", and this file has no column " + str.Quote(name) + " (its header reads " + str.QuoteList(header) + ")")
	}
	return errors.New("core: " + s.name + ": ReaderSettings.Roles names column " + str.Quote(name) + ", which is not in the header " + str.QuoteList(header))
}

// assignRoles sets the role of every column: from roles by name, else
// guessed (see NewStream).
func (s *Stream) assignRoles(roles map[string]Role, stats []csvStats) error {
	cols := s.csv.cols
	index := make(map[string]int, len(cols))
	for j, col := range cols {
		index[col.name] = j
	}
	names := make([]string, 0, len(roles))
	for name := range roles {
		names = append(names, name)
	}
	sort.Strings(names)
	labels := 0
	for _, name := range names {
		role := roles[name]
		j, ok := index[name]
		if !ok {
			header := make([]string, len(cols))
			for k, col := range cols {
				header[k] = col.name
			}
			return s.missingColumn(name, header)
		}
		if role < RoleGuess || role > RoleIgnore {
			return errors.New("core: " + s.name + ": ReaderSettings.Roles gives column " + str.Quote(name) + " the invalid role " + str.Itoa(int(role)))
		}
		cols[j].role = role
		if role == RoleLabel {
			labels++
		}
	}
	if labels > 1 {
		return errors.New("core: " + s.name + ": ReaderSettings.Roles gives " + str.Itoa(labels) + " label columns, want one")
	}

	// The label, unless given: the first column named like one (the
	// others so named, read as features, are warned of), else the last.
	label := -1
	var alike []int
	for j, col := range cols {
		if labels == 0 && col.role == RoleGuess && contains(labelNames, strings.ToLower(col.name)) {
			if label < 0 {
				label = j
			} else {
				alike = append(alike, j)
			}
		}
	}
	for j := len(cols) - 1; labels == 0 && label < 0 && j >= 0; j-- {
		if cols[j].role == RoleGuess {
			label = j
		}
	}
	if labels == 0 && label < 0 {
		return errors.New("core: " + s.name + ": no label column: ReaderSettings.Roles sets every column and none is RoleLabel")
	}
	if label >= 0 {
		cols[label].role = RoleLabel
	}
	for j := range cols {
		col := &cols[j]
		if col.role != RoleGuess {
			continue
		}
		st := stats[j]
		switch {
		case contains(ignoredNames, strings.ToLower(col.name)):
			col.role = RoleIgnore
		case isIDName(col.name) && st.integer():
			col.role = RoleCategorical
		case st.numeric():
			col.role = RoleNumeric
		default:
			col.role = RoleCategorical
		}
	}
	if len(alike) > 0 {
		s.warnLabelNames(label, alike)
	}
	return nil
}

// warnLabelNames warns that the columns alike are named like a label too
// but read as features, the label being label, the first column so named:
// in a header "y,label,x", "y" is the label and "label" a feature.
func (s *Stream) warnLabelNames(label int, alike []int) {
	cols := s.csv.cols
	msg := s.name + ": the label is " + str.QuoteCut([]byte(cols[label].name)) +
		", the first column named like a label; named like one too but read as features: "
	for k, j := range alike {
		if k > 0 {
			msg += ", "
		}
		msg += str.QuoteCut([]byte(cols[j].name)) + " (" + roleNames[cols[j].role] + ")"
	}
	s.warn(msg + ". If that is wrong, rename the columns (or, in the page, set their roles).")
}

// roleNames name the roles, for messages.
var roleNames = [...]string{RoleGuess: "guessed", RoleLabel: "label", RoleCategorical: "categorical", RoleNumeric: "numeric", RoleIgnore: "ignored"}

func contains(list []string, s string) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}

// isIDName reports whether a column name looks like an identifier: id,
// user, item, *_id, *-id (any case), or *Id, *ID.
func isIDName(name string) bool {
	lower := strings.ToLower(name)
	switch {
	case lower == "id" || lower == "user" || lower == "item":
		return true
	case strings.HasSuffix(lower, "_id") || strings.HasSuffix(lower, "-id"):
		return true
	case len(name) > 2 && (strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")):
		return true
	}
	return false
}
