// Package evaluate plays the paper's experimental protocol (§5.1): random
// permutations × k folds of a data set held in memory, each pass training
// one fresh learner online over its training folds (progressive metrics:
// every row scored before it is learned) and then scoring the held-out
// fold, with a trace of the average loss against rows and time. `occfm
// paper` builds the paper's tables from its passes; MeanStd summarises a
// figure over them.
package evaluate
